import {
  OD_ERROR_MEDIA_TYPE,
  OD_EVENT_TYPES,
  type OdEventType,
  toOdError,
  toOdEvent,
  toOdOrder,
} from '@od/opendelivery';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';

/**
 * The OPEN_DELIVERY profile at the public listener: a credential created with
 * `apiProfile: OPEN_DELIVERY` is served the official 1.4.0 contract, built from the same service
 * replies every SPEC client gets (one read model, one set of rules). Each route names its renderer
 * (`config: { openDelivery: 'order' | 'events' | 'accepted' }`, OD_RENDERERS below); one `onSend`
 * hook applies it, and the standard's error form, for those callers only:
 * - GET order -> the standard Order (the route asks orders for its Open Delivery view: lastEvent,
 *   salesChannel); an action's and the acknowledgment's 202 -> empty body (the standard's
 *   `Accepted`); `sourceAppId` of orders and events is this ordering application's id (OD_APP_ID);
 * - polling -> standard envelopes (the route asked the feed for the caller's types only: the
 *   `eventType` filter and `x-polling-merchants` are applied there, see routes/events.ts);
 * - every JSON error -> the standard `Error` as `application/problem+json`.
 * SPEC callers are untouched: the hook returns at its first check.
 * Which form an error takes: the caller is known once its token's signature and expiry verify
 * (`verifiedClientId`, set by the bearer check even when it then refuses: paused or revoked
 * credential, scope, rate limit). From there an OPEN_DELIVERY credential gets the standard's form.
 * Before that (no token, malformed, bad signature, expired) nobody is known yet: SPEC's 401 with an
 * empty body and `WWW-Authenticate`, for every caller. The profile never changes after creation, so
 * even a paused or revoked credential's record names the right form.
 */
export function installOpenDeliveryProfile(app: FastifyInstance, ctx: GatewayContext): void {
  // a callback hook, not an async one: no promise per request of every other caller
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isOpenDeliveryCaller(ctx, request)) return done(null, payload);
    let rendered: unknown;
    try {
      rendered = renderForOpenDelivery(request, reply, payload, ctx.config.OD_APP_ID);
    } catch (e) {
      return done(e as Error);
    }
    done(null, rendered);
  });
}

/** true when the request's verified token names an OPEN_DELIVERY credential */
export function isOpenDeliveryCaller(ctx: GatewayContext, request: FastifyRequest): boolean {
  const clientId = request.auth?.clientId ?? request.verifiedClientId;
  return !!clientId && ctx.credentials.get(clientId)?.apiProfile === 'OPEN_DELIVERY';
}

const OD_TYPES = new Set<string>(OD_EVENT_TYPES);

/**
 * What an OPEN_DELIVERY caller receives from a route's successful answer: each route names its
 * renderer in `config.openDelivery` (routes without one answer the same bytes to every profile).
 * Pure: they rewrite the service's answer, never call anything.
 */
export const OD_RENDERERS = {
  /** the standard Order, from the orders service's `open-delivery` view (OdOrderView) */
  order: (text: string, appId: string) => JSON.stringify(toOdOrder(JSON.parse(text), { appId })),
  /** standard envelopes (the feed already left out what the caller does not receive) */
  events: (text: string, appId: string) =>
    JSON.stringify(
      (JSON.parse(text) as Parameters<typeof toOdEvent>[0][])
        .map((e) => toOdEvent(e, appId))
        .filter((e) => e !== null),
    ),
  /** the standard's `Accepted`: a 202 without a body */
  accepted: () => '',
} as const;
export type OdRendererName = keyof typeof OD_RENDERERS;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route's renderer for OPEN_DELIVERY callers (profile/open-delivery.ts) */
    openDelivery?: OdRendererName;
  }
}

/** Pure: renders one answer for an OPEN_DELIVERY caller (no I/O). */
function renderForOpenDelivery(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  appId: string,
): unknown {
  const text = payloadText(payload);
  if (reply.statusCode >= 400) {
    reply.type(OD_ERROR_MEDIA_TYPE);
    return JSON.stringify(toOdError(reply.statusCode, text ? safeParse(text) : {}));
  }
  const renderer = request.routeOptions.config?.openDelivery;
  if (renderer === 'accepted') {
    if (reply.statusCode !== 202) return payload;
    reply.removeHeader('content-type');
    return '';
  }
  if (!renderer || !text) return payload;
  return OD_RENDERERS[renderer](text, appId);
}

/** `eventType` (repeated or comma separated) and `x-polling-merchants` (comma separated), as the standard defines them. */
export function pollingFilter(
  request: Pick<FastifyRequest, 'url' | 'headers'>,
): { types?: Set<OdEventType>; merchants?: string[] } | { error: string; field: string } {
  const params = new URLSearchParams(request.url.split('?')[1] ?? '');
  const raw = params.getAll('eventType').flatMap((v) => v.split(','));
  let types: Set<OdEventType> | undefined;
  if (params.has('eventType')) {
    const list = raw.map((v) => v.trim()).filter(Boolean);
    const field = 'eventType';
    if (!list.length) return { field, error: 'eventType must either be omitted or non-empty.' };
    if (list.length > 15) return { field, error: 'eventType accepts at most 15 values.' };
    const unknown = list.find((v) => !OD_TYPES.has(v));
    if (unknown) return { field, error: `eventType: unknown event type ${unknown.slice(0, 40)}.` };
    types = new Set(list as OdEventType[]);
  }
  const header = request.headers['x-polling-merchants'];
  let merchants: string[] | undefined;
  if (header !== undefined) {
    merchants = (Array.isArray(header) ? header.join(',') : header)
      .split(',')
      .map((m) => m.trim().toLowerCase())
      .filter(Boolean);
    const field = 'x-polling-merchants';
    if (!merchants.length)
      return { field, error: 'x-polling-merchants must either be omitted or non-empty.' };
    if (merchants.length > 100) return { field, error: 'x-polling-merchants accepts at most 100 merchants.' };
  }
  return { types, merchants };
}

function payloadText(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return '';
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** `GET /v1/versions/orderingApp`: the module versions this ordering application serves. */
export const ORDERING_APP_VERSIONS = {
  order: { version: '1.2.1', availableEventsMethods: ['POLLING', 'WEBHOOK'] },
  merchant: { version: '1.2.1' },
} as const;
