import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { type MerchantSnapshot, orderIntakeSchema } from '@od/contracts';
import { toOdOrder } from '@od/opendelivery';
import { type ContractValidator, contractValidator, type Exchange } from '@od/opendelivery/contract';
import { OD_SPEC_PATH } from '@od/opendelivery/validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOrder } from '../services/orders/src/domain/build.ts';

// The validator of the contract tests catches drift: the same exchanges pass as served and fail
// once a field is renamed, a status is undocumented or a header is missing.

const DOC = path.resolve(import.meta.dirname, '../docs/openapi.json');
const bearer = { authorization: 'Bearer x' };
const json = { 'content-type': 'application/json; charset=utf-8' };
const order = buildOrder(
  orderIntakeSchema.parse({
    type: 'DELIVERY',
    items: [{ name: 'Pizza', unitPrice: 40, options: [{ id: 'borda', name: 'Borda', unitPrice: 5 }] }],
  }),
  { merchant: { id: randomUUID(), name: 'Loja' }, test: false, menu: null } as MerchantSnapshot,
  { id: randomUUID(), displayId: '42', now: new Date('2026-11-22T12:00:00Z') },
).order;
const ex = (over: Partial<Exchange>): Exchange => ({
  method: 'GET',
  url: `/v1/orders/${order.id}`,
  requestHeaders: bearer,
  status: 200,
  responseHeaders: json,
  responseBody: JSON.stringify(order),
  ...over,
});
const confirm = (body: unknown, status = 202, headers: Record<string, string> = json): Exchange =>
  ex({
    method: 'POST',
    url: `/v1/orders/${order.id}/confirm`,
    status,
    responseHeaders: headers,
    responseBody: JSON.stringify(body),
  });

let spec: ContractValidator;
let od: ContractValidator;
beforeAll(async () => {
  [spec, od] = await Promise.all([contractValidator(DOC), contractValidator(OD_SPEC_PATH)]);
});

describe('contract validator against docs/openapi.json', () => {
  it('accepts the served shapes', () => {
    expect(spec.check(ex({}))).toEqual([]);
    expect(spec.check(confirm({ status: 'accepted', situation: 'ACCEPTED' }))).toEqual([]);
    const unavailable = { error: 'service_unavailable', message: 'x', traceId: 't' };
    expect(spec.check(confirm(unavailable, 503, { ...json, 'retry-after': '1' }))).toEqual([]);
    const limited = { error: 'rate_limit_exceeded', message: 'x' };
    expect(spec.check(confirm(limited, 429, { ...json, 'retry-after': '60' }))).toEqual([]);
    const empty401 = ex({
      status: 401,
      responseHeaders: { 'www-authenticate': 'Bearer realm="opendelivery"' },
      responseBody: '',
    });
    expect(spec.check(empty401)).toEqual([]);
  });

  it('fails when a field is renamed, a status is undocumented or Retry-After is missing', () => {
    const { total, ...rest } = order;
    const renamed = { ...rest, total: { ...total, itemsPrice: total.items, items: undefined } };
    expect(spec.check(ex({ responseBody: JSON.stringify(renamed) })).length).toBeGreaterThan(0);
    expect(
      spec.check(
        ex({ responseBody: JSON.stringify({ ...order, displayID: order.displayId, displayId: undefined }) }),
      ).length,
    ).toBeGreaterThan(0);
    expect(spec.check(confirm({ status: 'accepted', situacao: 'ACCEPTED' })).length).toBeGreaterThan(0);
    expect(spec.check(confirm({ status: 'accepted', situation: 'ACCEPTED' }, 200)).length).toBeGreaterThan(0);
    const unavailable = { error: 'service_unavailable', message: 'x', traceId: 't' };
    expect(spec.check(confirm(unavailable, 503)).join()).toContain('retry-after');
    expect(
      spec.check(confirm({ ...unavailable, error: 'internal_error' }, 503, { ...json, 'retry-after': '1' }))
        .length,
    ).toBeGreaterThan(0);
    expect(spec.check(ex({ url: '/v1/nothing' })).join()).toContain('no such operation');
    // an empty 200 where the document promises an Order; a 401 without WWW-Authenticate and body
    expect(spec.check(ex({ responseBody: '' })).join()).toContain('empty body');
    expect(spec.check(ex({ status: 401, responseHeaders: {}, responseBody: '' })).length).toBeGreaterThan(0);
  });
});

describe('contract validator against the official Open Delivery 1.4.0 document', () => {
  const rendered = toOdOrder(
    { ...order, lastEvent: 'CREATED', salesChannel: 'APP' },
    {
      appId: '3f6c2a1e-8b4d-4f7a-9c2e-5d1b7a9e0c41',
    },
  );
  it('accepts the standard Order and the empty 202', () => {
    expect(od.check(ex({ responseBody: JSON.stringify(rendered) }))).toEqual([]);
    expect(
      od.check(
        ex({
          method: 'POST',
          url: '/v1/events/acknowledgment',
          status: 202,
          responseBody: '',
          requestHeaders: { ...bearer, 'content-type': 'application/json' },
          requestBody: '[]',
        }),
      ),
    ).toEqual([]);
  });
  it('fails on a renamed field, a non-UUID option id, a body on the standard 202', () => {
    const { displayId, ...noDisplayId } = rendered;
    expect(
      od.check(ex({ responseBody: JSON.stringify({ ...noDisplayId, displayID: displayId }) })).length,
    ).toBeGreaterThan(0);
    const item = rendered.items[0];
    const badOption = { ...rendered, items: [{ ...item, options: [{ ...item.options[0], id: 'borda' }] }] };
    expect(od.check(ex({ responseBody: JSON.stringify(badOption) })).join()).toContain('uuid');
    expect(od.check(ex({ responseBody: JSON.stringify(order) })).length).toBeGreaterThan(0);
    const ack = ex({
      method: 'POST',
      url: '/v1/events/acknowledgment',
      status: 202,
      responseBody: '{"acknowledged":1}',
      requestHeaders: { ...bearer, 'content-type': 'application/json' },
      requestBody: '[]',
    });
    expect(od.check(ack).join()).toContain('declares none');
  });
});
