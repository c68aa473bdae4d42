import { merchantSchema } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import { adminMerchant, newStore, patchStore, publicMerchant } from './merchant.ts';
import { sampleMerchant } from './sample.ts';

const IDS = { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', menuId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb' };
const T0 = '2026-01-01T10:00:00.000Z';
const T1 = '2026-01-02T10:00:00.000Z';

describe('store', () => {
  it('fills defaults: available, both services on the single menu, not a test store', () => {
    const s = newStore({ name: 'Loja' }, IDS, T0);
    expect(adminMerchant(s)).toEqual({
      id: IDS.id,
      name: 'Loja',
      description: '',
      document: '',
      status: 'AVAILABLE',
      contactEmails: [],
      contactPhones: [],
      address: {
        country: 'BR',
        state: '',
        city: '',
        district: '',
        street: '',
        number: '',
        postalCode: '',
        complement: null,
        latitude: 0,
        longitude: 0,
      },
      services: [
        { serviceType: 'DELIVERY', status: 'AVAILABLE', menuId: IDS.menuId },
        { serviceType: 'TAKEOUT', status: 'AVAILABLE', menuId: IDS.menuId },
      ],
      createdAt: T0,
      lastUpdate: T0,
      test: false,
    });
  });

  it('public shape has exactly SPEC fields (no test flag)', () => {
    const m = publicMerchant(newStore({ ...sampleMerchant(), test: true }, IDS, T0));
    expect(merchantSchema.strict().safeParse(m).success).toBe(true);
    expect('test' in m).toBe(false);
  });

  it('patch changes only given fields, merges the address and bumps lastUpdate', () => {
    const s = newStore(sampleMerchant(), IDS, T0);
    const p = patchStore(
      s,
      { name: 'Outro', address: { number: '42' }, services: [{ serviceType: 'TAKEOUT' }], test: true },
      T1,
    );
    expect(p.name).toBe('Outro');
    expect(p.test).toBe(true);
    expect(p.address).toEqual({ ...s.address, number: '42' });
    expect(p.services).toEqual([{ serviceType: 'TAKEOUT', status: 'AVAILABLE' }]);
    expect(p.description).toBe(s.description);
    expect(p.createdAt).toBe(T0);
    expect(p.lastUpdate).toBe(T1);
  });
});
