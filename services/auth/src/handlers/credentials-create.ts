import { RpcUnavailableError } from '@od/bus';
import {
  type CREDENTIAL_OPS,
  type CredentialChange,
  INTERNAL_OPS,
  isGuid,
  type OpHandler,
} from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import {
  countLiveOfStore,
  createWebhookSecret,
  sealedClientSecret,
  type Tx,
  toRecord,
} from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import {
  generateClientId,
  generateClientSecret,
  generateWebhookSecret,
  hashClientSecret,
} from '../domain/secrets.ts';
import { publishRecord } from '../publish.ts';
import { merchantNotFound } from './replies.ts';

/** Asks catalog whether the store exists: 404 -> merchant_not_found, no answer -> 503. */
async function assertMerchantExists(deps: AuthDeps, merchantId: string, traceId: string): Promise<void> {
  try {
    const r = await deps.rpc.call(
      INTERNAL_OPS.merchantSnapshot,
      { body: { merchantId } },
      { traceId, timeoutMs: 5000 },
    );
    if (r.status === 200) return;
    if (r.status === 404) throw merchantNotFound();
    deps.log.error({ status: r.status, traceId }, 'catalog merchantSnapshot failed');
  } catch (e) {
    if (e instanceof HttpException) throw e;
    if (!(e instanceof RpcUnavailableError)) throw e;
    deps.log.error({ traceId, err: e.message }, 'catalog unavailable');
  }
  throw new HttpException(errors.unavailable(traceId));
}

/**
 * Every order event fans out to each live credential of its store: at most `max` that are not
 * revoked. Creations of one store are serialized by a transaction lock, so concurrent requests
 * cannot pass the count together.
 */
async function assertBelowCap(tx: Tx, merchantId: string, max: number): Promise<void> {
  if ((await countLiveOfStore(tx, merchantId)) >= max)
    throw new HttpException(errors.credentialLimitReached(max));
}

/** credentials.create { merchantId, body } -> 201 CredentialChange with clientSecret and webhookSecret */
export function credentialsCreate(deps: AuthDeps): OpHandler<typeof CREDENTIAL_OPS.create> {
  return async (req) => {
    const payload = req.body;
    const merchantId = payload.merchantId;
    if (!isGuid(merchantId)) throw merchantNotFound();
    const body = payload.body;
    await assertMerchantExists(deps, merchantId.toLowerCase(), req.traceId);
    const clientId = generateClientId();
    const clientSecret = generateClientSecret();
    const secretHash = hashClientSecret(clientSecret, deps.config.CLIENT_SECRET_KEY);
    const webhookUrl = body.webhookUrl ?? null;
    const webhookSecret = webhookUrl ? generateWebhookSecret() : null;
    const apiProfile = body.apiProfile ?? 'SPEC';
    const change = await deps.db.$transaction(async (tx) => {
      await assertBelowCap(tx, merchantId.toLowerCase(), deps.config.CREDENTIALS_PER_STORE_MAX);
      const row = await tx.credential.create({
        data: {
          clientId,
          merchantId: merchantId.toLowerCase(),
          name: body.name,
          scopes: body.scopes,
          deliveryMode: body.deliveryMode,
          webhookUrl,
          includeMarketplaceOrders: body.includeMarketplaceOrders ?? false,
          apiProfile,
          status: 'ACTIVE',
          secretHash,
          // the standard's webhook is signed with the client secret itself: kept sealed, not only hashed
          ...(apiProfile === 'OPEN_DELIVERY' ? sealedClientSecret(deps.box, clientId, clientSecret) : {}),
        },
      });
      if (webhookSecret) await createWebhookSecret(tx, deps.box, clientId, webhookSecret);
      const credential = toRecord(row);
      const revision = await publishRecord(deps.kv, credential, req.traceId);
      return { credential, revision, clientSecret, webhookSecret } satisfies CredentialChange;
    });
    deps.log.info({ clientId, merchantId, traceId: req.traceId }, 'credential created');
    return { status: 201, body: change };
  };
}
