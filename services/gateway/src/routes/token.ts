import {
  oauthErrorSchema,
  RPC,
  TOKEN_BODY_LIMIT,
  TOKEN_REFUSAL_HEADER,
  tokenRequestSchema,
  tokenResponseSchema,
} from '@od/contracts';
import { errors } from '@od/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseForm, parseJson, readTokenRequest } from '../auth/token-request.ts';
import type { RouteModule } from '../context.ts';
import { rpcCall, writeRpcReply } from '../forward.ts';
import { sendError } from '../http/errors.ts';
import { json } from '../http/responses.ts';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

const mediaType = (h: string | undefined) => (h ?? '').split(';')[0].trim().toLowerCase();

/**
 * POST /oauth/token and its alias /v1/oauth/token (SPEC Authentication): client_credentials only,
 * form (canonical) or JSON body up to 4096 bytes, or `Authorization: Basic`. Secrets and tokens are
 * never logged; every answer carries `Cache-Control: no-store`.
 */
export const tokenRoutes: RouteModule = (app, ctx) => {
  app.register(async (scope) => {
    // only form and JSON are readable here; anything else is 415 (error handler, family token)
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(FORM, { parseAs: 'buffer' }, (_req, body, done) => {
      try {
        done(null, parseForm(body as Buffer));
      } catch (e) {
        done(e as Error, undefined);
      }
    });
    scope.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, parseJson(body as string));
      } catch (e) {
        done(e as Error, undefined);
      }
    });

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const type = request.headers['content-type'];
      if (type !== undefined && mediaType(type) !== FORM && mediaType(type) !== JSON_TYPE)
        return sendError(reply, errors.tokenUnsupportedMediaType());
      const body = request.body as Record<string, unknown> | undefined;
      const parsed = readTokenRequest(body, request.headers.authorization);
      if (!parsed.ok) {
        return sendError(
          reply,
          parsed.error === 'unsupported_grant_type'
            ? errors.unsupportedGrantType()
            : errors.tokenInvalidRequest(parsed.description),
        );
      }
      const r = await rpcCall(ctx, request, RPC.auth.tokenIssue, {
        body: { clientId: parsed.clientId, clientSecret: parsed.clientSecret },
      });
      if (!r) return sendError(reply, errors.tokenUnavailable());
      if (r.status === 401) {
        // only wrong secrets of existing credentials count (SPEC Limits): an unknown client id, or a
        // paused/revoked credential presenting its correct secret, is refused without counting; a
        // correct secret is still accepted while the wrong ones are blocked
        const why = r.headers[TOKEN_REFUSAL_HEADER];
        // (no header: an auth replica older than the rule; it counts, as it used to)
        const counts = why !== 'unknown_client' && why !== 'inactive';
        const d = counts ? await ctx.limiter.authFailure(parsed.clientId) : undefined;
        if (d && !d.allowed) {
          reply.headers(d.headers);
          return sendError(reply, errors.tokenRateLimited());
        }
        return sendError(reply, parsed.basic ? errors.invalidClientBasic() : errors.invalidClient());
      }
      return writeRpcReply(reply, r);
    };

    for (const url of ['/oauth/token', '/v1/oauth/token']) {
      scope.route({
        method: 'POST',
        url,
        bodyLimit: TOKEN_BODY_LIMIT,
        config: { family: 'token' },
        schema: {
          operationId: url === '/oauth/token' ? 'getToken' : 'getTokenAlias',
          tags: ['auth'],
          summary: 'Access token (OAuth 2.0 client_credentials)',
          description:
            'Body as application/x-www-form-urlencoded (canonical) or JSON (snake_case or camelCase), ' +
            'or `Authorization: Basic base64(client_id:client_secret)` with only grant_type in the body; ' +
            'the body wins over the header. Body max 4096 bytes. ' +
            (url === '/v1/oauth/token' ? 'Alias of /oauth/token.' : ''),
          consumes: [FORM, JSON_TYPE],
          body: tokenRequestSchema,
          response: {
            200: json('The access token (valid 3600 seconds; share it between workers)', tokenResponseSchema),
            400: json('invalid_request or unsupported_grant_type (RFC 6749)', oauthErrorSchema),
            401: json(
              'invalid_client (only `error`): unknown credential, wrong secret, paused or revoked',
              oauthErrorSchema,
            ),
            413: json('invalid_request: body above 4096 bytes', oauthErrorSchema),
            415: json('invalid_request: Content-Type other than form or JSON', oauthErrorSchema),
          },
        },
        // the body schema documents the route; the rules (and their RFC 6749 errors) are applied by hand
        validatorCompiler: () => () => true,
        onRequest: async (request, reply) => {
          reply.header('Cache-Control', 'no-store');
          reply.header('Pragma', 'no-cache');
          const d = await ctx.limiter.tokenIp(request.ip);
          reply.headers(d.headers);
          if (!d.allowed) return sendError(reply, errors.rateLimited());
        },
        onSend: async (_request, reply, payload) => {
          reply.header('Cache-Control', 'no-store');
          reply.header('Pragma', 'no-cache');
          return payload;
        },
        handler,
      });
    }
  });
};
