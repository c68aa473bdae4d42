import type { RpcReply } from '@od/bus';
import {
  CONTROL_CHARACTER_MESSAGE,
  cancellationBodySchema,
  GUID_PATTERN,
  MAX_CANCELLATION_REASON,
  ORDER_ACTIONS,
  ORDER_OPS,
  type OrderAction,
} from '@od/contracts';
import { errors, fieldErrorsFromIssues, type HttpError } from '@od/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearer } from '../auth/bearer.ts';
import type { GatewayContext, RouteModule } from '../context.ts';
import { forward, rpcCall, writeRpcReply } from '../forward.ts';
import { findControlCharacter } from '../http/control-chars.ts';
import { sendError } from '../http/errors.ts';
import { isOpenDeliveryCaller } from '../profile/open-delivery.ts';
import { odCancellationStep } from './od-flows.ts';

const params = z.object({ orderId: z.string().regex(GUID_PATTERN) });
const enc = new TextEncoder();

/** Stable JSON (sorted keys) so that equal bodies give equal idempotency fingerprints. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

export function unavailableReply(traceId: string): RpcReply {
  const e = errors.unavailable(traceId);
  return { status: e.status, headers: e.headers ?? {}, body: enc.encode(JSON.stringify(e.body)) };
}

/**
 * The limits of a cancellation body, checked before the order is touched: `reason` over 500
 * characters is SPEC's 400 invalid_cancellation_reason; any other problem (control characters,
 * `code` too long, a body that is not an object) a ValidationProblemDetails.
 */
function cancellationBodyError(body: unknown, traceId: string): HttpError | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return errors.validation({ $: ['O corpo deve ser um objeto JSON.'] }, traceId);
  const reason = (body as { reason?: unknown }).reason;
  if (typeof reason === 'string' && reason.length > MAX_CANCELLATION_REASON)
    return errors.invalidCancellationReason();
  const path = findControlCharacter(body);
  if (path)
    return errors.validation(fieldErrorsFromIssues([{ path, message: CONTROL_CHARACTER_MESSAGE }]), traceId);
  const r = cancellationBodySchema.safeParse(body);
  return r.success ? undefined : errors.validation(fieldErrorsFromIssues(r.error.issues), traceId);
}

/** The raw text of a body the action routes read themselves (they accept any content type). */
export function bodyText(raw: unknown): string {
  return typeof raw === 'string' ? raw : raw instanceof Buffer ? raw.toString('utf8') : '';
}

/**
 * One order-changing call through Idempotency-Key (per credential): the fingerprint is the path and
 * the canonical body, so a key reused with another request is refused.
 */
export async function idempotentCall(
  ctx: GatewayContext,
  request: FastifyRequest,
  path: string,
  body: unknown,
  call: (headers: Record<string, string>) => Promise<RpcReply | undefined>,
): Promise<RpcReply> {
  const fingerprint = `POST ${path}\n${body === undefined ? '' : canonicalJson(body)}`;
  return ctx.idempotency.run(
    request,
    fingerprint,
    async (headers) => (await call(headers)) ?? unavailableReply(request.id),
  );
}

/**
 * Runs one lifecycle action through Idempotency-Key (per credential) and the orders service.
 * Only requestCancellation reads its body (`{ reason?, code? }`); other actions ignore any body.
 * An OPEN_DELIVERY credential's requestCancellation is the standard's request (see
 * od-flows.ts): answered later by the platform, not an immediate cancellation.
 */
async function action(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply, name: OrderAction) {
  const { orderId } = request.params as { orderId: string };
  if (name === 'requestCancellation' && isOpenDeliveryCaller(ctx, request))
    return odCancellationStep(ctx, request, reply, 'requestCancellation');
  let body: unknown;
  if (name === 'requestCancellation') {
    const text = bodyText(request.body);
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        return sendError(reply, errors.validation({ $: ['O corpo não é um JSON válido.'] }, request.id));
      }
      const refused = cancellationBodyError(body, request.id);
      if (refused) return sendError(reply, refused);
    }
  }
  const r = await idempotentCall(ctx, request, `/v1/orders/${orderId}/${name}`, body, (headers) =>
    rpcCall(ctx, request, ORDER_OPS.action, { params: { orderId, action: name }, body, headers }),
  );
  return writeRpcReply(reply, r);
}

/**
 * A scope whose routes take any body (or none) as raw text: the handler parses and checks it, so a
 * missing or mistyped content type never decides the answer. Path and query are validated as usual.
 */
export function rawBodyRoutes(sub: FastifyInstance) {
  sub.removeAllContentTypeParsers();
  sub.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  return sub.withTypeProvider<ZodTypeProvider>();
}
/** The validator of such a route: the body schema only documents it (OpenAPI). */
export const rawBodyValidator: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);

/** Public routes served by the orders service: GET order and the seven lifecycle actions. */
export const orderRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/v1/orders/:orderId',
    {
      schema: { params, tags: ['orders'], summary: 'Get an order', security: [{ bearer: [] }] },
      onRequest: bearer(ctx, 'orders:read'),
    },
    (request, reply) =>
      forward(ctx, request, reply, ORDER_OPS.get, { params: { orderId: request.params.orderId } }),
  );
  // actions accept any (or no) body: requestCancellation parses its optional JSON itself
  app.register(async (sub) => {
    const zsub = rawBodyRoutes(sub);
    for (const name of ORDER_ACTIONS) {
      zsub.post(
        `/v1/orders/:orderId/${name}`,
        {
          schema: {
            params,
            tags: ['orders'],
            summary: `Order action ${name}`,
            description:
              name === 'requestCancellation'
                ? `Optional JSON body { reason?: string (max ${MAX_CANCELLATION_REASON}; longer answers 400 invalid_cancellation_reason), code?: string (max 100, ignored) }, no control characters. Immediate cancellation. Body max 64 KiB.`
                : 'No body (any body is ignored; max 64 KiB). Optional Idempotency-Key header (max 128 characters).',
            security: [{ bearer: [] }],
            // documents the cancellation body; it is read and checked by `action` (raw text body)
            ...(name === 'requestCancellation' ? { body: cancellationBodySchema.optional() } : {}),
          },
          validatorCompiler: rawBodyValidator,
          onRequest: bearer(ctx, 'orders:write'),
        },
        (request, reply) => action(ctx, request, reply, name),
      );
    }
  });
};
