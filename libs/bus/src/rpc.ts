import {
  type Msg,
  type NatsConnection,
  errors as natsErrors,
  type Subscription,
} from '@nats-io/transport-node';
import {
  type CallInput,
  type Catalogue,
  errorFormOf,
  type Handlers,
  HEADER_PREFIX,
  type Names,
  type OpHandler,
  type OpSpec,
  type Principal,
  type ReplyOf,
  type RequestOf,
  type RpcRequest,
  type RpcResult,
  SIGNATURE_HEADER,
  type SignerName,
  STATUS_HEADER,
} from '@od/contracts';
import { errors, fieldErrorsFromIssues, type HttpError, isHttpException } from '@od/errors';
import type { Logger } from '@od/logger';
import { rpcClientCall, rpcServerCall, tracingEnabled } from '@od/telemetry';
import { type Refusal, type RpcKeys, signContext, verifyRequest } from './caller.ts';
import { publishSoon } from './coalesce.ts';
import { replyMux } from './reply-mux.ts';
import { credentialRefusal, merchantUserRefusal, type StoreResolvers } from './store-scope.ts';
import {
  type EncodedHeaders,
  encodeHeaders,
  forEachHeader,
  headerOf,
  traceCarrierOf,
} from './wire-headers.ts';

const enc = new TextEncoder();
const EMPTY = new Uint8Array(0);

/**
 * Counters of the bus layer in this process (the ops listener can export them): requests refused by
 * reason, replies replaced because too large, replies that failed to send.
 */
export const busCounters = {
  refused: {} as Partial<Record<Refusal, number>>,
  replyTooLarge: 0,
  replyFailed: 0,
};

