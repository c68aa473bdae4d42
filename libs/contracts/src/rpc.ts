/** What the gateway sends to a service for one HTTP request. */
export interface AuthContext {
  merchantId: string;
  clientId: string;
  scopes: string[];
}

/** Who performed an action: recorded in order history. */
export type Actor =
  | { kind: 'CREDENTIAL'; clientId: string }
  | { kind: 'PANEL' }
  | { kind: 'CUSTOMER' }
  | { kind: 'PAYMENT_SYSTEM' }
  | { kind: 'CHANNEL' }
  | { kind: 'COURIER' };

export interface RpcRequest<B = unknown> {
  traceId: string;
  /** present on public routes after the bearer check */
  auth?: AuthContext;
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: B;
  headers?: Record<string, string>;
}

/** A handler's answer; `body` as Uint8Array/Buffer is forwarded untouched (pre-serialized JSON). */
export interface RpcResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** NATS header carrying the HTTP status of an RPC reply; the payload is the raw HTTP body. */
export const STATUS_HEADER = 'x-status';
export const HEADER_PREFIX = 'x-h-';
