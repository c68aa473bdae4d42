import {
  BYTES,
  CATALOG_OPS,
  menuInputSchema,
  merchantCreateSchema,
  merchantPatchSchema,
} from '@od/contracts';
import type { RouteModule } from '../context.ts';
import { forward, relayRoutes } from '../forward.ts';
import { rawBodyValidator } from '../http/raw-body.ts';
// Any id up to TEXT.id: the service answers 404 not_found for an id that is not a GUID (admin form).
import { merchantParams as params } from './params.ts';

/**
 * Admin routes served by the catalog service: create, read and edit stores, replace a store's
 * menu. Bodies are checked once, by the ops' schemas in catalog (400 validation_error, the admin
 * form); the route schemas document them. The menu body (a menu object, or an array holding exactly one) is limited in bytes
 * (BYTES.menuBody, 413) and by the size of the menu it renders (BYTES.servedMenu, 400): the menu
 * as served must fit in one bus message.
 */
export const merchantAdminRoutes: RouteModule = (app, ctx) => {
  const relay = relayRoutes(app, ctx);
  relay.post('/admin/v1/merchants', { body: merchantCreateSchema }, CATALOG_OPS.adminCreate);
  relay.get('/admin/v1/merchants/:merchantId', { params }, CATALOG_OPS.adminGet);
  relay.patch(
    '/admin/v1/merchants/:merchantId',
    {
      params,
      body: merchantPatchSchema,
      summary: "Edit a store's fields and its day (switches, pauses, hours, confirmation timeout)",
      description:
        'Any subset of the fields -> 200 the admin view. `status` UNAVAILABLE closes the store, AVAILABLE reopens it; ' +
        '`services[]` `{ serviceType, status?, pause? }` the same per service type; `pause` `{ minutes: 1..1440, reason }` ' +
        'pauses from now and ends by itself (`null` resumes); `serviceHours` the standard ServiceHours (weekHours, ' +
        'holidayHours; local HH:MM in `timeZone`, an IANA zone, default America/Sao_Paulo; `null` = always open); ' +
        '`confirmationTimeoutSeconds` >= 30 (default 480): a PENDING order not confirmed in time is cancelled by the ' +
        'platform. Intake of a closed, paused or out-of-hours store answers 409 store_closed. docs/decisions.md "A store\'s day".',
    },
    CATALOG_OPS.adminPatch,
  );
  app.put(
    '/admin/v1/merchants/:merchantId/menu',
    // the public form (an array holding the menu) is accepted too: the op's schema unwraps it
    {
      bodyLimit: BYTES.menuBody,
      schema: { params, body: menuInputSchema },
      validatorCompiler: rawBodyValidator,
    },
    (request, reply) =>
      forward(ctx, request, reply, CATALOG_OPS.adminPutMenu, { params: request.params, body: request.body }),
  );
};
