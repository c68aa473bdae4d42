import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import { checkHttpsUrl } from '@od/egress';
import { errors, fieldErrorsFromIssues, HttpException } from '@od/errors';
import { merchantApiInfoSchema, odMerchantIdSchema } from '@od/opendelivery';
import { saveOdSource } from '../db/od-source.ts';
import { credentialStore, type HandlerDeps } from './common.ts';

/**
 * PUT /v1/merchantOnboarding?merchantId= (Open Delivery): the store's point of sale registers where
 * it serves `GET /v1/merchant` (and its api key, sealed at rest). The store is the credential's;
 * `merchantId` is the point of sale's own id of it, kept to check the documents read later.
 * 201 with the registration (api key left out) the first time, 204 after. The URL must pass the
 * outgoing-call rules (https, no credentials); its address is checked at each read.
 * `ordersWebhookURL` is kept for information: the push goes to the credential's webhook URL, set
 * by the store's administrator.
 */
export const odOnboarding =
  ({ db, od }: HandlerDeps): OpHandler<typeof CATALOG_OPS.odOnboarding> =>
  async (req) => {
    const merchantId = credentialStore(req);
    const id = odMerchantIdSchema.safeParse(req.query.merchantId);
    const body = merchantApiInfoSchema.safeParse(req.body ?? {});
    if (!id.success || !body.success)
      throw new HttpException(
        errors.validation(
          fieldErrorsFromIssues([
            ...(id.success ? [] : id.error.issues.map((i) => ({ ...i, path: ['merchantId'] }))),
            ...(body.success ? [] : body.error.issues),
          ]),
          req.traceId,
        ),
      );
    const info = body.data;
    const url = info.getMerchantURL?.baseURL;
    if (url) {
      const checked = checkHttpsUrl(url, 'URL');
      if (!checked.ok) throw new HttpException(errors.odInvalidUrl(checked.error));
    }
    const saved = await saveOdSource(db.prisma, od.box, merchantId, {
      odMerchantId: id.data,
      getMerchantUrl: url,
      apiKey: info.getMerchantURL?.apiKey,
      ordersWebhookUrl: info.ordersWebhookURL,
    });
    if (saved === 'needs_url') throw new HttpException(errors.odNeedsMerchantUrl());
    if (saved === 'updated') return { status: 204 };
    return {
      status: 201,
      body: {
        getMerchantURL: { baseURL: url },
        ...(info.ordersWebhookURL ? { ordersWebhookURL: info.ordersWebhookURL } : {}),
      },
    };
  };
