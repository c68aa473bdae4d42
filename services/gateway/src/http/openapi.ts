import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { quickStartOf } from './quick-start.ts';

/** SPEC Versioning: description version 1.4.0 with the revision date marker 2026-09-19. */
export const SPEC_VERSION = '1.4.0';
export const SPEC_REVISION_DATE = '2026-09-19';

const info = (title: string, what: string) => ({
  title,
  version: SPEC_VERSION,
  description:
    `${what} Open Delivery ${SPEC_VERSION} (Order and Merchant modules) with the extensions of this ` +
    `service. Revision ${SPEC_REVISION_DATE}. Every string, array and body has an explicit limit ` +
    '(maxLength, maxItems; body sizes in each route description); control characters other than ' +
    'tab, line feed and carriage return are refused with 400.' +
    quickStartOf(title),
  'x-revision-date': SPEC_REVISION_DATE,
});

/** @fastify/swagger on one listener; the document is built from the routes' zod schemas. */
export async function registerOpenApi(
  app: FastifyInstance,
  listener: 'public' | 'admin',
  serverUrl: string,
): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info:
        listener === 'public'
          ? info(
              'Open Delivery Order and Merchant API',
              'Public API (integrators). Extensions of this service (not in Open Delivery 1.4.0) carry ' +
                '`x-extension: true` (operations, parameters, schemas). Retry only 429, 500, 503, timeouts ' +
                'and network errors (exponential backoff with jitter, honouring `Retry-After`); never 400, ' +
                '403, 404, 409, 422; 401 at most once after renewing the token.',
            )
          : info('Open Delivery platform Admin API', 'Admin API (panel, channels, support; never public).'),
      servers: [{ url: serverUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (d) => {
      const doc = jsonSchemaTransformObject(d) as OpenApiDoc;
      return pruneComponents(listener === 'public' ? completeResponses(doc) : doc);
    },
  });
}

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Json[];
  requestBody?: { required?: boolean };
  responses?: Record<string, Json>;
}
type OpenApiDoc = Json & { paths: Record<string, Record<string, Operation>> };

const OPTIONAL_BODY = new Set(['requestCancellation', 'menuUpdated', 'merchantUpdate']);
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
};
const WWW_AUTHENTICATE = {
  'WWW-Authenticate': {
    description:
      'Bearer realm="opendelivery" (with error="invalid_token" for a paused or revoked credential)',
    schema: { type: 'string' },
  },
};

/**
 * Only the named schemas a document uses: the zod registry holds every public shape (and an
 * `...Input` twin of each), whichever routes the listener has. Sorted by name: the registry's order
 * is the order modules happen to be imported in, so a new import would reorder the document.
 */
function pruneComponents(doc: OpenApiDoc): OpenApiDoc {
  const schemas = (doc.components as { schemas?: Record<string, unknown> } | undefined)?.schemas;
  if (!schemas) return doc;
  const used = new Set<string>();
  const visit = (text: string) => {
    for (const m of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (used.has(m[1])) continue;
      used.add(m[1]);
      visit(JSON.stringify(schemas[m[1]] ?? null));
    }
  };
  visit(JSON.stringify(doc.paths));
  const names = Object.keys(schemas)
    .filter((name) => used.has(name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  (doc.components as { schemas: Record<string, unknown> }).schemas = Object.fromEntries(
    names.map((name) => [name, schemas[name]]),
  );
  return doc;
}

/**
 * What every route of a kind can answer, added to each operation the route did not already
 * document: 401 and 403 `insufficient_scope` on authenticated routes; 429 and 503 (both with
 * `Retry-After`) wherever a limit or a dependency is involved; 500 everywhere. Open Delivery routes
 * answer errors as the standard's `Error` (application/problem+json). Actions document their
 * optional `Idempotency-Key` header (an extension).
 */
export function completeResponses(doc: OpenApiDoc): OpenApiDoc {
  const ids = new Set<string>();
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item)) ids.add(op.operationId ?? '');
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      // a route without an operationId: its last path segment (`merchantStatus`), else method + path
      if (!op.operationId) {
        const last =
          path
            .split('/')
            .pop()
            ?.replace(/[^A-Za-z0-9]/g, '') ?? '';
        const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
        const full = method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
        op.operationId = last && !ids.has(last) ? last : full;
        ids.add(op.operationId);
      }
      const token = path.endsWith('/oauth/token');
      const od = op.tags?.includes('open delivery') ?? false;
      const secured = (op.security?.length ?? 0) > 0;
      const body = (schema: Json) =>
        od ? { 'application/problem+json': { schema: ref('OdError') } } : { 'application/json': { schema } };
      const r: Record<string, Json> = { ...(op.responses ?? {}) };
      if (secured) {
        r['401'] ??= {
          description:
            'No token, or an expired or invalid one: empty body and WWW-Authenticate (renew the token once, then repeat). ' +
            'A paused or revoked credential: `invalid_token` (stop).',
          headers: WWW_AUTHENTICATE,
          content: body(ref('BusinessError')),
        };
        r['403'] ??= {
          description: '`insufficient_scope`: the credential lacks the scope of this route',
          headers: WWW_AUTHENTICATE,
          content: body(ref('BusinessError')),
        };
      }
      if (secured || token) {
        r['429'] ??= {
          description: '`rate_limit_exceeded`: retry after `Retry-After` seconds',
          content: body(token ? ref('OAuthError') : ref('BusinessError')),
        };
        r['503'] ??= {
          description:
            'A dependency is briefly unreachable (`service_unavailable`; at the token endpoint ' +
            '`temporarily_unavailable`): nothing was executed, retry after `Retry-After` seconds',
          content: body(
            token ? { anyOf: [ref('OAuthError'), ref('ServiceUnavailable')] } : ref('ServiceUnavailable'),
          ),
        };
        for (const status of ['429', '503']) r[status] = { ...r[status], headers: RETRY_AFTER };
      }
      r['500'] ??= {
        description: '`internal_error`: retry with backoff; the cause is logged under `traceId`',
        content: body(ref('InternalError')),
      };
      // fastify documents every declared body as required; these two accept none (SPEC, the standard)
      if (OPTIONAL_BODY.has(op.operationId) && op.requestBody) op.requestBody.required = false;
      op.responses = Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));
      if (method === 'post' && path.startsWith('/v1/orders/{orderId}/'))
        op.parameters = [
          ...(op.parameters ?? []),
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Any string up to 128 characters, unique per credential: a repetition within 24 hours answers the first response without executing again',
            schema: { type: 'string', maxLength: 128 },
            'x-extension': true,
          },
        ];
    }
  }
  return doc;
}
