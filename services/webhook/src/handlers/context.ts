import type { CredentialsView } from '@od/bus';
import type { CredentialRecord } from '@od/contracts';
import type { Pool } from '@od/db';
import { errors, HttpException } from '@od/errors';
import type { Db } from '../db/client.ts';

/** What the admin handlers need. */
export interface HandlerContext {
  pool: Pool;
  db: Db;
  credentials: CredentialsView;
  /** a delivery became due now (resend) */
  wake(): void;
}

/** The credential named by `params.clientId`, from the live credentials view; 404 when unknown. */
export function credentialOf(
  ctx: HandlerContext,
  params: Record<string, string> | undefined,
): CredentialRecord {
  const id = params?.clientId;
  const rec = typeof id === 'string' ? ctx.credentials.get(id) : undefined;
  if (!rec) throw new HttpException(errors.adminNotFound('Credencial'));
  return rec;
}

/** `limit` query parameter: 1..200, default 50; anything else is a client mistake (400). */
/** A page request of a credential's list: the credential (404 when unknown) and the page size. */
export function pageRequest(
  ctx: HandlerContext,
  req: { params?: Record<string, string>; query?: Record<string, unknown> },
) {
  return { cred: credentialOf(ctx, req.params), limit: pageLimit(req.query) };
}

/**
 * One page of a keyset listing read with `take: limit + 1`: the first `limit` rows, and the cursor
 * of the next page (`cursorOf` its last row) when there is more.
 */
export function onePage<R>(rows: R[], limit: number, cursorOf: (last: R) => string) {
  const page = rows.slice(0, limit);
  return { page, nextCursor: rows.length > limit ? cursorOf(page[page.length - 1]) : null };
}

function pageLimit(query: Record<string, unknown> | undefined): number {
  const raw = query?.limit;
  if (raw === undefined || raw === '') return 50;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 200) {
    throw new HttpException(
      errors.adminValidation('limit deve ser um inteiro entre 1 e 200.', { limit: ['1..200'] }),
    );
  }
  return n;
}

export const iso = (d: Date | string | null | undefined): string | null =>
  d === null || d === undefined ? null : new Date(d).toISOString();
