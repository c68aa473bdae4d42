import { z } from 'zod';
import { createCredentialBodySchema, updateCredentialBodySchema } from '../credential-bodies.ts';
import type { CredentialChange, CredentialRecord } from '../credentials.ts';
import { defineOps } from '../op.ts';
import { ADMIN_AND_PANEL } from '../rpc.ts';
import type { TokenResponse } from '../token.ts';

const client = z.object({ clientId: z.string() });
const merchant = z.object({ merchantId: z.string() });
const change = z.custom<CredentialChange>();

/** Who may change credentials: the Admin API, and panel users whose role reaches the credentials area. */
const ADMIN_CREDENTIALS = { callers: ADMIN_AND_PANEL, area: 'credentials' } as const;

/**
 * RPC ops of the auth service. Credential bodies are the contracts' schemas, parsed by the op when
 * served, alone: its field errors name the client's fields (`clientBodyAt`), so the front doors
 * relay them (docs/decisions.md, "Who checks a body"). Answers: CredentialChange (+ secrets where created).
 */
export const CREDENTIAL_OPS = defineOps('auth', {
  /** body { merchantId, body: CreateCredentialBody } -> 201 CredentialCreated */
  create: {
    name: 'credentials.create',
    ...ADMIN_CREDENTIALS,
    body: z.object({ merchantId: z.string(), body: createCredentialBodySchema }),
    clientBodyAt: 'body',
    reply: change,
  },
  /** -> 200 CredentialRecord[] */
  list: {
    name: 'credentials.list',
    ...ADMIN_CREDENTIALS,
    body: merchant,
    reply: z.custom<CredentialRecord[]>(),
  },
  /** body { clientId, body: UpdateCredentialBody } -> 200 CredentialChange (+ webhookSecret when the URL was saved) */
  update: {
    name: 'credentials.update',
    ...ADMIN_CREDENTIALS,
    body: z.object({ clientId: z.string(), body: updateCredentialBodySchema }),
    clientBodyAt: 'body',
    reply: change,
  },
  pause: { name: 'credentials.pause', ...ADMIN_CREDENTIALS, body: client, reply: change },
  resume: { name: 'credentials.resume', ...ADMIN_CREDENTIALS, body: client, reply: change },
  revoke: { name: 'credentials.revoke', ...ADMIN_CREDENTIALS, body: client, reply: change },
  /** -> 200 CredentialChange with webhookSecret */
  rotateWebhookSecret: {
    name: 'credentials.rotateWebhookSecret',
    ...ADMIN_CREDENTIALS,
    body: client,
    reply: change,
  },
});

/** Secrets at rest (Admin API, `odctl secrets rotate-key`). */
export const SECRETS_OPS = defineOps('auth', {
  /** -> 200 { activeKeyId, resealed, remaining, unreadable }: every webhook secret under the active key */
  rotateKey: { name: 'admin.secrets.rotateKey', callers: ['admin'] },
});

export const AUTH_INTERNAL_OPS = defineOps('auth', {
  /** POST /oauth/token, before any authentication -> 200 TokenResponse | 401 invalid_client */
  tokenIssue: {
    name: 'token.issue',
    callers: ['anonymous'],
    body: z.object({ clientId: z.string(), clientSecret: z.string() }),
    reply: z.custom<TokenResponse>(),
  },
  /** the authoritative list of a store's credentials, every status */
  credentialsByMerchant: {
    name: 'internal.credentialsByMerchant',
    callers: ['admin', 'feed', 'webhook'],
    body: merchant,
    reply: z.custom<CredentialRecord[]>(),
  },
  /** whsec_..., newest first (two during rotation) | 404: only the webhook sender signs with them */
  webhookSecrets: {
    name: 'internal.webhookSecrets',
    callers: ['webhook'],
    body: client,
    reply: z.object({ secrets: z.array(z.string()) }),
  },
  /** an OPEN_DELIVERY credential's client secret (signs newEvent) | 404: only the webhook sender */
  clientSecret: {
    name: 'internal.clientSecret',
    callers: ['webhook'],
    body: client,
    reply: z.object({ clientSecret: z.string() }),
  },
});