function encodeBody(body: unknown): Uint8Array {
  if (body === undefined) return EMPTY;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return enc.encode(body);
  return enc.encode(JSON.stringify(body));
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

// Most replies carry their status alone: those headers are encoded once per status.
const statusOnly = new Map<number, EncodedHeaders>();
function replyHeadersOf(result: RpcResult | HttpError): EncodedHeaders {
  if (result.headers && hasKeys(result.headers)) return encodeHeaders(replyHeaders(result));
  let c = statusOnly.get(result.status);
  if (!c) {
    c = encodeHeaders(replyHeaders(result));
    if (statusOnly.size < 1000) statusOnly.set(result.status, c);
  }
  return c;
}

function replyHeaders(result: RpcResult | HttpError): Record<string, string> {
  const h: Record<string, string> = { [STATUS_HEADER]: String(result.status) };
  for (const [k, v] of Object.entries(result.headers ?? {})) h[HEADER_PREFIX + k] = v;
  return h;
}

const maxPayload = (nc: NatsConnection) => nc.info?.max_payload ?? Number.POSITIVE_INFINITY;

export interface ServeOptions {
  /** queue group: the service name, so replicas share the work */
  queue: string;
  log: Logger;
  /** keys of the signers this service accepts */
  keys: Pick<RpcKeys, 'ring' | 'mac'>;
  /** how this service finds the store of a credential or order a merchant user names (store-scope.ts) */
  storeOf?: StoreResolvers;
}

/**
 * Serves one op with a queue group: any number of replicas share the work, each request is handled
 * once. Before the handler: the signed caller context is verified against the op's callers, the
 * caller's grant (scope, or area and store) is checked, then params/query/body are parsed with the
 * op's schemas. Exceptions become the catalogue's error
 * bodies; an unexpected error becomes a 500 with the trace id. Nothing raised while answering (a
 * reply over the bus limit, a closed connection) escapes: the process keeps serving.
 */
export function serveOp<O extends OpSpec>(
  nc: NatsConnection,
  subject: string,
  op: O,
  handler: OpHandler<O>,
  opts: ServeOptions,
): Subscription {
  const { log } = opts;
  return nc.subscribe(subject, {
    queue: opts.queue,
    callback: (err, msg) => {
      if (err) {
        log.error({ err, subject }, 'rpc subscription error');
        return;
      }
      handle(nc, msg, subject, op, handler, opts).catch((e) =>
        log.error({ err: e, subject }, 'rpc request failed while answering'),
      );
    },
  });
}

/** Serves every op of a service's catalogue; a handler per op is required by the type. */
export function serveOps<C extends Catalogue>(
  nc: NatsConnection,
  n: Names,
  catalogue: C,
  handlers: Handlers<C>,
  opts: ServeOptions,
): Subscription[] {
  return Object.entries(catalogue).map(([key, op]) =>
    serveOp(nc, n.rpc(op.service, op.name), op, handlers[key] as OpHandler<OpSpec>, opts),
  );
}

type Admitted = { req: RpcRequest; caller: Principal } | { refused: HttpError };

function admit(msg: Msg, subject: string, op: OpSpec, opts: ServeOptions): Admitted {
  if (op.callers === 'any') {
    try {
      return { req: msg.json<RpcRequest>(), caller: { kind: 'anonymous' } };
    } catch {
      return { refused: errors.validation({ $: ['invalid rpc payload'] }, '') };
    }
  }
  const v = verifyRequest(opts.keys, op, subject, msg.data, headerOf(msg, SIGNATURE_HEADER) || undefined);
  if (v.ok) return { req: v.req, caller: v.principal };
  busCounters.refused[v.reason] = (busCounters.refused[v.reason] ?? 0) + 1;
  opts.log.warn({ subject, reason: v.reason, traceId: v.traceId }, 'rpc request refused');
  const traceId = v.traceId ?? '';
  return {
    refused:
      v.reason === 'caller_not_allowed' ? errors.rpcForbidden(traceId) : errors.rpcUnauthenticated(traceId),
  };
}

/** One part of the request parsed with its schema; a failure is the op's 400 in its error form. */
function parsePart(
  schema: OpSpec['params'],
  value: unknown,
  traceId: string,
  op: OpSpec,
  /** the body's key whose issues lose it (OpSpec.clientBodyAt) */
  at?: string,
): { value: unknown } | HttpError {
  if (!schema) return { value: undefined };
  const r = schema.safeParse(value);
  if (r.success) return { value: r.data };
  const fields = fieldErrorsFromIssues(
    at === undefined
      ? r.error.issues
      : r.error.issues.map((i) => (i.path[0] === at ? { ...i, path: i.path.slice(1) } : i)),
  );
  return errorFormOf(op) === 'admin'
    ? errors.adminValidation(op.invalidMessage ?? 'Requisição inválida.', fields)
    : errors.validation(fields, traceId);
}

async function handle<O extends OpSpec>(
  nc: NatsConnection,
  msg: Msg,
  subject: string,
  op: O,
  handler: OpHandler<O>,
  opts: ServeOptions,
): Promise<void> {
  // the trace context only when tracing is on, read from the raw header block (no MsgHdrs)
  const t = rpcServerCall(opts.queue, subject, tracingEnabled() ? traceCarrierOf(msg) : undefined);
  const admitted = admit(msg, subject, op, opts);
  if ('refused' in admitted) {
    t.end(admitted.refused.status);
    return respond(nc, msg, admitted.refused, '', subject, opts.log);
  }
  const { req, caller } = admitted;
  const traceId = String(req.traceId ?? '');
  let result: RpcResult;
  try {
    // who may call comes before what the request holds: a refused caller learns nothing of the schemas
    const refusal =
      caller.kind === 'merchantUser'
        ? await merchantUserRefusal(
            op,
            caller,
            { params: req.params, body: req.body },
            opts.storeOf ?? {},
            traceId,
          )
        : caller.kind === 'credential'
          ? credentialRefusal(op, caller, traceId)
          : null;
    const parts = refusal
      ? []
      : [
          parsePart(op.params, req.params, traceId, op),
          parsePart(op.query, req.query, traceId, op),
          parsePart(op.body, req.body, traceId, op, op.clientBodyAt),
        ];
    const stop = refusal ?? parts.find((p): p is HttpError => !('value' in p));
    if (stop) result = stop;
    else {
      const [params, query, body] = parts.map((p) => (p as { value: unknown }).value);
      const served = {
        traceId,
        caller,
        auth:
          caller.kind === 'credential'
            ? { clientId: caller.clientId, merchantId: caller.merchantId, scopes: caller.scopes }
            : undefined,
        params,
        query,
        body,
        headers: req.headers,
      } as RequestOf<O>;
      result = await t.run(() => handler(served));
    }
  } catch (e) {
    if (isHttpException(e)) result = e.http;
    else {
      opts.log.error({ err: e, subject, traceId }, 'rpc handler failed');
      result = errors.internal(traceId);
    }
  }
  respond(nc, msg, result, traceId, subject, opts.log);
  t.end(result.status);
}

/**
 * Sends the answer, with the other publishes of this turn (coalesce.ts). A body that would exceed
 * the connection's max_payload is replaced by a 500 "reply too large" (logged once, counted); any
 * error while sending is logged, never thrown.
 */
function respond(
  nc: NatsConnection,
  msg: Msg,
  result: RpcResult,
  traceId: string,
  subject: string,
  log: Logger,
): void {
  if (!msg.reply) return;
  publishSoon(nc, () => {
    try {
      const rh = replyHeadersOf(result);
      const data = encodeBody(result.body);
      const max = maxPayload(nc);
      if (data.length + rh.length > max) {
        busCounters.replyTooLarge++;
        log.error(
          { subject, traceId, bytes: data.length, max },
          'rpc reply too large: answered 500 reply too large',
        );
        const e = errors.replyTooLarge(traceId, max);
        msg.respond(encodeBody(e.body), { headers: encodeHeaders(replyHeaders(e)).nats });
        return;
      }
      msg.respond(data, { headers: rh.nats });
    } catch (e) {
      busCounters.replyFailed++;
      log.error({ err: e, subject, traceId }, 'rpc reply failed');
      try {
        const ie = errors.internal(traceId);
        msg.respond(encodeBody(ie.body), { headers: encodeHeaders(replyHeaders(ie)).nats });
      } catch {
        // the connection is gone: the caller times out, the process keeps serving
      }
    }
  });
}

export interface RpcReply {
  status: number;
  headers: Record<string, string>;
  /** raw JSON bytes (possibly empty) */
  body: Uint8Array;
}

export class RpcUnavailableError extends Error {}
/** The request itself exceeds the bus message limit (never sent). */
export class RpcPayloadTooLargeError extends Error {}

/**
 * Longest wait for a service that is alive but slow. A service that is gone answers at once (NATS
 * no-responders; a disconnected client fails fast, see connect.ts), and a service whose database is
 * unreachable answers 503 itself within its pool's connect timeout; so only a request delivered to a
 * replica that died or hangs waits this long.
 */
export const RPC_TIMEOUT_MS = 5_000;

/**
 * Low-level request: `req` is serialized unsigned unless already signed. Throws RpcUnavailableError
 * when nobody answers (no responders or timeout), RpcPayloadTooLargeError when it cannot be sent.
 */
export async function callRpc(
  nc: NatsConnection,
  subject: string,
  req: RpcRequest | { payload: Uint8Array; signature: string },
  timeoutMs = RPC_TIMEOUT_MS,
): Promise<RpcReply> {
  const signed = 'payload' in req;
  const payload = signed ? req.payload : enc.encode(JSON.stringify(req));
  const h = signed ? { [SIGNATURE_HEADER]: req.signature } : undefined;
  const t = rpcClientCall(subject);
  // the trace context (sampled traces only) beside the signature, the same encoding either way
  const traced = t.traceHeaders();
  const encoded = traced ? encodeHeaders({ ...h, ...traced }) : h && encodeHeaders(h);
  const max = maxPayload(nc);
  if (payload.length + (encoded?.length ?? 0) > max) {
    t.end('error');
    throw new RpcPayloadTooLargeError(`${subject}: request of ${payload.length} bytes exceeds ${max}`);
  }
  let msg: Msg;
  try {
    msg = await replyMux(nc).request(subject, payload, encoded?.nats, timeoutMs);
  } catch (e) {
    const down =
      e instanceof natsErrors.TimeoutError ||
      e instanceof natsErrors.NoRespondersError ||
      e instanceof natsErrors.RequestError;
    t.end(down ? 'unavailable' : 'error');
    if (
      e instanceof natsErrors.TimeoutError ||
      e instanceof natsErrors.NoRespondersError ||
      (e instanceof natsErrors.RequestError && e.isNoResponders())
    ) {
      throw new RpcUnavailableError(`${subject}: ${(e as Error).message}`);
    }
    throw e;
  }
  const out: Record<string, string> = {};
  let status: number | undefined;
  // a repeated header: its first value
  forEachHeader(msg, (k, v) => {
    if (k === STATUS_HEADER) status ??= Number(v);
    else if (k.startsWith(HEADER_PREFIX)) out[k.slice(HEADER_PREFIX.length)] ??= v;
    return false;
  });
  status ??= 200;
  t.end(status);
  return { status, headers: out, body: msg.data };
}

export interface CallOptions {
  traceId: string;
  /** on whose behalf; default: the calling service itself */
  principal?: Principal;
  timeoutMs?: number;
}

/** Typed, signed calls: `call(RPC.catalog.merchantSnapshot, { body: { merchantId } }, { traceId })`. */
export interface RpcClient {
  readonly name: SignerName;
  /** the raw reply (status, headers, bytes untouched) */
  call<O extends OpSpec>(op: O, input: CallInput<O>, opts: CallOptions): Promise<RpcReply>;
  /** the reply's JSON parsed; `body` is the op's reply type when the status is 2xx */
  callJson<O extends OpSpec>(
    op: O,
    input: CallInput<O>,
    opts: CallOptions,
  ): Promise<{ status: number; body: ReplyOf<O> }>;
}

export function createRpcClient(
  nc: NatsConnection,
  n: Names,
  name: SignerName,
  keys: Pick<RpcKeys, 'privateKey' | 'mac'>,
): RpcClient {
  const self: Principal | undefined =
    name === 'gateway' || name === 'panel' ? undefined : { kind: 'service', service: name };
  const call = (op: OpSpec, input: CallInput<OpSpec>, opts: CallOptions) => {
    const principal = opts.principal ?? self;
    if (!principal) throw new Error(`${name}: a front door names the principal of every call`);
    const subject = n.rpc(op.service, op.name);
    const signed = signContext(
      { name, privateKey: keys.privateKey, mac: keys.mac },
      subject,
      { ...input, traceId: opts.traceId },
      principal,
      { verifier: op.service },
    );
    return callRpc(nc, subject, signed, opts.timeoutMs);
  };
  return {
    name,
    call,
    async callJson(op, input, opts) {
      const r = await call(op, input as CallInput<OpSpec>, opts);
      const body = r.body.length ? JSON.parse(Buffer.from(r.body).toString('utf8')) : undefined;
      return { status: r.status, body };
    },
  };
}
