import { loadConfig } from '@od/config';
import { ORDER_OPS, type Principal } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import { generateRpcKeyPair, loadRpcKeys, signContext, verifyRequest } from './caller.ts';

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
    expect(verifyRequest(orders.ring, ORDER_OPS.get, subject, s.payload, s.signature).ok).toBe(true);
    const dev = loadRpcKeys('gateway');
    const d = signContext(
      { name: 'gateway', privateKey: dev.privateKey },
      subject,
      { traceId: 't' },
      principal,
    );
    expect(verifyRequest(orders.ring, ORDER_OPS.get, subject, d.payload, d.signature)).toEqual({
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
    expect(verifyRequest(orders.ring, ORDER_OPS.get, subject, p.payload, p.signature)).toMatchObject({
      reason: 'unknown_signer',
    });
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
