import type { SecretBox } from '@od/crypto';
import type { CatalogDb, Prisma } from './catalog-db.ts';

/** Where a store's point of sale serves `GET /v1/merchant`, and its last read (Open Delivery). */
export interface OdSource {
  merchantId: string;
  odMerchantId: string;
  getMerchantUrl: string;
  /** decrypted */
  apiKey: string | null;
  ordersWebhookUrl: string | null;
  readStatus: 'SUCCESS' | 'PROCESSING' | 'FAIL' | null;
  lastRead: string | null;
  moreInfo: string | null;
}

/** What a sealed api key is bound to: a value copied to another store does not open. */
const apiKeyContext = (merchantId: string) => `od_api_key:${merchantId}`;

export async function findOdSource(
  prisma: Prisma,
  box: SecretBox,
  merchantId: string,
): Promise<OdSource | null> {
  const r = await prisma.odMerchantSource.findUnique({ where: { merchantId } });
  if (!r) return null;
  return {
    merchantId: r.merchantId,
    odMerchantId: r.odMerchantId,
    getMerchantUrl: r.getMerchantUrl,
    apiKey: r.apiKey ? box.open(r.apiKey, apiKeyContext(merchantId)) : null,
    ordersWebhookUrl: r.ordersWebhookUrl,
    readStatus: r.readStatus as OdSource['readStatus'],
    lastRead: r.lastRead?.toISOString() ?? null,
    moreInfo: r.moreInfo,
  };
}

export interface Onboarding {
  odMerchantId: string;
  getMerchantUrl?: string;
  /** undefined = keep; a new URL without a key drops the old key */
  apiKey?: string;
  ordersWebhookUrl?: string;
}

/**
 * Registers or updates a store's source. 'created' | 'updated'; 'needs_url' when a first
 * registration has no URL. A new URL replaces the key (given or none); the key is sealed.
 */
export async function saveOdSource(
  prisma: Prisma,
  box: SecretBox,
  merchantId: string,
  o: Onboarding,
): Promise<'created' | 'updated' | 'needs_url'> {
  const sealed = (key: string | undefined) =>
    key === undefined
      ? { apiKey: null, apiKeyKeyId: null }
      : { apiKey: box.seal(key, apiKeyContext(merchantId)), apiKeyKeyId: box.activeId };
  return prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ merchant_id: string }[]>`
      SELECT merchant_id FROM od_merchant_source WHERE merchant_id = ${merchantId}::uuid FOR UPDATE`;
    if (locked.length === 0) {
      if (!o.getMerchantUrl) return 'needs_url';
      await tx.odMerchantSource.create({
        data: {
          merchantId,
          odMerchantId: o.odMerchantId,
          getMerchantUrl: o.getMerchantUrl,
          ordersWebhookUrl: o.ordersWebhookUrl ?? null,
          ...sealed(o.apiKey),
        },
      });
      return 'created';
    }
    await tx.odMerchantSource.update({
      where: { merchantId },
      data: {
        odMerchantId: o.odMerchantId,
        ...(o.getMerchantUrl ? { getMerchantUrl: o.getMerchantUrl, ...sealed(o.apiKey) } : {}),
        ...(!o.getMerchantUrl && o.apiKey !== undefined ? sealed(o.apiKey) : {}),
        ...(o.ordersWebhookUrl !== undefined ? { ordersWebhookUrl: o.ordersWebhookUrl } : {}),
        updatedAt: new Date(),
      },
    });
    return 'updated';
  });
}

/** Records a read attempt of `GET /v1/merchant` (what `GET /v1/merchantStatus` answers). */
export async function markOdRead(
  prisma: Prisma,
  merchantId: string,
  status: 'SUCCESS' | 'PROCESSING' | 'FAIL',
  moreInfo: string | null,
): Promise<void> {
  await prisma.odMerchantSource.updateMany({
    where: { merchantId },
    data: { readStatus: status, lastRead: new Date(), moreInfo: moreInfo?.slice(0, 2000) ?? null },
  });
}

/**
 * Api keys not under the active key are sealed again (key rotation of SECRETS_KEYS): at start and
 * by `odctl secrets rotate-key`. `unreadable`: stores whose key no longer opens (its key id left
 * SECRETS_KEYS); the store's next onboarding replaces it. A plain SQL look first: with nothing to
 * reseal (every start but the first after a rotation) Prisma's query compiler (~10 MB resident)
 * is not loaded.
 */
export async function resealOdApiKeys(
  db: CatalogDb,
  box: SecretBox,
): Promise<{ resealed: number; unreadable: string[] }> {
  if (!(await db.anyApiKeyNotUnder(box.activeId))) return { resealed: 0, unreadable: [] };
  const { prisma } = db;
  const rows = await prisma.odMerchantSource.findMany({
    where: { apiKey: { not: null }, NOT: { apiKeyKeyId: box.activeId } },
    select: { merchantId: true, apiKey: true },
  });
  let n = 0;
  const unreadable: string[] = [];
  for (const r of rows) {
    try {
      const plain = box.open(r.apiKey as string, apiKeyContext(r.merchantId));
      const done = await prisma.odMerchantSource.updateMany({
        where: { merchantId: r.merchantId, apiKey: r.apiKey },
        data: { apiKey: box.seal(plain, apiKeyContext(r.merchantId)), apiKeyKeyId: box.activeId },
      });
      n += done.count;
    } catch {
      unreadable.push(r.merchantId);
    }
  }
  return { resealed: n, unreadable };
}
