import {
  type CATALOG_OPS,
  type MerchantUpdate,
  menuInputSchema,
  merchantPatchSchema,
  type OpHandler,
} from '@od/contracts';
import { outboundRequest } from '@od/egress';
import { errors, type FieldErrors, fieldErrorsFromIssues, HttpException } from '@od/errors';
import { merchantEndpointUrl, type OdMerchantDocument, readMerchantDocument } from '@od/opendelivery';
import { endFetchLease, takeFetchLease } from '../db/od-fetch-lease.ts';
import { findOdSource, markOdRead, type OdSource } from '../db/od-source.ts';
import { renderMenu } from '../domain/menu.ts';
import { patchStore } from '../domain/merchant.ts';
import { credentialStore, type HandlerDeps } from './common.ts';

/** Schema problems listed in an error answer (the rest are counted). */
const MAX_LISTED = 50;
/** The lease outlives the read's time budget by this (validation, the write): a crash frees it then. */
const LEASE_SLACK_MS = 15_000;

/**
 * POST /v1/menuUpdated (Open Delivery webhook, host = the ordering application):
 * - empty body, or `entityType` + `updatedObjects`: the platform reads the store's
 *   `GET /v1/merchant` (registered at onboarding, with its `X-API-KEY`), validates it against the
 *   official Merchant schema, and replaces the store's fields and its menu in one transaction.
 *   Partial updates are applied by reading the whole document again (the point of sale's document
 *   already holds them): the result is the same, with one code path;
 * - `merchantStatus` alone: opens or closes the store without a read; with a read, it wins.
 * Bounded (issue 22, README): one read per store at a time across replicas, then a cooldown (429 +
 * Retry-After meanwhile), OD_MERCHANT_FETCHES per replica (503), 10 s and 1 MiB per read.
 * Synchronous: 204 once replaced, visible at the next GET. Anything wrong with the point of sale's
 * side (unreachable, refused address, non-2xx, too large, slow, not JSON, not the standard's
 * Merchant, another merchant's document, beyond the platform's limits) is a 400 naming the problem,
 * recorded for `GET /v1/merchantStatus` (FAIL + moreInfo), and nothing changes.
 */
export const odMenuUpdated =
  (deps: HandlerDeps): OpHandler<typeof CATALOG_OPS.odMenuUpdated> =>
  async (req) => {
    const { db, od, now, changed } = deps;
    const merchantId = credentialStore(req);
    const { merchantStatus, entityType, updatedObjects } = req.body;
    if (entityType !== undefined && !updatedObjects?.length) throw new HttpException(errors.odEmptyUpdate());
    const statusOnly = merchantStatus !== undefined && entityType === undefined;

    if (statusOnly) {
      const done = await db.edit(merchantId, (s) => ({
        state: patchStore(s, { status: merchantStatus }, now().toISOString()),
        result: true,
      }));
      if (!done) throw new HttpException(errors.notFound(req.traceId));
      changed(merchantId);
      return { status: 204 };
    }

    const source = await findOdSource(db.prisma, od.box, merchantId);
    if (!source) throw new HttpException(errors.odNotOnboarded());
    const end = await beginRead(deps, merchantId);
    try {
      return await readAndReplace(deps, source, merchantId, merchantStatus, req.traceId);
    } finally {
      await end();
    }
  };

/**
 * The bounds of reading a point of sale (issue 22): a slot of this replica (503 when all are busy)
 * and the store's lease across replicas (429 + Retry-After while a read runs or cools down). The
 * returned function ends both; the cooldown starts then.
 */
async function beginRead({ db, od }: HandlerDeps, merchantId: string): Promise<() => Promise<void>> {
  // the lease first: calls of a store already reading must not take this replica's slots
  const lease = await takeFetchLease(db.prisma, merchantId, od.fetchTimeoutMs + LEASE_SLACK_MS);
  if (!lease.taken) throw new HttpException(errors.odMerchantFetchPending(lease.retryAfterSeconds));
  if (!od.slots.tryTake()) {
    await endFetchLease(db.prisma, merchantId, 0);
    throw new HttpException(errors.odMerchantFetchBusy());
  }
  return async () => {
    od.slots.release();
    // not recorded (database trouble): the lease still ends by itself, LEASE_SLACK_MS after the budget
    await endFetchLease(db.prisma, merchantId, od.cooldownMs).catch(() => {});
  };
}

