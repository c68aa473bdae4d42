import {
  type Msg,
  type NatsConnection,
  errors as natsErrors,
  headers as natsHeaders,
  type Subscription,
} from '@nats-io/transport-node';
import { HEADER_PREFIX, type RpcRequest, type RpcResult, STATUS_HEADER } from '@od/contracts';
import { errors, isHttpException } from '@od/errors';
import type { Logger } from '@od/logger';

const enc = new TextEncoder();
const EMPTY = new Uint8Array(0);

export type RpcHandler<B = any> = (req: RpcRequest<B>) => Promise<RpcResult> | RpcResult;

function encodeBody(body: unknown): Uint8Array {
  if (body === undefined) return EMPTY;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return enc.encode(body);
  return enc.encode(JSON.stringify(body));
}

/**
 * Serves one RPC subject with a queue group (= the service name): any number of replicas share the
 * work, each request is handled once. Exceptions become the catalogue's error bodies; an unexpected
 * error becomes a 500 with the trace id and is logged (never its details in the reply).
 */
export function serveRpc(
  nc: NatsConnection,
  subject: string,
  queue: string,
  handler: RpcHandler,
  log: Logger,
): Subscription {
  return nc.subscribe(subject, {
    queue,
    callback: (err, msg) => {
      if (err) {
        log.error({ err, subject }, 'rpc subscription error');
        return;
      }
      void handle(msg, handler, log, subject);
    },
  });
}

async function handle(msg: Msg, handler: RpcHandler, log: Logger, subject: string): Promise<void> {
  let req: RpcRequest;
  try {
    req = msg.json<RpcRequest>();
  } catch {
    respond(msg, { status: 400, body: { error: 'bad_rpc', message: 'invalid rpc payload' } });
    return;
  }
  let result: RpcResult;
  try {
    result = await handler(req);
  } catch (e) {
    if (isHttpException(e)) result = e.http;
    else {
      log.error({ err: e, subject, traceId: req.traceId }, 'rpc handler failed');
      result = errors.internal(req.traceId);
    }
  }
  respond(msg, result);
}

function respond(msg: Msg, result: RpcResult): void {
  if (!msg.reply) return;
  const h = natsHeaders();
  h.set(STATUS_HEADER, String(result.status));
  for (const [k, v] of Object.entries(result.headers ?? {})) h.set(HEADER_PREFIX + k, v);
  msg.respond(encodeBody(result.body), { headers: h });
}

export interface RpcReply {
  status: number;
  headers: Record<string, string>;
  /** raw JSON bytes (possibly empty) */
  body: Uint8Array;
}

export class RpcUnavailableError extends Error {}

/** Calls a service. Throws RpcUnavailableError when nobody answers (no responders or timeout). */
export async function callRpc(
  nc: NatsConnection,
  subject: string,
  req: RpcRequest,
  timeoutMs = 10_000,
): Promise<RpcReply> {
  let msg: Msg;
  try {
    msg = await nc.request(subject, enc.encode(JSON.stringify(req)), { timeout: timeoutMs });
  } catch (e) {
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
  let status = 200;
  if (msg.headers) {
    for (const [k, v] of msg.headers) {
      if (k === STATUS_HEADER) status = Number(v[0]);
      else if (k.startsWith(HEADER_PREFIX)) out[k.slice(HEADER_PREFIX.length)] = v[0];
    }
  }
  return { status, headers: out, body: msg.data };
}

/** Service-to-service convenience: parsed JSON body, throws on non-2xx. */
export async function callRpcJson<T>(
  nc: NatsConnection,
  subject: string,
  req: RpcRequest,
  timeoutMs?: number,
): Promise<{ status: number; body: T }> {
  const r = await callRpc(nc, subject, req, timeoutMs);
  const body = r.body.length ? (JSON.parse(new TextDecoder().decode(r.body)) as T) : (undefined as T);
  return { status: r.status, body };
}
