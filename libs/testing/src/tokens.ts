import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { openCredentialsKv } from '@od/bus';
import { type CredentialRecord, names, SCOPES, type Scope } from '@od/contracts';
import { createSigner } from 'fast-jwt';
import type { TestStack } from './stack.ts';

/**
 * A credential written straight into the credentials KV bucket and a token signed with the stack's
 * JWT secret: lets a service's tests call public routes without going through the auth service.
 * Tests of auth itself use the real token endpoint.
 */
export async function issueTestToken(
  stack: TestStack,
  opts: { merchantId?: string; scopes?: Scope[]; record?: Partial<CredentialRecord> } = {},
): Promise<{ token: string; clientId: string; merchantId: string; record: CredentialRecord }> {
  const merchantId = opts.merchantId ?? randomUUID();
  const clientId = `odc_${randomBytes(12).toString('hex')}`;
  const now = new Date().toISOString();
  const record: CredentialRecord = {
    clientId,
    merchantId,
    name: 'test credential',
    scopes: opts.scopes ?? [...SCOPES],
    status: 'ACTIVE',
    deliveryMode: 'POLLING',
    webhookUrl: null,
    includeMarketplaceOrders: true,
    apiProfile: 'SPEC',
    createdAt: now,
    updatedAt: now,
    ...opts.record,
  };
  const nc = await connect({ servers: stack.config.NATS_URL });
  try {
    const kv = await openCredentialsKv(nc, names(stack.config.NATS_PREFIX));
    const rev = await kv.put(clientId, JSON.stringify(record));
    await Promise.all(stack.gateways.map((g) => g.ctx.credentials.waitForRevision(rev)));
  } finally {
    await nc.close();
  }
  const sign = createSigner({ key: stack.config.JWT_SECRET, algorithm: 'HS256', expiresIn: 3600_000 });
  const token = sign({ merchant_id: merchantId, client_id: clientId, scope: record.scopes.join(' ') });
  return { token, clientId, merchantId, record };
}

/** POST /oauth/token with the canonical form body, as an integrator does (gateway `gw` of the stack). */
export function requestToken(
  stack: TestStack,
  clientId: string,
  clientSecret: string,
  gw = 0,
): Promise<Response> {
  return stack.api('/oauth/token', tokenRequest(clientId, clientSecret), gw);
}

/** The request an integrator sends to the token endpoint (form body, client_credentials). */
export function tokenRequest(clientId: string, clientSecret: string): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }).toString(),
  };
}

/** A credential of `merchantId` through the Admin API (polling, marketplace orders included). */
export async function createCredential(
  stack: TestStack,
  merchantId: string,
  scopes: string[],
  apiProfile: 'SPEC' | 'OPEN_DELIVERY' = 'SPEC',
): Promise<{ clientId: string; clientSecret: string }> {
  const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
    name: `pdv ${apiProfile} ${scopes.join(' ')}`,
    scopes,
    deliveryMode: 'POLLING',
    includeMarketplaceOrders: true,
    apiProfile,
  });
  if (r.status !== 201) throw new Error(`create credential: ${r.status} ${await r.text()}`);
  return (await r.json()) as { clientId: string; clientSecret: string };
}
