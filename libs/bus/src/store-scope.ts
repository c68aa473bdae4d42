import type { OpSpec, Principal } from '@od/contracts';
import { errors, type HttpError } from '@od/errors';

/** The store (merchantId) of a credential or an order, as the serving service knows it; null = unknown. */
export type StoreResolvers = Partial<Record<'clientId' | 'orderId', (id: string) => Promise<string | null>>>;

const KEYS = ['merchantId', 'clientId', 'orderId'] as const;

/** The ids a request names, from its params and body (top level: where the catalogue puts them). */
function namedIds(parts: unknown[]): { key: (typeof KEYS)[number]; id: string }[] {
  const out: { key: (typeof KEYS)[number]; id: string }[] = [];
  for (const part of parts) {
    if (!part || typeof part !== 'object') continue;
    for (const key of KEYS) {
      const id = (part as Record<string, unknown>)[key];
      if (typeof id === 'string') out.push({ key, id });
    }
  }
  return out;
}

/**
 * A merchant user acts only inside its own store, checked by the service that owns the data, not
 * only by the panel that asserted the principal: the op must name a panel area the user's role
 * reaches (else 403), and every store, credential and order the request names must belong to the
 * user's store (else 404, as if it did not exist). An id this service cannot resolve is refused:
 * fail closed. Returns null when the request may go on.
 */
export async function merchantUserRefusal(
  op: OpSpec,
  caller: Extract<Principal, { kind: 'merchantUser' }>,
  parts: { params: unknown; body: unknown },
  resolvers: StoreResolvers,
  traceId: string,
): Promise<HttpError | null> {
  if (!op.area || !caller.scopes.includes(op.area)) return errors.rpcForbidden(traceId);
  const store = caller.merchantId.toLowerCase();
  for (const { key, id } of namedIds([parts.params, parts.body])) {
    if (key === 'merchantId') {
      if (id.toLowerCase() !== store) return errors.adminNotFound('Estabelecimento');
      continue;
    }
    const resolve = resolvers[key];
    if (!resolve) return errors.rpcForbidden(traceId);
    const owner = await resolve(id);
    if (owner?.toLowerCase() !== store)
      return errors.adminNotFound(key === 'clientId' ? 'Credencial' : 'Pedido');
  }
  return null;
}

/**
 * A credential acts only within its grant, checked by the service that serves the op, not only by
 * the gateway's bearer check: the op must declare the scope it needs (else 403: fail closed) and
 * the verified principal must hold it (else 403 insufficient_scope). Returns null when it may go on.
 */
export function credentialRefusal(
  op: OpSpec,
  caller: Extract<Principal, { kind: 'credential' }>,
  traceId: string,
): HttpError | null {
  if (!op.scope) return errors.rpcForbidden(traceId);
  return caller.scopes.includes(op.scope) ? null : errors.insufficientScope(op.scope);
}
