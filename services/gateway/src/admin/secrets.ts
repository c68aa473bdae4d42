import { CATALOG_OPS, SECRETS_OPS } from '@od/contracts';
import { errors } from '@od/errors';
import type { RouteModule } from '../context.ts';
import { rpcCall, writeRpcReply } from '../forward.ts';
import { sendError } from '../http/errors.ts';

const json = (body: Uint8Array) => JSON.parse(Buffer.from(body).toString('utf8'));

/**
 * POST /admin/v1/secrets/rotate-key (`odctl secrets rotate-key`): every secret at rest is sealed
 * again under the active key (SECRETS_ACTIVE_KEY): auth's webhook and client secrets, catalog's
 * point-of-sale api keys -> 200 { activeKeyId, resealed, remaining, unreadable, catalog: { resealed,
 * unreadable } }. A service unreachable: 503; a refusal is forwarded as is. Running it again is safe.
 */
export const secretsAdminRoutes: RouteModule = (app, ctx) => {
  app.post('/admin/v1/secrets/rotate-key', async (request, reply) => {
    const [auth, catalog] = await Promise.all([
      rpcCall(ctx, request, SECRETS_OPS.rotateKey, {}),
      rpcCall(ctx, request, CATALOG_OPS.rotateKey, {}),
    ]);
    if (!auth || !catalog) return sendError(reply, errors.unavailable(request.id));
    const failed = [auth, catalog].find((r) => r.status !== 200);
    if (failed) return writeRpcReply(reply, failed);
    const { activeKeyId: _, ...ofCatalog } = json(catalog.body) as Record<string, unknown>;
    return reply.code(200).send({ ...json(auth.body), catalog: ofCatalog });
  });
};
