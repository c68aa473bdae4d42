import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { loadConfig } from '@od/config';
import { ORDER_OPS, type Principal } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import {
  generateRpcKeyPair,
  loadRpcKeys,
  privateKeyFromSeed,
  signContext,
  verifyRequest,
  x25519PublicOf,
} from './caller.ts';

const principal: Principal = { kind: 'credential', clientId: 'odc_x', merchantId: 'm', scopes: [] };
const subject = 'od.rpc.orders.get';

describe('rpc keys from the environment', () => {
  it('a generated pair in RPC_SIGNING_KEY / RPC_PUBLIC_KEYS signs and verifies; development keys do not verify against it', () => {
    const gw = generateRpcKeyPair();
    const env = { RPC_SIGNING_KEY: gw.signingKey, RPC_PUBLIC_KEYS: `gateway=${gw.publicKey}` };
    const gateway = loadRpcKeys('gateway', env);
    const orders = loadRpcKeys('orders', { RPC_PUBLIC_KEYS: env.RPC_PUBLIC_KEYS });
    const s = signContext(
      { name: 'gateway', privateKey: gateway.privateKey },
      subject,
      { traceId: 't' },
      principal,
    );
    expect(verifyRequest(orders, ORDER_OPS.get, subject, s.payload, s.signature).ok).toBe(true);
    const dev = loadRpcKeys('gateway');
    const d = signContext(
      { name: 'gateway', privateKey: dev.privateKey },
      subject,
      { traceId: 't' },
      principal,
    );
    expect(verifyRequest(orders, ORDER_OPS.get, subject, d.payload, d.signature)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    // a signer missing from the ring is unknown
    const p = signContext(
      { name: 'panel', privateKey: dev.privateKey },
      subject,
      { traceId: 't' },
      principal,
    );
    expect(verifyRequest(orders, ORDER_OPS.get, subject, p.payload, p.signature)).toMatchObject({
      reason: 'unknown_signer',
    });
  });

  it('the Ed25519 -> X25519 map gives the X25519 public key of the same secret (pair keys agree)', () => {
    for (let i = 0; i < 20; i++) {
      const { signingKey } = generateRpcKeyPair();
      const seed = Buffer.from(signingKey, 'base64url');
      const ed = createPublicKey(privateKeyFromSeed(seed));
      const x = x25519PublicOf(ed).export({ format: 'der', type: 'spki' });
      // the X25519 key of the seed's hashed scalar, computed by OpenSSL
      const scalar = createHash('sha512').update(seed).digest().subarray(0, 32);
      const priv = createPrivateKey({
        key: Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), scalar]),
        format: 'der',
        type: 'pkcs8',
      });
      expect(x.equals(createPublicKey(priv).export({ format: 'der', type: 'spki' }) as Buffer)).toBe(true);
    }
  });

  it('a MAC proof verifies only at the verifier it was made for, and only from that signer', () => {
    const pairs = Object.fromEntries(
      (['gateway', 'orders', 'catalog', 'webhook'] as const).map((n) => [n, generateRpcKeyPair()]),
    );
    const ring = Object.entries(pairs)
      .map(([n, k]) => `${n}=${k.publicKey}`)
      .join(',');
    const keys = (n: 'gateway' | 'orders' | 'catalog' | 'webhook') =>
      loadRpcKeys(n, { RPC_SIGNING_KEY: pairs[n].signingKey, RPC_PUBLIC_KEYS: ring });
    const [gateway, orders, catalog, webhook] = [
      keys('gateway'),
      keys('orders'),
      keys('catalog'),
      keys('webhook'),
    ];
    const signer = { name: 'gateway' as const, privateKey: gateway.privateKey, mac: gateway.mac };
    const s = signContext(signer, subject, { traceId: 't' }, principal, { verifier: 'orders' });
    expect(s.signature).toMatch(/^mac\.gateway\./);
    expect(verifyRequest(orders, ORDER_OPS.get, subject, s.payload, s.signature)).toMatchObject({ ok: true });
    // another verifier does not hold that pair's key
    expect(verifyRequest(catalog, ORDER_OPS.get, subject, s.payload, s.signature)).toMatchObject({
      reason: 'bad_signature',
    });
    // a tampered payload
    const t = Buffer.from(s.payload);
    t[t.length - 3] ^= 1;
    expect(verifyRequest(orders, ORDER_OPS.get, subject, t, s.signature)).toMatchObject({
      reason: 'bad_signature',
    });
    // webhook, holding its own pair keys, cannot speak as the gateway toward orders
    const forged = signContext(
      { name: 'gateway', privateKey: webhook.privateKey, mac: { to: webhook.mac.from } },
      subject,
      { traceId: 't' },
      principal,
      { verifier: 'gateway' },
    );
    expect(
      verifyRequest(
        orders,
        ORDER_OPS.get,
        subject,
        forged.payload,
        forged.signature.replace('mac.gateway', 'mac.gateway'),
      ),
    ).toMatchObject({ ok: false });
    // the Ed25519 signature still verifies (a signer that does not know the verifier)
    const e = signContext(signer, subject, { traceId: 't' }, principal);
    expect(verifyRequest(orders, ORDER_OPS.get, subject, e.payload, e.signature)).toMatchObject({ ok: true });
  });

  it('malformed keys are refused at start', () => {
    expect(() => loadRpcKeys('gateway', { RPC_SIGNING_KEY: 'change-me' })).toThrow(/32 bytes/);
    expect(() => loadRpcKeys('gateway', { RPC_PUBLIC_KEYS: 'intruder=abc' })).toThrow(/bad entry/);
  });

  it('production refuses to start without real keys; development warns and derives them', () => {
    const base = {
      NODE_ENV: 'production',
      ADMIN_TOKEN: 'a'.repeat(32),
      JWT_SECRET: 'b'.repeat(40),
      // the other production keys and the bus identity (libs/config)
      CLIENT_SECRET_KEY: 'c'.repeat(40),
      SECRETS_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
      NATS_USER: 'gateway',
      NATS_PASSWORD: 'p'.repeat(24),
      PUBLIC_BASE_URL: 'https://api.example.com',
      PANEL_PUBLIC_URL: 'https://panel.example.com',
    };
    expect(() => loadConfig(base, () => {})).toThrow(/RPC_SIGNING_KEY, RPC_PUBLIC_KEYS/);
    const k = generateRpcKeyPair();
    expect(() =>
      loadConfig(
        { ...base, RPC_SIGNING_KEY: k.signingKey, RPC_PUBLIC_KEYS: `gateway=${k.publicKey}` },
        () => {},
      ),
    ).not.toThrow();
    const warnings: string[] = [];
    loadConfig({}, (m) => warnings.push(m));
    expect(warnings.join('\n')).toContain('RPC_SIGNING_KEY not set');
  });
});
