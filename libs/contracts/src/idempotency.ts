/**
 * Idempotency-Key (SPEC "Idempotency-Key"): the gateway forwards the key and its fingerprint of the
 * request (route, action, body) to the service as RPC headers; the service records the first answer
 * in the transaction of the action (services/orders/README.md "Idempotency").
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;

/** SPEC: an Idempotency-Key is 1..128 characters (else 400 invalid_idempotency_key). */
export const isIdempotencyKey = (key: string): boolean =>
  key.length > 0 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH;

export const IDEMPOTENCY_RPC_HEADERS = {
  key: 'idempotency-key',
  fingerprint: 'idempotency-fingerprint',
} as const;

/** Reply header of an answer replayed from the record (not executed again). */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