/** Reads the document, checks it and replaces the store and its menu, or records why not. */
async function readAndReplace(
  deps: HandlerDeps,
  source: OdSource,
  merchantId: string,
  merchantStatus: MerchantUpdate['merchantStatus'],
  traceId: string,
): Promise<{ status: 204 }> {
  const { db, od, now, changed } = deps;
  const fail = async (e: HttpException): Promise<never> => {
    const b = e.http.body as { message?: string; errors?: FieldErrors };
    const first = b.errors ? Object.entries(b.errors).slice(0, 3) : [];
    const more = first.map(([k, v]) => `${k}: ${v[0]}`).join('; ');
    await markOdRead(db.prisma, merchantId, 'FAIL', [b.message, more].filter(Boolean).join(' '));
    throw e;
  };

  const doc = await fetchMerchant(deps, source).catch((e) =>
    e instanceof HttpException ? fail(e) : Promise.reject(e),
  );
  const problems = (await od.validator()).response('getMerchant', 200, doc);
  if (problems.length)
    return fail(
      new HttpException(
        errors.odInvalidMerchantDocument(
          `O documento de GET /v1/merchant não segue o schema Merchant do Open Delivery 1.4.0 (${problems.length} problema(s)).`,
          schemaErrors(problems),
        ),
      ),
    );
  const merchant = doc as OdMerchantDocument;
  if (!sameMerchant(source, merchantId, merchant.id))
    return fail(
      new HttpException(
        errors.odInvalidMerchantDocument('O documento é de outro estabelecimento.', {
          id: [`esperado ${source.odMerchantId}, recebido ${merchant.id}`],
        }),
      ),
    );
  const reading = readMerchantDocument(merchant);
  const store = merchantPatchSchema.safeParse(reading.store);
  const menu = menuInputSchema.safeParse(reading.menu);
  const issues = [
    ...reading.issues.map((i) => ({ path: [i.path], message: i.message })),
    ...(store.success ? [] : store.error.issues.map((i) => ({ ...i, path: ['basicInfo', ...i.path] }))),
    ...(menu.success ? [] : menu.error.issues.map((i) => ({ ...i, path: ['menu', ...i.path] }))),
  ];
  if (issues.length || !store.success || !menu.success)
    return fail(
      new HttpException(
        errors.odInvalidMerchantDocument(
          'O documento segue o padrão, mas não cabe nas regras da plataforma.',
          fieldErrorsFromIssues(issues.slice(0, MAX_LISTED)),
        ),
      ),
    );
  const at = now().toISOString();
  const done = await db.edit(merchantId, (s) => {
    const state = patchStore(s, store.data, at);
    if (merchantStatus) state.status = merchantStatus;
    const menuId = (menu.data.id ?? s.menuId).toLowerCase();
    state.menuId = menuId;
    return { state, menu: { source: menu.data, public: renderMenu(menu.data, menuId) }, result: true };
  });
  if (!done) throw new HttpException(errors.notFound(traceId));
  const counts = `${menu.data.items?.length ?? 0} itens, ${menu.data.optionGroups?.length ?? 0} grupos de opções`;
  // merchantStatus tells the point of sale what was applied (the standard's moreInfo), success too
  await markOdRead(db.prisma, merchantId, 'SUCCESS', `Loja e cardápio atualizados: ${counts}.`);
  changed(merchantId);
  return { status: 204 };
}

/** The point of sale's document registered at onboarding, or a 400 saying why not. */
async function fetchMerchant({ od }: HandlerDeps, source: OdSource): Promise<unknown> {
  const url = merchantEndpointUrl(source.getMerchantUrl);
  const r = await outboundRequest({
    method: 'GET',
    url,
    label: 'URL',
    headers: { accept: 'application/json', ...(source.apiKey ? { 'x-api-key': source.apiKey } : {}) },
    timeoutMs: od.fetchTimeoutMs,
    allowPrivateNetworks: od.allowPrivateNetworks,
    dns: od.dns,
    maxResponseBytes: od.maxDocumentBytes,
    keepBody: true,
  });
  const failed = (detail: string) => new HttpException(errors.odMerchantFetchFailed(detail));
  if (r.error) throw failed(r.error);
  if (r.truncated) throw failed(`o documento passa de ${od.maxDocumentBytes} bytes`);
  if (r.statusCode === null || r.statusCode < 200 || r.statusCode >= 300)
    throw failed(
      `HTTP ${r.statusCode}${r.statusCode && r.statusCode < 400 && r.statusCode >= 300 ? ' (redirecionamentos não são seguidos)' : ''}`,
    );
  try {
    return JSON.parse(r.body.toString('utf8'));
  } catch {
    throw failed('a resposta não é JSON');
  }
}

/** The document must be of the store: its id is the one given at onboarding (or the store's own). */
function sameMerchant(source: OdSource, storeId: string, docId: string): boolean {
  const onboarded = source.odMerchantId.toLowerCase();
  return onboarded === storeId || docId.toLowerCase() === onboarded;
}

/** `/basicInfo/name must be string {...}` lines -> { '/basicInfo/name': ['must be string ...'] } */
function schemaErrors(problems: string[]): FieldErrors {
  const out: FieldErrors = {};
  for (const p of problems.slice(0, MAX_LISTED)) {
    const i = p.indexOf(' ');
    const key = i > 0 ? p.slice(0, i) : '$';
    (out[key] ??= []).push(i > 0 ? p.slice(i + 1).trim() : p);
  }
  return out;
}
