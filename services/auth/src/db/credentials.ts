import type { ApiProfile, CredentialRecord, CredentialStatus, DeliveryMode, Scope } from '@od/contracts';
import type { SecretBox } from '@od/crypto';
import type { Db } from './client.ts';
import type { Credential, Prisma } from './generated/client.ts';

export type Tx = Prisma.TransactionClient;
export type CredentialRow = Credential;

const iso = (d: Date | string) => new Date(d).toISOString();

/** The columns of the non-secret view (timestamps: Date from Prisma, ISO text from `pg`). */
export type RecordColumns = Pick<
  CredentialRow,
  | 'clientId'
  | 'merchantId'
  | 'name'
  | 'scopes'
  | 'status'
  | 'deliveryMode'
  | 'webhookUrl'
  | 'includeMarketplaceOrders'
  | 'apiProfile'
> & { createdAt: Date | string; updatedAt: Date | string };

/** The non-secret view published to the credentials KV bucket and returned by the Admin API. */
export function toRecord(row: RecordColumns): CredentialRecord {
  return {
    clientId: row.clientId,
    merchantId: row.merchantId,
    name: row.name,
    scopes: row.scopes as Scope[],
    status: row.status as CredentialStatus,
    deliveryMode: row.deliveryMode as DeliveryMode,
    webhookUrl: row.webhookUrl,
    includeMarketplaceOrders: row.includeMarketplaceOrders,
    apiProfile: row.apiProfile as ApiProfile,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export const findCredential = (db: Db | Tx, clientId: string) =>
  db.credential.findUnique({ where: { clientId } });

/** The store of a credential (null = unknown): what a merchant user's request is checked against. */
export const storeOfCredential = (db: Db) => async (clientId: string) =>
  (await db.credential.findUnique({ where: { clientId }, select: { merchantId: true } }))?.merchantId ?? null;

export const listByMerchant = (db: Db, merchantId: string) =>
  db.credential.findMany({ where: { merchantId }, orderBy: [{ createdAt: 'asc' }, { clientId: 'asc' }] });

/**
 * Credentials of a store that are not revoked, counted under a transaction-scoped advisory lock of
 * the store: a second creation for the same store waits until the first commits, then counts it.
 */
export async function countLiveOfStore(tx: Tx, merchantId: string): Promise<number> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`credential-cap:${merchantId}`}, 0))`;
  return tx.credential.count({ where: { merchantId, status: { not: 'REVOKED' } } });
}

/**
 * Runs `fn` with the credential's row locked (SELECT ... FOR UPDATE) so that concurrent changes of
 * one credential, and their KV publications, happen one after the other. `undefined` = unknown.
 */
export async function withLockedCredential<T>(
  db: Db,
  clientId: string,
  fn: (tx: Tx, row: CredentialRow) => Promise<T>,
): Promise<T | undefined> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ client_id: string }[]>`
      SELECT client_id FROM credential WHERE client_id = ${clientId} FOR UPDATE`;
    if (locked.length === 0) return undefined;
    const row = await tx.credential.findUniqueOrThrow({ where: { clientId } });
    return fn(tx, row);
  });
}

/** What a sealed webhook secret is bound to: a value copied to another credential does not open. */
export const webhookSecretContext = (clientId: string) => `webhook_secret:${clientId}`;

/** Encrypted form of a new webhook secret (AES-256-GCM under the active key, see libs/crypto). */
const sealed = (box: SecretBox, clientId: string, secret: string) => ({
  clientId,
  secret: box.seal(secret, webhookSecretContext(clientId)),
  keyId: box.activeId,
});

/** Webhook secrets still valid now, newest first, decrypted. */
export async function validWebhookSecrets(db: Db | Tx, box: SecretBox, clientId: string): Promise<string[]> {
  const rows = await db.webhookSecret.findMany({
    where: { clientId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    orderBy: [{ expiresAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'desc' }],
    select: { secret: true, keyId: true },
  });
  // key_id NULL: a row written before encryption and not yet sealed by the start-up pass
  return rows.map((r) => (r.keyId === null ? r.secret : box.open(r.secret, webhookSecretContext(clientId))));
}

/** Saving the URL: every previous secret is dropped, a new one becomes current. */
export async function replaceWebhookSecrets(
  tx: Tx,
  box: SecretBox,
  clientId: string,
  secret: string | null,
): Promise<void> {
  await tx.webhookSecret.deleteMany({ where: { clientId } });
  if (secret) await tx.webhookSecret.create({ data: sealed(box, clientId, secret) });
}

/** Rotation: the current secret stays valid for `overlapMs`, older ones go, the new one is current. */
export async function rotateWebhookSecret(
  tx: Tx,
  box: SecretBox,
  clientId: string,
  secret: string,
  overlapMs: number,
): Promise<void> {
  const now = new Date();
  await tx.webhookSecret.deleteMany({ where: { clientId, expiresAt: { not: null } } });
  await tx.webhookSecret.updateMany({
    where: { clientId, expiresAt: null },
    data: { expiresAt: new Date(now.getTime() + overlapMs) },
  });
  await tx.webhookSecret.create({ data: sealed(box, clientId, secret) });
}

/** First webhook secret of a new credential. */
export const createWebhookSecret = (tx: Tx, box: SecretBox, clientId: string, secret: string) =>
  tx.webhookSecret.create({ data: sealed(box, clientId, secret) });

/** What a sealed client secret is bound to (OPEN_DELIVERY credentials, see migration od_client_secret). */
export const clientSecretContext = (clientId: string) => `client_secret:${clientId}`;

/** The sealed form of an OPEN_DELIVERY credential's client secret (columns of `credential`). */
export const sealedClientSecret = (box: SecretBox, clientId: string, secret: string) => ({
  clientSecret: box.seal(secret, clientSecretContext(clientId)),
  clientSecretKeyId: box.activeId,
});

/** The client secret of an OPEN_DELIVERY credential, decrypted; null when none is kept. */
export function openClientSecret(box: SecretBox, row: CredentialRow): string | null {
  if (!row.clientSecret) return null;
  return box.open(row.clientSecret, clientSecretContext(row.clientId));
}
