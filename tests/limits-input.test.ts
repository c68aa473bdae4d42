import { BYTES, COUNT, TEXT } from '@od/contracts';
import { createMerchant, createOrder, requestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 9: every input is bounded at the gateway and control characters PostgreSQL or a client
 * cannot store are refused with 400 in the route family's form, never a 500, before a service is
 * called. The services run in this process: one that crashed would fail the run.
 */
let stack: TestStack;
let merchantId: string;
let pizza: string;
let token: string;

beforeAll(async () => {
  stack = await startStack({
    services: ['auth', 'catalog', 'orders', 'feed'],
    env: { RATE_LIMIT_ENABLED: 'false' },
  });
  const m = await createMerchant(stack);
  merchantId = m.merchantId;
  pizza = m.menu.pizza;
  const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
    name: 'pdv',
    scopes: ['orders:read', 'orders:write', 'catalog:read'],
    deliveryMode: 'POLLING',
  });
  const cred = await c.json();
  token = (await (await requestToken(stack, cred.clientId, cred.clientSecret)).json()).access_token;
}, 60_000);
afterAll(async () => stack?.stop());

const bearer = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

async function expectAdmin400(r: Response, field?: string) {
  const text = await r.text();
  expect(r.status, text).toBe(400);
  const body = JSON.parse(text);
  expect(body.error, text).toBe('validation_error');
  if (field) expect(Object.keys(body.errors ?? {}), text).toContain(field);
}

async function expectValidationProblem(r: Response, field: string) {
  const text = await r.text();
  expect(r.status, text).toBe(400);
  const body = JSON.parse(text);
  expect(body).toMatchObject({ title: expect.any(String), status: 400, traceId: expect.any(String) });
  expect(Object.keys(body.errors), text).toContain(field);
}

const fullItem = (options: number) => ({
  name: 'Item',
  unitPrice: 10,
  options: Array.from({ length: options }, (_, i) => ({ name: `Opção ${i}`, unitPrice: 1 })),
});

describe('control characters', () => {
  it('NUL in a cancellation reason: 400 ValidationProblemDetails, the order untouched', async () => {
    const order = await createOrder(stack, merchantId);
    const r = await stack.api(`/v1/orders/${order.id}/requestCancellation`, {
      method: 'POST',
      headers: bearer(),
      body: JSON.stringify({ reason: 'cliente\u0000desistiu' }),
    });
    await expectValidationProblem(r, 'reason');
    const after = await (await stack.admin('GET', `/admin/v1/orders/${order.id}`)).json();
    expect(after.situation).toBe('PENDING');
    // a reason over 500 characters keeps SPEC's own answer
    const long = await stack.api(`/v1/orders/${order.id}/requestCancellation`, {
      method: 'POST',
      headers: bearer(),
      body: JSON.stringify({ reason: 'x'.repeat(501) }),
    });
    expect(long.status).toBe(400);
    expect((await long.json()).error).toBe('invalid_cancellation_reason');
    // the op's schema checks every key and string, the ones it ignores too, and the shape
    const post = (body: string) =>
      stack.api(`/v1/orders/${order.id}/requestCancellation`, { method: 'POST', headers: bearer(), body });
    await expectValidationProblem(
      await post(JSON.stringify({ reason: 'ok', 'nota\u0001': 1 })),
      'nota\u0001',
    );
    await expectValidationProblem(await post(JSON.stringify({ code: 'c'.repeat(101) })), 'code');
    await expectValidationProblem(await post('[1]'), '$');
    expect((await (await stack.admin('GET', `/admin/v1/orders/${order.id}`)).json()).situation).toBe(
      'PENDING',
    );
  });

  it('NUL in a customer name (intake and edit), a menu item name, an unknown key: 400 admin form', async () => {
    await expectAdmin400(
      await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, {
        type: 'DELIVERY',
        customer: { name: 'Ana\u0000', phone: { number: '11999999999' } },
      }),
      'customer.name',
    );
    const order = await createOrder(stack, merchantId);
    await expectAdmin400(
      await stack.admin('PATCH', `/admin/v1/orders/${order.id}`, {
        customer: { name: 'Ana\u0000', phone: { number: '1' } },
      }),
      'customer.name',
    );
    await expectAdmin400(
      await stack.admin('PUT', `/admin/v1/merchants/${merchantId}/menu`, {
        items: [{ id: 'x', name: 'Pizza\u0000', price: { value: 1 } }],
      }),
      'items[0].name',
    );
    await expectAdmin400(
      await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, {
        type: 'DELIVERY',
        payments: { methods: [{ value: 1, method: 'PIX', type: 'ONLINE', transaction: { 'k\u0000': 1 } }] },
      }),
    );
  });

  it('other C0 controls and DEL are refused; tab, line feed and carriage return are kept', async () => {
    for (const bad of ['\u0007', '\u001b[31m', '\u007f'])
      await expectAdmin400(
        await stack.admin('PATCH', `/admin/v1/merchants/${merchantId}`, { description: `a${bad}b` }),
        'description',
      );
    const ok = await stack.admin('PATCH', `/admin/v1/merchants/${merchantId}`, {
      description: 'linha 1\r\n\tlinha 2',
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).description).toBe('linha 1\r\n\tlinha 2');
  });

  it('token endpoint, query strings and path parameters', async () => {
    const t = await stack.api('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'odc_\u0000', client_secret: 'x' }),
    });
    expect(t.status).toBe(400);
    expect((await t.json()).error).toBe('invalid_request');
    const q = await stack.admin('GET', '/admin/v1/credentials/odc_x/webhook-attempts?cursor=%00');
    expect(q.status).toBe(400);
    const p = await stack.admin('GET', '/admin/v1/orders/%00');
    expect(p.status).toBe(404);
    const pub = await stack.api('/v1/orders/%00', { headers: bearer() });
    expect(pub.status).toBe(404);
  });
});

