import {
  type CallInput,
  CREDENTIAL_ACTIONS,
  CREDENTIAL_CHANGES,
  CREDENTIAL_OPS,
  type CredentialChange,
  type CredentialChangeKind,
  createCredentialBodySchema,
  updateCredentialBodySchema,
} from '@od/contracts';
import { errors } from '@od/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext, RouteModule } from '../context.ts';
import { rpcCall } from '../forward.ts';
import { sendError } from '../http/errors.ts';
import { rawBodyValidator } from '../http/raw-body.ts';
import { clientParams, merchantParams } from './params.ts';

type OpOf<K extends CredentialChangeKind> = (typeof CREDENTIAL_CHANGES)[K]['op'];

/**
 * Calls the auth op of a credential change (CREDENTIAL_CHANGES). Non-2xx replies (admin error
 * bodies) are forwarded untouched; on success the KV revision is awaited at every live gateway
 * replica (registry), then the change's view builds the HTTP body; replicas that did not confirm
 * are listed in `unconfirmedGateways` and the header `OD-Unconfirmed-Gateways`.
 */
async function change<K extends CredentialChangeKind>(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: K,
  body: CallInput<OpOf<K>>['body'],
) {
  const { op, view, secret } = CREDENTIAL_CHANGES[kind];
  const r = await rpcCall(ctx, request, op as OpOf<K>, { body } as CallInput<OpOf<K>>);
  if (!r) return sendError(reply, errors.unavailable(request.id));
  const text = new TextDecoder().decode(r.body);
  if (r.status < 200 || r.status >= 300) {
    reply.code(r.status).headers(r.headers);
    return text ? reply.type('application/json; charset=utf-8').send(text) : reply.send();
  }
  const c = JSON.parse(text) as CredentialChange;
  // applied by auth; reported when some gateway replica could not confirm it sees the change
  const { unconfirmed } = await ctx.replicas.confirm(c.revision);
  if (secret) reply.header('Cache-Control', 'no-store');
  const out = view(c) as Record<string, unknown>;
  if (unconfirmed.length) reply.header('OD-Unconfirmed-Gateways', unconfirmed.join(','));
  return reply.code(r.status).send(unconfirmed.length ? { ...out, unconfirmedGateways: unconfirmed } : out);
}

/** Admin API: credentials of a store (served by auth). Secrets only in the create/save/rotate answers. */
export const credentialAdminRoutes: RouteModule = (app, ctx) => {
  app.post(
    '/admin/v1/merchants/:merchantId/credentials',
    // the body schema documents it; auth's op checks it, its errors naming the client's fields
    {
      schema: { params: merchantParams, body: createCredentialBodySchema },
      validatorCompiler: rawBodyValidator,
    },
    (request, reply) => change(ctx, request, reply, 'create', { ...request.params, body: request.body }),
  );

  app.get(
    '/admin/v1/merchants/:merchantId/credentials',
    { schema: { params: merchantParams } },
    async (request, reply) => {
      const r = await rpcCall(ctx, request, CREDENTIAL_OPS.list, {
        body: { merchantId: request.params.merchantId },
      });
      if (!r) return sendError(reply, errors.unavailable(request.id));
      return reply
        .code(r.status)
        .type('application/json; charset=utf-8')
        .send(Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength));
    },
  );

  app.patch(
    '/admin/v1/credentials/:clientId',
    {
      schema: { params: clientParams, body: updateCredentialBodySchema },
      validatorCompiler: rawBodyValidator,
    },
    (request, reply) => change(ctx, request, reply, 'update', { ...request.params, body: request.body }),
  );

  for (const action of CREDENTIAL_ACTIONS) {
    app.post(
      `/admin/v1/credentials/:clientId/${action}`,
      { schema: { params: clientParams } },
      (request, reply) => change(ctx, request, reply, action, request.params),
    );
  }
};
