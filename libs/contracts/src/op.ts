import type { z } from 'zod';
import type { AuthContext, Caller, PanelArea, Principal, RpcResult } from './rpc.ts';
import type { Scope } from './scopes.ts';
import type { ServiceName } from './subjects.ts';

/**
 * One RPC operation of a service: its wire name (served at `names(prefix).rpc(service, name)`), who
 * may call it, and zod schemas of what it takes. `serve` parses params/query/body with them before
 * the handler runs; `reply` only types what callers get back (replies travel as raw bytes).
 */
export interface OpSpec {
  readonly service: ServiceName;
  readonly name: string;
  /** allowed callers; 'any' = no signature checked (health only: it reads nothing of any store) */
  readonly callers: readonly Caller[] | 'any';
  /**
   * The panel area a merchant user's role must reach (required when `merchantUser` is a caller):
   * the owning service checks it, and that every store, credential or order the request names
   * belongs to the user's store, whatever the panel already checked (libs/bus/src/store-scope.ts).
   */
  readonly area?: PanelArea;
  /**
   * The credential scope the op needs (required when `credential` is a caller): the owning service
   * checks it on the verified principal, whatever the gateway already checked (libs/bus/src/store-scope.ts).
   */
  readonly scope?: Scope;
  /**
   * The form of the 400 `serve` answers when params/query/body fail their schemas:
   * 'problem' = ValidationProblemDetails (public ops), 'admin' = `{ error, message, errors }`
   * (Admin API and panel). Default: 'problem' when a credential or anonymous caller may call it,
   * 'admin' otherwise (errorFormOf).
   */
  readonly errorForm?: ErrorForm;
  /** the admin form's `message` for this op's input errors (default 'Requisição inválida.') */
  readonly invalidMessage?: string;
  /**
   * The key of the op's body that holds the client's HTTP body when the op wraps it with what the
   * front door adds (`{ merchantId, body }`): its field errors name the fields as the client sent
   * them (`name`, not `body.name`), so a front door relays the op's 400 without a check of its own.
   */
  readonly clientBodyAt?: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly reply?: z.ZodType;
}

export type ErrorForm = 'problem' | 'admin';

/** The error form of an op's input errors (see OpSpec.errorForm). */
export function errorFormOf(op: Pick<OpSpec, 'callers' | 'errorForm'>): ErrorForm {
  if (op.errorForm) return op.errorForm;
  if (op.callers === 'any') return 'problem';
  return op.callers.includes('credential') || op.callers.includes('anonymous') ? 'problem' : 'admin';
}

type OpDef = Omit<OpSpec, 'service'>;
export type Catalogue = Record<string, OpSpec>;

/** Stamps the service on each op of its catalogue (one object per service). */
export function defineOps<const S extends ServiceName, const D extends Record<string, OpDef>>(
  service: S,
  defs: D,
): { readonly [K in keyof D]: D[K] & { readonly service: S } } {
  const out: Record<string, OpSpec> = {};
  for (const [k, d] of Object.entries(defs)) out[k] = { ...d, service };
  return out as { readonly [K in keyof D]: D[K] & { readonly service: S } };
}

type SchemaOf<O, K extends string> = O extends { readonly [P in K]: infer S extends z.ZodType }
  ? S
  : undefined;
type Slot<K extends string, S> = S extends z.ZodType
  ? undefined extends z.input<S>
    ? { readonly [P in K]?: z.input<S> }
    : { readonly [P in K]: z.input<S> }
  : { readonly [P in K]?: undefined };
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a caller passes for an op: exactly the declared params/query/body (their zod input types). */
export type CallInput<O extends OpSpec> = Slot<'params', SchemaOf<O, 'params'>> &
  Slot<'query', SchemaOf<O, 'query'>> &
  Slot<'body', SchemaOf<O, 'body'>> & { readonly headers?: Record<string, string> };

/** The typed JSON body of an op's successful reply (`unknown` when the op declares none). */
export type ReplyOf<O extends OpSpec> =
  SchemaOf<O, 'reply'> extends z.ZodType ? z.output<SchemaOf<O, 'reply'>> : unknown;

/** What a handler receives: parsed params/query/body and the verified caller. */
export interface ServedRequest<P = unknown, Q = unknown, B = unknown> {
  traceId: string;
  caller: Principal;
  /** the credential when the caller is one (public routes) */
  auth?: AuthContext;
  params: P;
  query: Q;
  body: B;
  headers?: Record<string, string>;
}

export type RequestOf<O extends OpSpec> = ServedRequest<
  Out<SchemaOf<O, 'params'>>,
  Out<SchemaOf<O, 'query'>>,
  Out<SchemaOf<O, 'body'>>
>;

export type OpHandler<O extends OpSpec> = (req: RequestOf<O>) => Promise<RpcResult> | RpcResult;

/** One handler per op of a catalogue: a missing or extra op does not compile. */
export type Handlers<C extends Catalogue> = {
  [K in keyof C]: (req: RequestOf<C[K]>) => Promise<RpcResult> | RpcResult;
};
