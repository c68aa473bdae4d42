import { RpcPayloadTooLargeError, type RpcReply, RpcUnavailableError } from '@od/bus';
import type { CallInput, OpSpec, Principal } from '@od/contracts';
import { errors, type HttpError } from '@od/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { GatewayContext, ZodApp } from './context.ts';
import { sendError } from './http/errors.ts';
import { rawBodyValidator } from './http/raw-body.ts';

/**
 * Sends one HTTP request to its service over NATS and writes the reply as is: status from the
 * reply header, body bytes forwarded untouched (no re-parse on the hot path). The op (from the
 * contracts' catalogue) names its service; its input is typed by the op's schemas.
 */
export async function forward<O extends OpSpec>(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  op: O,
  input: CallInput<O>,
  /** longer than the bus default for ops that call out (Open Delivery menuUpdated) */
  timeoutMs?: number,
): Promise<FastifyReply> {
  const r = await rpcCall(ctx, request, op, input, timeoutMs);
  if (!r) return sendError(reply, errors.unavailable(request.id));
  return writeRpcReply(reply, r);
}

/** Writes a service's reply as is: status, headers, and the body bytes untouched. */
export function writeRpcReply(reply: FastifyReply, r: RpcReply): FastifyReply {
  reply.code(r.status);
  for (const k in r.headers) reply.header(k, r.headers[k]);
  if (r.body.length === 0) return reply.send();
  return reply
    .type('application/json; charset=utf-8')
    .send(Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength));
}

/**
 * Whom the gateway vouches for: the bearer-checked credential on public routes, the admin on the
 * admin listener (its token checked on every request), nobody yet on the token endpoint.
 */
function principalOf(request: FastifyRequest): Principal {
  if (request.auth) return { kind: 'credential', ...request.auth };
  if (request.routeOptions.config?.family === 'admin') return { kind: 'admin' };
  return { kind: 'anonymous' };
}

const enc = new TextEncoder();
/** A catalogue error as the reply of a call (routes that answer RPC replies). */
export function errorReply(e: HttpError): RpcReply {
  return { status: e.status, headers: e.headers ?? {}, body: enc.encode(JSON.stringify(e.body)) };
}

/**
 * The RPC alone (for routes that post-process the answer), signed for the request's principal.
 * `undefined` = service unreachable; a request too large for the bus answers 413.
 */
export async function rpcCall<O extends OpSpec>(
  ctx: GatewayContext,
  request: FastifyRequest,
  op: O,
  input: CallInput<O>,
  timeoutMs?: number,
): Promise<RpcReply | undefined> {
  try {
    return await ctx.rpc.call(op, input, { traceId: request.id, principal: principalOf(request), timeoutMs });
  } catch (e) {
    if (e instanceof RpcUnavailableError) {
      request.log.error({ service: op.service, op: op.name, err: e.message }, 'service unavailable');
      return undefined;
    }
    if (e instanceof RpcPayloadTooLargeError) {
      request.log.warn({ service: op.service, op: op.name, err: e.message }, 'request too large for the bus');
      return errorReply(
        request.routeOptions.config?.family === 'admin'
          ? errors.adminPayloadTooLarge('A requisição excede o limite interno do barramento.')
          : errors.payloadTooLarge(request.id),
      );
    }
    throw e;
  }
}

type Part<S, K extends string> = S extends { readonly [P in K]: infer Z extends z.ZodType }
  ? z.output<Z>
  : undefined;
/** The zod schemas of a route that only relays (they also feed the OpenAPI document). */
export interface RelaySchema {
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** OpenAPI text only */
  summary?: string;
  description?: string;
}
type Relayed<S> = { params: Part<S, 'params'>; query: Part<S, 'querystring'>; body: Part<S, 'body'> };
type RelayFn = <S extends RelaySchema, O extends OpSpec>(
  url: string,
  schema: S,
  // what the route validated must be what the op takes: a mismatch does not compile
  op: O & (Relayed<S> extends CallInput<O> ? unknown : never) & BodyChecked<S, O>,
) => void;
/** The op checks a relayed body (the route's schema only documents it): an op taking any body does not compile. */
type BodyChecked<S, O> = S extends { body: z.ZodType }
  ? O extends { body: infer B extends z.ZodType }
    ? unknown extends z.input<B>
      ? never
      : unknown
    : never
  : unknown;

/**
 * Routes that only relay: the params and query a route validated and the body as parsed from JSON
 * go to its op, and the service's answer comes back untouched (`forward`). The body schema only
 * documents the body (OpenAPI): the op's schema checks it once, when served, and answers in the
 * op's error form (docs/decisions.md, "Who checks a body"). `relayRoutes(app, ctx).get(url,
 * schema, op)` is the whole route.
 */
export function relayRoutes(app: ZodApp, ctx: GatewayContext) {
  const route =
    (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'): RelayFn =>
    (url, schema, op) => {
      // the app's zod compilers validate `schema`; the handler itself needs no typed request
      (app as FastifyInstance).route({
        method,
        url,
        schema: schema as FastifySchema,
        validatorCompiler: rawBodyValidator,
        handler: (request, reply) =>
          forward(ctx, request, reply, op, {
            ...(schema.params ? { params: request.params } : {}),
            ...(schema.querystring ? { query: request.query } : {}),
            ...(schema.body ? { body: request.body } : {}),
          } as CallInput<typeof op>),
      });
    };
  return {
    get: route('GET'),
    post: route('POST'),
    patch: route('PATCH'),
    put: route('PUT'),
    delete: route('DELETE'),
  };
}
