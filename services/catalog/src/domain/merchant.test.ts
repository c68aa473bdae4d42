import { merchantSchema } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import { adminMerchant, newStore, patchStore, publicMerchant, statusesAt, storeDay } from './merchant.ts';
import { sampleMerchant } from './sample.ts';

const IDS = { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', menuId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb' };
const T0 = '2026-01-01T10:00:00.000Z';
const T1 = '2026-01-02T10:00:00.000Z';

describe('store', () => {
  it('fills defaults: available, both services on the single menu, not a test store', () => {
    const s = newStore({ name: 'Loja' }, IDS, T0);
    expect(adminMerchant(s, new Date(T0))).toEqual({
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
      switchStatus: 'AVAILABLE',
      pausedUntil: null,
      pauseReason: null,
      timeZone: 'America/Sao_Paulo',
      serviceHours: null,
      confirmationTimeoutSeconds: 480,
      serviceSwitches: [
        { serviceType: 'DELIVERY', status: 'AVAILABLE', pausedUntil: null, pauseReason: null },
        { serviceType: 'TAKEOUT', status: 'AVAILABLE', pausedUntil: null, pauseReason: null },
      ],
      openNow: [
        { serviceType: 'DELIVERY', open: true },
        { serviceType: 'TAKEOUT', open: true },
      ],
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
    expect(p.services).toEqual([
      { serviceType: 'TAKEOUT', status: 'AVAILABLE', pausedUntil: null, pauseReason: null },
    ]);
    expect(p.description).toBe(s.description);
    expect(p.createdAt).toBe(T0);
    expect(p.lastUpdate).toBe(T1);
  });
});

describe("the store's day", () => {
  const at = (iso: string) => new Date(iso);
  it('a pause runs from the edit for its minutes, with its reason; null ends it', () => {
    const s = newStore({ name: 'Loja' }, IDS, T0);
    const p = patchStore(s, { pause: { minutes: 30, reason: 'Cozinha cheia' } }, T1);
    expect(p.pausedUntil).toBe('2026-01-02T10:30:00.000Z');
    expect(p.pauseReason).toBe('Cozinha cheia');
    expect(p.status).toBe('AVAILABLE');
    expect(patchStore(p, { pause: null }, T1)).toMatchObject({ pausedUntil: null, pauseReason: null });
    // other edits keep the pause
    expect(patchStore(p, { name: 'Outro' }, T1).pausedUntil).toBe(p.pausedUntil);
  });

  it('a service pause is kept when the services are given again without one', () => {
    const s = newStore({ name: 'Loja' }, IDS, T0);
    const p = patchStore(
      s,
      {
        services: [
          { serviceType: 'DELIVERY', pause: { minutes: 15, reason: 'Sem motoboy' } },
          { serviceType: 'TAKEOUT' },
        ],
      },
      T1,
    );
    expect(p.services[0]).toEqual({
      serviceType: 'DELIVERY',
      status: 'AVAILABLE',
      pausedUntil: '2026-01-02T10:15:00.000Z',
      pauseReason: 'Sem motoboy',
    });
    const q = patchStore(
      p,
      { services: [{ serviceType: 'DELIVERY', status: 'UNAVAILABLE' }, { serviceType: 'TAKEOUT' }] },
      T1,
    );
    expect(q.services[0]).toMatchObject({ status: 'UNAVAILABLE', pausedUntil: '2026-01-02T10:15:00.000Z' });
  });

  it('public statuses: a pause makes the store and its services UNAVAILABLE until it ends', () => {
    const s = patchStore(newStore({ name: 'Loja' }, IDS, T0), { pause: { minutes: 30, reason: 'x' } }, T1);
    expect(statusesAt(storeDay(s), at(T1))).toEqual({
      status: 'UNAVAILABLE',
      services: { DELIVERY: 'UNAVAILABLE', TAKEOUT: 'UNAVAILABLE' },
      until: Date.parse('2026-01-02T10:30:00.000Z'),
    });
    expect(statusesAt(storeDay(s), at('2026-01-02T10:30:00.000Z'))).toEqual({
      status: 'AVAILABLE',
      services: { DELIVERY: 'AVAILABLE', TAKEOUT: 'AVAILABLE' },
    });
    const closed = patchStore(s, { status: 'UNAVAILABLE', pause: null }, T1);
    expect(publicMerchant(closed, at(T1)).services.map((x) => x.status)).toEqual([
      'UNAVAILABLE',
      'UNAVAILABLE',
    ]);
  });

  it('GET merchant shows serviceHours in the standard shape, RFC 3339 times with the zone offset', () => {
    const s = newStore(
      {
        name: 'Loja',
        timeZone: 'America/Sao_Paulo',
        serviceHours: {
          weekHours: [{ dayOfWeek: ['FRIDAY'], timePeriods: { startTime: '18:00', endTime: '02:00' } }],
          holidayHours: [{ date: '2026-12-25' }],
        },
      },
      IDS,
      T0,
    );
    const m = publicMerchant(s, at(T0));
    expect(m.services[0].serviceHours).toEqual({
      id: IDS.id,
      weekHours: [
        { dayOfWeek: ['FRIDAY'], timePeriods: { startTime: '18:00:00-03:00', endTime: '02:00:00-03:00' } },
      ],
      holidayHours: [{ date: '2026-12-25' }],
    });
    const india = patchStore(s, { timeZone: 'Asia/Kolkata' }, T1);
    expect(publicMerchant(india, at(T1)).services[0].serviceHours?.weekHours[0].timePeriods.startTime).toBe(
      '18:00:00+05:30',
    );
    expect(publicMerchant(patchStore(s, { serviceHours: null }, T1), at(T1)).services[0]).not.toHaveProperty(
      'serviceHours',
    );
  });
});
