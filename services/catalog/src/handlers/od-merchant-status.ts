import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { OdMerchantStatus } from '@od/opendelivery';
import { findOdSource } from '../db/od-source.ts';
import { credentialStore, type HandlerDeps } from './common.ts';

/**
 * GET /v1/merchantStatus?merchantId= (Open Delivery): how the last read of the store's
 * `GET /v1/merchant` went. `merchantId` = the store's id on the platform or the id its point of sale
 * gave at onboarding; anything else, and a store never read, is 404.
 */
export const odMerchantStatus =
  ({ db, od }: HandlerDeps): OpHandler<typeof CATALOG_OPS.odMerchantStatus> =>
  async (req) => {
    const merchantId = credentialStore(req);
    const asked = String(req.query.merchantId ?? '').toLowerCase();
    const source = await findOdSource(db.prisma, od.box, merchantId);
    const known = asked === merchantId || asked === source?.odMerchantId.toLowerCase();
    if (!source || !known || !source.readStatus || !source.lastRead)
      throw new HttpException(errors.notFound(req.traceId));
    const body: OdMerchantStatus = {
      lastRead: source.lastRead,
      status: source.readStatus,
      ...(source.moreInfo ? { moreInfo: source.moreInfo } : {}),
    };
    return { status: 200, body };
  };
