import { randomUUID } from 'node:crypto';
import type https from 'node:https';
import {
  type OpHandler,
  type WEBHOOK_OPS,
  WEBHOOK_TEST_BODY_MAX,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookTestResult,
} from '@od/contracts';
import type { EgressDns } from '@od/egress';
import { errors, HttpException } from '@od/errors';
import { webhookHeaders } from '../domain/signature.ts';
import { notDeliverable } from '../domain/targets.ts';
import type { SecretsSource } from '../secrets.ts';
import { sendWebhook } from '../sender.ts';
import { credentialOf, type HandlerContext } from './context.ts';

/** The test's whole exchange: under the bus's 5 s RPC timeout, so the panel gets the answer. */
export const TEST_TIMEOUT_MS = 4_000;

/** The order id of a test envelope: no order has it (a receiver that fetches it gets 404). */
export const TEST_ORDER_ID = '00000000-0000-4000-8000-000000000000';

export interface TestSender {
  secrets: SecretsSource;
  agent: https.Agent;
  dns?: EgressDns;
  allowPrivateNetworks: boolean;
  /** PUBLIC_BASE_URL: the envelope's orderURL */
  baseUrl: string;
  timeoutMs?: number;
}

/**
 * POST /admin/v1/credentials/{clientId}/webhook-test -> 200 WebhookTestResult: one signed TEST
 * envelope (docs/api.md "Test event") posted now to the credential's URL, exactly as a delivery is
 * signed and sent (libs/egress rules, 4 s budget, the answer's first 2 KiB kept), and the answer.
 * Nothing is stored: no event, no delivery, no attempt, nothing in any feed or the order stream.
 * 409 when the credential cannot receive webhooks now, or speaks the Open Delivery profile (the
 * standard has no test event).
 */
export const sendTestHandler =
  (ctx: HandlerContext, s: TestSender): OpHandler<typeof WEBHOOK_OPS.sendTest> =>
  async (req) => {
    const cred = credentialOf(ctx, req.params);
    const reason = notDeliverable(cred);
    if (reason || !cred.webhookUrl) throw new HttpException(errors.webhookUnavailable(String(reason)));
    if (cred.apiProfile === 'OPEN_DELIVERY') throw new HttpException(errors.noStandardTestEvent());
    const endpoint = await ctx.db.endpoint.findUnique({ where: { clientId: cred.clientId } });
    if (endpoint?.deactivatedAt) throw new HttpException(errors.webhookDeactivated());
    const secrets = await s.secrets.get(cred.clientId, req.traceId);
    if (!secrets) throw new HttpException(errors.noSigningSecret());
    const now = new Date();
    const eventId = randomUUID();
    const body = JSON.stringify({
      eventId,
      eventType: WEBHOOK_TEST_EVENT_TYPE,
      orderId: TEST_ORDER_ID,
      orderURL: `${s.baseUrl.replace(/\/$/, '')}/v1/orders/${TEST_ORDER_ID}`,
      createdAt: now.toISOString(),
      metadata: { test: true },
    });
    const r = await sendWebhook({
      url: cred.webhookUrl,
      body,
      headers: webhookHeaders({
        secrets,
        eventId,
        merchantId: cred.merchantId,
        timestamp: Math.floor(now.getTime() / 1000),
        rawBody: body,
      }),
      timeoutMs: s.timeoutMs ?? TEST_TIMEOUT_MS,
      allowPrivateNetworks: s.allowPrivateNetworks,
      agent: s.agent,
      dns: s.dns,
      keepBodyBytes: WEBHOOK_TEST_BODY_MAX,
    });
    const result: WebhookTestResult = {
      eventId,
      url: cred.webhookUrl,
      statusCode: r.statusCode,
      success: r.success,
      durationMs: r.durationMs,
      error: r.error,
      responseBody: r.statusCode === null ? null : (r.body ?? ''),
    };
    return { status: 200, body: result };
  };
