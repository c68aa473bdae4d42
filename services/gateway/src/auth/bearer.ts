import type { AuthContext, Scope } from '@od/contracts';
import { errors } from '@od/errors';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { sendError } from '../http/errors.ts';
import { STALE_AFTER_MS } from './credentials-sync.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
    /**
     * The client id of a token whose signature and expiry verified, set even when the request is
     * then refused (paused, revoked, scope, rate limit): it tells the profile hook which error form
     * the caller speaks. Never used to authorize anything.
     */
    verifiedClientId?: string;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { merchant_id: string; client_id: string; scope: string };
  }
}

type Claims = { merchant_id: string; client_id: string; scope: string };

// once: a regular expression literal in the hook would be a new RegExp object per request
const BEARER_HEADER = /^Bearer [A-Za-z0-9\-_.]+$/i;

/**
 * Bearer check of a public route: a valid HS256 token (else 401, empty body), a live credentials
 * view (else 503: see credentials-sync.ts), a credential that is still ACTIVE at this very moment
 * (pushed status: else 401 invalid_token), the route's scope among the credential's CURRENT scopes
 * (same view; else 403 insufficient_scope), then the per-credential limiter.
 * Registered as the route's `onRequest` hook: it runs before the body is read and before path,
 * query and body are validated, so a request without a valid token answers 401 whatever it carries
 * (SPEC Authentication 7), and every authenticated request counts against the limiter.
 */
export function bearer(ctx: GatewayContext, scope: Scope): onRequestAsyncHookHandler {
  return async function checkBearer(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers.authorization;
    if (!header || !BEARER_HEADER.test(header)) return sendError(reply, errors.unauthenticated());
    let claims: Claims;
    try {
      // @fastify/jwt, registered by the public app (http/public-app.ts): HS256 only, `exp` required,
      // verified tokens cached until their expiry (a repeated token costs a hash lookup, not an HMAC)
      claims = request.server.jwt.verify<Claims>(header.slice(7));
    } catch {
      return sendError(reply, errors.unauthenticated());
    }
    if (
      typeof claims.client_id !== 'string' ||
      typeof claims.merchant_id !== 'string' ||
      typeof claims.scope !== 'string'
    ) {
      return sendError(reply, errors.unauthenticated());
    }
    request.verifiedClientId = claims.client_id;
    // a view that may have missed a pause or a revocation cannot vouch for any credential
    if (ctx.replicas.staleness() > STALE_AFTER_MS) {
      request.log.warn('credentials view stale: bearer request refused with 503');
      return sendError(reply, errors.unavailable(request.id));
    }
    const cred = ctx.credentials.get(claims.client_id);
    if (cred?.status !== 'ACTIVE' || cred.merchantId !== claims.merchant_id) {
      return sendError(reply, errors.invalidToken());
    }
    // the credential's scopes as they are now (pushed by auth), not the token's `scope` claim: a
    // grant withdrawn after the token was issued is withdrawn at the next request
    const scopes: string[] = cred.scopes;
    if (!scopes.includes(scope)) return sendError(reply, errors.insufficientScope(scope));
    const limit = await ctx.limiter.credential(claims.client_id);
    reply.headers(limit.headers);
    if (!limit.allowed) return sendError(reply, errors.rateLimited());
    request.auth = { merchantId: claims.merchant_id, clientId: claims.client_id, scopes };
  };
}
