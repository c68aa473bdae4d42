import { confirmAtGateways } from '@od/bus';
import {
  type CallInput,
  CREDENTIAL_ACTIONS,
  CREDENTIAL_CHANGES,
  CREDENTIAL_OPS,
  type CreateCredentialBody,
  type CredentialChangeKind,
  type UpdateCredentialBody,
} from '@od/contracts';
import { HttpException } from '@od/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PanelContext, PanelRoutes } from '../context.ts';
import { panelErrors } from '../domain/panel-errors.ts';
import { requireStore } from '../http/guards.ts';
import { ok, relay, upstream } from '../upstream.ts';

const storeParams = z.object({ merchantId: z.string() });
export const credentialParams = z.object({ merchantId: z.string(), clientId: z.string().max(100) });

/**
 * After auth wrote revision `rev`, every live gateway replica confirms its credential view has it
 * (libs/bus gateway-barrier.ts), so a pause done here refuses the very next request at every gateway.
 */
const awaitGateways = (ctx: PanelContext, rev: number) =>
  confirmAtGateways(ctx.base.nc, ctx.base.names, rev, ctx.base.log);

/** The store's credentials (auth's authoritative list); never a secret. */
export async function storeCredentials(ctx: PanelContext, request: FastifyRequest, merchantId: string) {
  const r = await upstream(ctx, request, CREDENTIAL_OPS.list, {
    body: { merchantId },
  });
  if (!ok(r)) throw new HttpException({ status: r.status, body: r.body });
  return r.body;
}

/** The credential when it belongs to the store, else 404 (another store's ids look unknown). */
export async function ownCredential(
  ctx: PanelContext,
  request: FastifyRequest,
  merchantId: string,
  clientId: string,
) {
  const found = (await storeCredentials(ctx, request, merchantId)).find((c) => c.clientId === clientId);
  if (!found) throw new HttpException(panelErrors.credential());
  return found;
}

/** Calls the auth op of a credential change (CREDENTIAL_CHANGES), waits for the gateways, answers its view. */
async function change<K extends CredentialChangeKind>(
  ctx: PanelContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: K,
  input: CallInput<(typeof CREDENTIAL_CHANGES)[K]['op']>,
) {
  const { op, view, secret } = CREDENTIAL_CHANGES[kind];
  const r = await upstream(ctx, request, op, input);
  if (!ok(r)) return relay(reply, r);
  await awaitGateways(ctx, r.body.revision);
  if (secret) reply.header('Cache-Control', 'no-store');
  return reply.code(r.status).send(view(r.body));
}

/**
 * Credentials of a store (OWNER only): list, create (secrets once), rename/URL, pause, resume,
 * revoke, rotate. A create or edit body goes to auth as the page sent it: the op checks it, its
 * errors naming the page's fields (`clientBodyAt`).
 */
export const credentialRoutes: PanelRoutes = (app, ctx) => {
  const owner = requireStore(ctx, 'credentials');
  const at = '/panel/api/stores/:merchantId/credentials';

  app.get(at, { schema: { params: storeParams }, onRequest: owner }, (request) =>
    storeCredentials(ctx, request, request.store!.merchantId),
  );

  app.post(at, { schema: { params: storeParams }, onRequest: owner }, (request, reply) =>
    change(ctx, request, reply, 'create', {
      body: { merchantId: request.store!.merchantId, body: request.body as CreateCredentialBody },
    }),
  );

  app.patch(
    `${at}/:clientId`,
    { schema: { params: credentialParams }, onRequest: owner },
    async (request, reply) => {
      await ownCredential(ctx, request, request.store!.merchantId, request.params.clientId);
      return change(ctx, request, reply, 'update', {
        body: { clientId: request.params.clientId, body: request.body as UpdateCredentialBody },
      });
    },
  );

  for (const action of CREDENTIAL_ACTIONS) {
    app.post(
      `${at}/:clientId/${action}`,
      { schema: { params: credentialParams }, onRequest: owner },
      async (request, reply) => {
        await ownCredential(ctx, request, request.store!.merchantId, request.params.clientId);
        return change(ctx, request, reply, action, { body: { clientId: request.params.clientId } });
      },
    );
  }
};
