import { randomUUID } from 'node:crypto';
import { currentInfra } from '@od/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecipientCredential, type RecipientEvent, receives, recipientSql } from './recipients.ts';

const m = randomUUID();
const cred: RecipientCredential = {
  merchantId: m,
  status: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00.000Z',
  includeMarketplaceOrders: true,
  apiProfile: 'SPEC',
};
const ev: RecipientEvent = {
  merchantId: m,
  channel: 'APP',
  createdAt: '2026-01-01T00:00:00.001Z',
  eventType: 'CONFIRMED',
};
const od: RecipientCredential = { ...cred, apiProfile: 'OPEN_DELIVERY' };

/** One table of cases, checked against the TypeScript rule and the SQL rule alike. */
const CASES: [string, RecipientCredential, RecipientEvent, boolean][] = [
  ['same store, event after the credential', cred, ev, true],
  ['event at the very instant of creation', cred, { ...ev, createdAt: cred.createdAt }, true],
  ['event 1 ms before the credential', cred, { ...ev, createdAt: '2025-12-31T23:59:59.999Z' }, false],
  ['other store', cred, { ...ev, merchantId: randomUUID() }, false],
  ['store id in upper case on the credential', { ...cred, merchantId: m.toUpperCase() }, ev, true],
  ['store id in upper case on the event', cred, { ...ev, merchantId: m.toUpperCase() }, true],
  ['paused credential keeps accumulating', { ...cred, status: 'PAUSED' }, ev, true],
  ['revoked credential receives nothing', { ...cred, status: 'REVOKED' }, ev, false],
  ['marketplace event, flag on', cred, { ...ev, channel: 'MARKETPLACE' }, true],
  [
    'marketplace event, flag off',
    { ...cred, includeMarketplaceOrders: false },
    { ...ev, channel: 'MARKETPLACE' },
    false,
  ],
  ['other channel, flag off', { ...cred, includeMarketplaceOrders: false }, ev, true],
  ['time zones compared as instants', cred, { ...ev, createdAt: '2025-12-31T21:00:00.000-03:00' }, true],
  // the Open Delivery handshake types exist only for OPEN_DELIVERY credentials
  ['SPEC credential, CANCELLATION_REQUESTED', cred, { ...ev, eventType: 'CANCELLATION_REQUESTED' }, false],
  [
    'SPEC credential, CANCELLATION_REQUEST_DENIED',
    cred,
    { ...ev, eventType: 'CANCELLATION_REQUEST_DENIED' },
    false,
  ],
  [
    'SPEC credential, ORDER_CANCELLATION_REQUEST',
    cred,
    { ...ev, eventType: 'ORDER_CANCELLATION_REQUEST' },
    false,
  ],
  ['SPEC credential, CANCELLED_DENIED', cred, { ...ev, eventType: 'CANCELLED_DENIED' }, false],
  ['SPEC credential, CANCELLED (shared type)', cred, { ...ev, eventType: 'CANCELLED' }, true],
  ['SPEC credential, an extension (PREPARING)', cred, { ...ev, eventType: 'PREPARING' }, true],
  [
    'OPEN_DELIVERY credential, ORDER_CANCELLATION_REQUEST',
    od,
    { ...ev, eventType: 'ORDER_CANCELLATION_REQUEST' },
    true,
  ],
  ['OPEN_DELIVERY credential, CANCELLED_DENIED', od, { ...ev, eventType: 'CANCELLED_DENIED' }, true],
  ['OPEN_DELIVERY credential, CONFIRMED', od, ev, true],
  [
    'OPEN_DELIVERY credential, handshake type of another store',
    od,
    { ...ev, merchantId: randomUUID(), eventType: 'CANCELLATION_REQUESTED' },
    false,
  ],
];

describe('the recipient rule', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: currentInfra().databaseUrl });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  it.each(CASES)('%s (TypeScript)', (_, c, e, expected) => {
    expect(receives(c, e)).toBe(expected);
  });

  it.each(CASES)('%s (SQL, the same answer)', async (_, c, e, expected) => {
    const where = recipientSql({
      credential: {
        merchantId: '$1',
        status: '$2',
        createdAt: '$3',
        includeMarketplaceOrders: '$4',
        apiProfile: '$8',
      },
      event: { merchantId: '$5', channel: '$6', createdAt: '$7', eventType: '$9' },
    });
    const r = await client.query<{ ok: boolean }>(`SELECT (${where}) AS ok`, [
      c.merchantId,
      c.status,
      c.createdAt,
      c.includeMarketplaceOrders,
      e.merchantId,
      e.channel,
      e.createdAt,
      c.apiProfile,
      e.eventType,
    ]);
    expect(r.rows[0].ok).toBe(expected);
  });
});
