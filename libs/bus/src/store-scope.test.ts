import { type OpSpec, PANEL_AREAS, type Principal, RPC } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import { credentialRefusal, merchantUserRefusal } from './store-scope.ts';

const STORE = '6f1b7a2e-0000-4000-8000-000000000001';
const OTHER = '6f1b7a2e-0000-4000-8000-000000000002';
const op: OpSpec = { service: 'auth', name: 'x', callers: ['merchantUser'], area: 'credentials' };
const user = (scopes: string[] = [...PANEL_AREAS]): Extract<Principal, { kind: 'merchantUser' }> => ({
  kind: 'merchantUser',
  userId: 'u',
  merchantId: STORE.toUpperCase(),
  scopes,
});
const owners: Record<string, string> = { odc_mine: STORE, odc_theirs: OTHER };
const resolvers = { clientId: async (id: string) => owners[id] ?? null };
const refusal = (o: OpSpec, p: unknown, b: unknown, u = user(), r = resolvers) =>
  merchantUserRefusal(o, u, { params: p, body: b }, r, 't').then((e) => e?.status ?? null);

describe('merchant-user store scope', () => {
  it('lets through what names only the user store (ids compared case-insensitively)', async () => {
    expect(await refusal(op, { merchantId: STORE }, undefined)).toBeNull();
    expect(
      await refusal(op, undefined, { clientId: 'odc_mine', body: { merchantId: 'ignored' } }),
    ).toBeNull();
    expect(await refusal(op, undefined, undefined)).toBeNull();
  });
  it('answers 404 for another store, an unknown id, or one of two ids outside the store', async () => {
    expect(await refusal(op, { merchantId: OTHER }, undefined)).toBe(404);
    expect(await refusal(op, undefined, { clientId: 'odc_theirs' })).toBe(404);
    expect(await refusal(op, undefined, { clientId: 'odc_unknown' })).toBe(404);
    expect(await refusal(op, { merchantId: STORE }, { clientId: 'odc_theirs' })).toBe(404);
  });
  it('answers 403 outside the role areas, for an op without an area, and for an id it cannot resolve', async () => {
    expect(await refusal(op, { merchantId: STORE }, undefined, user(['orders']))).toBe(403);
    expect(await refusal({ ...op, area: undefined }, { merchantId: STORE }, undefined)).toBe(403);
    expect(await refusal(op, { orderId: 'o1' }, undefined)).toBe(403);
  });
  it('every op a merchant user may call names its panel area', () => {
    const ops = Object.values(RPC).flatMap((c) => Object.values(c) as OpSpec[]);
    const forUsers = ops.filter((o) => o.callers !== 'any' && o.callers.includes('merchantUser'));
    expect(forUsers.length).toBeGreaterThan(10);
    expect(forUsers.filter((o) => !o.area).map((o) => `${o.service}.${o.name}`)).toEqual([]);
  });
});

describe('credential scope at the serving service', () => {
  const cred = (scopes: string[]): Extract<Principal, { kind: 'credential' }> => ({
    kind: 'credential',
    clientId: 'odc_x',
    merchantId: STORE,
    scopes,
  });
  const write: OpSpec = { service: 'catalog', name: 'w', callers: ['credential'], scope: 'merchant:write' };
  it('lets through a principal holding the op scope', () => {
    expect(credentialRefusal(write, cred(['merchant:read', 'merchant:write']), 't')).toBeNull();
  });
  it('answers 403 insufficient_scope to read scopes, and 403 for an op that declares no scope', () => {
    const r = credentialRefusal(write, cred(['merchant:read', 'catalog:read', 'orders:write']), 't');
    expect(r?.status).toBe(403);
    expect(r?.body).toMatchObject({ error: 'insufficient_scope' });
    expect(credentialRefusal({ ...write, scope: undefined }, cred(['merchant:write']), 't')?.status).toBe(
      403,
    );
  });
  it('every op a credential may call declares its scope', () => {
    const ops = Object.values(RPC).flatMap((c) => Object.values(c) as OpSpec[]);
    const forCredentials = ops.filter((o) => o.callers !== 'any' && o.callers.includes('credential'));
    expect(forCredentials.length).toBeGreaterThan(8);
    expect(forCredentials.filter((o) => !o.scope).map((o) => `${o.service}.${o.name}`)).toEqual([]);
  });
});
