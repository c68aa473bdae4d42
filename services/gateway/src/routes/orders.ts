import type { RpcReply } from '@od/bus';
import { GUID_PATTERN, ORDER_ACTIONS, ORDER_OPS, type OrderAction } from '@od/contracts';
import { errors } from '@od/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearer } from '../auth/bearer.ts';
import type { GatewayContext, RouteModule } from '../context.ts';
import { forward, rpcCall, writeRpcReply } from '../forward.ts';
import { sendError } from '../http/errors.ts';

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
 * Runs one lifecycle action through Idempotency-Key (per credential) and the orders service.
 * Only requestCancellation reads its body (`{ reason?, code? }`); other actions ignore any body.
 */
async function action(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply, name: OrderAction) {
  const { orderId } = request.params as { orderId: string };
  let body: unknown;
  let canonical = '';
  if (name === 'requestCancellation') {
    const raw = request.body;
    const text = typeof raw === 'string' ? raw : raw instanceof Buffer ? raw.toString('utf8') : '';
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        return sendError(reply, errors.validation({ $: ['O corpo não é um JSON válido.'] }, request.id));
      }
      canonical = canonicalJson(body);
    }
  }
  const fingerprint = `POST /v1/orders/${orderId}/${name}\n${canonical}`;
  const r = await ctx.idempotency.run(
    request,
    fingerprint,
    async (headers) =>
      (await rpcCall(ctx, request, ORDER_OPS.action, {
        params: { orderId, action: name },
        body,
        headers,
      })) ?? unavailableReply(request.id),
  );
  return writeRpcReply(reply, r);
}

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
    sub.removeAllContentTypeParsers();
    sub.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    const zsub = sub.withTypeProvider<ZodTypeProvider>();
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
                ? 'Optional JSON body { reason?: string (max 500), code?: string (ignored) }. Immediate cancellation.'
                : 'No body. Optional Idempotency-Key header.',
            security: [{ bearer: [] }],
          },
          onRequest: bearer(ctx, 'orders:write'),
        },
        (request, reply) => action(ctx, request, reply, name),
      );
    }
  });
};
