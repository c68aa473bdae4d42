import { SECRETS_OPS } from '@od/contracts';
import type { RouteModule } from '../context.ts';
import { relayRoutes } from '../forward.ts';

/**
 * POST /admin/v1/secrets/rotate-key (`odctl secrets rotate-key`): auth re-encrypts every webhook
 * secret under its active key (SECRETS_ACTIVE_KEY) -> 200 { activeKeyId, resealed, remaining }.
 */
export const secretsAdminRoutes: RouteModule = (app, ctx) => {
  relayRoutes(app, ctx).post('/admin/v1/secrets/rotate-key', {}, SECRETS_OPS.rotateKey);
};
