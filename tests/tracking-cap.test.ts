import { createMerchant, createOrder, issueTestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Open Delivery `tracking` updates are recorded in the order's history (issue 22, item 8): only the
 * newest 100 stay, so a point of sale reporting forever cannot grow an order without bound; the
 * order's other history entries are untouched.
 */
const KEPT = 100;
const SENT = KEPT + 12;

describe('tracking history is capped per order', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ services: ['catalog', 'orders'], env: { RATE_LIMIT_ENABLED: 'false' } });
  });
  afterAll(async () => stack?.stop());

  it(`keeps the newest ${KEPT} tracking entries and every other entry`, async () => {
    const { merchantId } = await createMerchant(stack);
    const order = await createOrder(stack, merchantId);
    expect((await stack.admin('POST', `/admin/v1/orders/${order.id}/confirm`)).status).toBe(202);
    const { token } = await issueTestToken(stack, {
      merchantId,
      record: { apiProfile: 'OPEN_DELIVERY' },
    });
    for (let i = 0; i < SENT; i++) {
      const r = await stack.api(`/v1/orders/${order.id}/tracking`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          deliveryTrackingInfo: {
            event: { type: 'DELIVERY_ONGOING', datetime: new Date().toISOString(), message: `n${i}` },
          },
        }),
      });
      expect(r.status, await r.text()).toBe(202);
    }
    const view = await (await stack.admin('GET', `/admin/v1/orders/${order.id}`)).json();
    expect(view.historyNextCursor ?? null).toBeNull();
    const history = view.history as { trigger: string; detail: any }[];
    const tracking = history.filter((h) => h.trigger === 'tracking');
    expect(tracking).toHaveLength(KEPT);
    expect(tracking.map((h) => h.detail.deliveryTrackingInfo.event.message)).toEqual(
      Array.from({ length: KEPT }, (_, i) => `n${SENT - KEPT + i}`),
    );
    // creation and confirmation stay
    expect(history.filter((h) => h.trigger !== 'tracking').length).toBeGreaterThanOrEqual(2);
  });
});
