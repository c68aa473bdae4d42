import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { OrdersDeps } from '../deps.ts';
import { adminCreate } from './admin-create.ts';
import { adminEdit } from './admin-edit.ts';

/**
 * No RPC while an order row is locked: intake and edit ask the catalog for the merchant snapshot
 * before `writeOrder` takes its connection (and so before BEGIN and the row lock).
 */
function recordingDeps(steps: string[], merchantId: string): OrdersDeps {
  const pool = {
    // the unlocked read of the order's store (edit)
    query: async () => {
      steps.push('read');
      return { rows: [{ m: merchantId }] };
    },
    connect: async () => {
      steps.push('transaction');
      throw new Error('stop here: the order is what this test checks');
    },
  };
  const rpc = {
    callJson: async () => {
      steps.push('catalog');
      return { status: 200, body: { merchant: { id: merchantId, name: 'Loja' }, test: true, menu: null } };
    },
  };
  return { pool, rpc } as unknown as OrdersDeps;
}

const request = (params: Record<string, string>, body: unknown): never =>
  ({ traceId: randomUUID(), caller: { kind: 'admin' }, params, query: {}, body }) as never;

describe('the catalog snapshot is fetched before the transaction opens', () => {
  it('intake (admin.create)', async () => {
    const steps: string[] = [];
    const merchantId = randomUUID();
    const body = { type: 'TAKEOUT', items: [{ name: 'Café', unitPrice: 1, quantity: 1 }] };
    await expect(
      adminCreate(recordingDeps(steps, merchantId))(request({ merchantId }, body)),
    ).rejects.toThrow('stop here');
    expect(steps).toEqual(['catalog', 'transaction']);
  });

  it('an edit naming menu items (admin.edit)', async () => {
    const steps: string[] = [];
    const body = { items: [{ itemId: 'cafe', quantity: 1 }] };
    await expect(
      adminEdit(recordingDeps(steps, randomUUID()))(request({ orderId: randomUUID() }, body)),
    ).rejects.toThrow('stop here');
    expect(steps).toEqual(['read', 'catalog', 'transaction']);
  });
});
