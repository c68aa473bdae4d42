import { randomUUID } from 'node:crypto';
import { type CredentialRecord, HANDSHAKE_EVENT_TYPES } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import { targetsFor } from './targets.ts';

const merchantId = randomUUID();
const base: CredentialRecord = {
  clientId: 'odc_000000000000000000000001',
  merchantId,
  name: 'pdv',
  scopes: ['orders:read'],
  status: 'ACTIVE',
  deliveryMode: 'WEBHOOK',
  webhookUrl: 'https://pdv.example/hook',
  includeMarketplaceOrders: false,
  apiProfile: 'SPEC',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const spec = base;
const od: CredentialRecord = {
  ...base,
  clientId: 'odc_000000000000000000000002',
  apiProfile: 'OPEN_DELIVERY',
};
const event = (eventType: string) => ({
  merchantId,
  channel: 'APP',
  createdAt: '2026-01-02T00:00:00.000Z',
  eventType,
});

describe('webhook targets follow the recipient rule, profile included', () => {
  it.each(HANDSHAKE_EVENT_TYPES)('%s: only the OPEN_DELIVERY credential gets a delivery', (type) => {
    expect(targetsFor(event(type), [spec, od]).map((t) => t.clientId)).toEqual([od.clientId]);
  });
  it('CANCELLED (shared with SPEC): both', () => {
    expect(targetsFor(event('CANCELLED'), [spec, od]).map((t) => t.clientId)).toEqual([
      spec.clientId,
      od.clientId,
    ]);
  });
});
