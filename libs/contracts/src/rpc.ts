import type { ServiceName } from './subjects.ts';

/** What a handler of a public route sees of its credential (derived from the verified principal). */
export interface AuthContext {
  merchantId: string;
  clientId: string;
  scopes: string[];
}

/** Who performed an action: recorded in order history. */
export type Actor =
  | { kind: 'CREDENTIAL'; clientId: string }
  /** a panel click (the merchant user who clicked) or a support action of the Admin API (no user) */
  | { kind: 'PANEL'; userId?: string; email?: string }
  | { kind: 'CUSTOMER' }
  | { kind: 'PAYMENT_SYSTEM' }
  | { kind: 'CHANNEL' }
  | { kind: 'COURIER' }
  /** the platform itself: e.g. cancelling an order nobody confirmed in time */
  | { kind: 'PLATFORM' };

/** The parts of the merchant panel; a `merchantUser` principal's scopes are the areas its role reaches. */
export const PANEL_AREAS = ['orders', 'menu', 'store', 'credentials', 'settings'] as const;
export type PanelArea = (typeof PANEL_AREAS)[number];

/**
 * On whose behalf a request is made. Front doors (gateway, panel) assert the first four after their
 * own authentication; a service asserts only itself.
 */
export type Principal =
  | { kind: 'credential'; clientId: string; merchantId: string; scopes: string[] }
  | { kind: 'admin' }
  /** `email`: recorded as the actor of what the user does (orders history) */
  | { kind: 'merchantUser'; userId: string; merchantId: string; scopes: string[]; email?: string }
  /** a front door before authentication (the token endpoint) */
  | { kind: 'anonymous' }
  | { kind: 'service'; service: ServiceName };

/** Processes holding a signing key: the front doors and every service (for its own calls). */
export type SignerName = 'gateway' | 'panel' | ServiceName;
export const SIGNER_NAMES = ['gateway', 'panel', 'auth', 'catalog', 'orders', 'feed', 'webhook'] as const;

/** Which principals each front door may assert. A service signer may assert only `service` = itself. */
export const FRONT_DOOR_PRINCIPALS: Partial<Record<SignerName, readonly Principal['kind'][]>> = {
  gateway: ['credential', 'admin', 'anonymous'],
  panel: ['merchantUser'],
};

/** An op's allowed callers: a front-door principal kind, or a calling service by name. */
export type Caller = Exclude<Principal['kind'], 'service'> | ServiceName;

/** The callers of an admin op: the Admin API (gateway) and the merchant panel (as the signed-in user). */
export const ADMIN_AND_PANEL = ['admin', 'merchantUser'] as const satisfies readonly Caller[];

export function callerOf(p: Principal): Caller {
  return p.kind === 'service' ? p.service : p.kind;
}

/**
 * The signed caller context carried by every request (`RpcRequest.ctx`). The whole request payload
 * is signed (Ed25519, header `od-sig`), so nothing in it can be altered; `to` binds it to one
 * subject and `exp` (epoch ms, a few seconds ahead) bounds replays.
 */
export interface CallerContext {
  iss: SignerName;
  principal: Principal;
  /** the request id (= RpcRequest.traceId) */
  rid: string;
  exp: number;
  to: string;
}

export interface RpcRequest<B = unknown> {
  traceId: string;
  /** set by the serving side from the verified principal (credential); never trusted from the wire */
  auth?: AuthContext;
  ctx?: CallerContext;
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
/** NATS header of a signed request: `<signer>.<base64url Ed25519 signature of the payload>`. */
export const SIGNATURE_HEADER = 'od-sig';