describe('sizes and counts', () => {
  it('an order of 300 items with 25 options each: 4xx, never 500', async () => {
    // given in full the body is over the admin body limit: 413
    const full = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, {
      type: 'DELIVERY',
      items: Array.from({ length: 300 }, () => fullItem(25)),
    });
    expect(full.status).toBe(413);
    // by menu reference it fits the body limit and breaks the counts: 400
    const byRef = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, {
      type: 'DELIVERY',
      items: Array.from({ length: 300 }, () => ({
        itemId: pizza,
        options: Array.from({ length: 25 }, () => ({ optionId: 'x' })),
      })),
    });
    await expectAdmin400(byRef, 'items');
  });

  it('items per order, options per item, options per order at and over their limits', async () => {
    const create = (items: unknown[]) =>
      stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY', items });
    await expectAdmin400(await create([fullItem(COUNT.itemOptions + 1)]), 'items[0].options');
    await expectAdmin400(
      await create(Array.from({ length: COUNT.orderItems + 1 }, () => ({ itemId: pizza }))),
      'items',
    );
    const perItem = COUNT.itemOptions;
    const n = Math.ceil((COUNT.orderOptions + 1) / perItem);
    await expectAdmin400(await create(Array.from({ length: n }, () => fullItem(perItem))), 'items');
    // the largest accepted order: every item and option, names from a menu of 3-byte characters
    // at their maximum lengths; given by reference it fits the body limit. Served whole.
    const wide = (n: number) => '€'.repeat(n);
    const store = await (await stack.admin('POST', '/admin/v1/merchants', { name: 'Loja Grande' })).json();
    const optionIds = Array.from({ length: perItem }, (_, i) => `o${i}`);
    const menu = await stack.admin('PUT', `/admin/v1/merchants/${store.id}/menu`, {
      items: [
        {
          id: 'big',
          name: wide(TEXT.name),
          externalCode: wide(TEXT.code),
          price: { value: 10 },
          optionGroupIds: ['g'],
        },
      ],
      optionGroups: [
        {
          id: 'g',
          name: wide(TEXT.name),
          maxPermitted: perItem,
          options: optionIds.map((id) => ({
            id,
            name: wide(TEXT.name),
            externalCode: wide(TEXT.code),
            price: { value: 1 },
          })),
        },
      ],
    });
    expect(menu.status).toBe(200);
    let left = COUNT.orderOptions;
    const items = Array.from({ length: COUNT.orderItems }, () => {
      const take = Math.min(perItem, left);
      left -= take;
      return {
        itemId: 'big',
        specialInstructions: 'x'.repeat(TEXT.note),
        options: optionIds.slice(0, take).map((optionId) => ({ optionId })),
      };
    });
    const created = await stack.admin('POST', `/admin/v1/merchants/${store.id}/orders`, {
      type: 'DELIVERY',
      items,
    });
    expect(created.status, (await created.clone().text()).slice(0, 300)).toBe(201);
    const order = await created.json();
    const get = await stack.admin('GET', `/admin/v1/orders/${order.id}`);
    expect(get.status).toBe(200);
    const bytes = (await get.arrayBuffer()).byteLength;
    console.log(`limits-input: largest accepted order served whole, ${bytes} bytes`);
    expect(bytes).toBeLessThan(1024 * 1024);
  }, 60_000);

  it('strings over their limit: courier fields, store and credential names, cancellation code', async () => {
    const order = await createOrder(stack, merchantId);
    await expectAdmin400(
      await stack.admin('POST', `/admin/v1/orders/${order.id}/courier`, {
        eventType: 'COURIER_ASSIGNED',
        delivery: { courier: { name: 'x'.repeat(TEXT.name + 1) } },
      }),
      'delivery.courier.name',
    );
    await expectAdmin400(
      await stack.admin('PATCH', `/admin/v1/merchants/${merchantId}`, { name: 'x'.repeat(TEXT.name + 1) }),
      'name',
    );
    await expectAdmin400(
      await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
        name: 'x'.repeat(101),
        scopes: ['orders:read'],
        deliveryMode: 'POLLING',
      }),
      'name',
    );
    const r = await stack.api(`/v1/orders/${order.id}/requestCancellation`, {
      method: 'POST',
      headers: bearer(),
      body: JSON.stringify({ code: 'x'.repeat(TEXT.code + 1) }),
    });
    await expectValidationProblem(r, 'code');
  });

  it('bodies over their byte limit: 413 in the family form', async () => {
    const big = (n: number) => JSON.stringify({ name: 'Loja', description: 'x'.repeat(n) });
    const admin = await fetch(`${stack.gateway.adminUrl}/admin/v1/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.config.ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: big(BYTES.adminBody),
    });
    expect(admin.status).toBe(413);
    expect((await admin.json()).error).toBe('payload_too_large');
    const pub = await stack.api('/v1/events/acknowledgment', {
      method: 'POST',
      headers: bearer(),
      body: big(BYTES.publicBody),
    });
    expect(pub.status).toBe(413);
    expect((await pub.json()).title).toBe('Payload Too Large');
  });

  it('every service still answers', async () => {
    const h = await (await stack.admin('GET', '/admin/v1/health')).json();
    expect(h.services).toMatchObject({ auth: 'ok', catalog: 'ok', orders: 'ok', feed: 'ok' });
  });
});
