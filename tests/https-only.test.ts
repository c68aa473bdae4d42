import { randomBytes } from 'node:crypto';
import { generateRpcKeyPair } from '@od/bus';
import { HSTS } from '@od/runtime';
import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * HTTPS only (SPEC, issue 17): in production the gateway's public listener and the panel send
 * Strict-Transport-Security; the admin listener and non-production stacks do not. The production
 * front doors run on the shared open test bus with keys of their own (no RPC is needed for these
 * answers). libs/config refuses an http:// public address in production (its unit tests).
 */
const production = (): Record<string, string> => {
  const k = generateRpcKeyPair();
  return {
    NODE_ENV: 'production',
    ADMIN_TOKEN: randomBytes(16).toString('hex'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    CLIENT_SECRET_KEY: randomBytes(32).toString('hex'),
    SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    RPC_SIGNING_KEY: k.signingKey,
    RPC_PUBLIC_KEYS: `gateway=${k.publicKey}`,
    NATS_USER: 'front',
    NATS_PASSWORD: randomBytes(16).toString('hex'),
    PUBLIC_BASE_URL: 'https://api.test.local',
    PANEL_PUBLIC_URL: 'https://panel.test.local',
  };
};

describe('HSTS in production', () => {
  let prod: TestStack;
  let dev: TestStack;
  beforeAll(async () => {
    prod = await startStack({
      services: ['auth'],
      panel: true,
      serviceEnv: { gateway: production(), panel: production() },
    });
    dev = await startStack({ services: ['auth'], panel: true });
  });
  afterAll(async () => {
    await prod?.stop();
    await dev?.stop();
  });

  it('the public listener sends Strict-Transport-Security on every answer, errors included', async () => {
    for (const path of ['/docs/json', '/v1/nope', '/v1/merchant']) {
      const res = await fetch(`${prod.gateway.publicUrl}${path}`);
      expect(res.headers.get('strict-transport-security'), path).toBe(HSTS);
    }
    expect(HSTS).toMatch(/^max-age=31536000; includeSubDomains$/);
  });

  it('the panel sends it on its page and its API', async () => {
    for (const path of ['/panel/', '/panel/api/session']) {
      const res = await fetch(`${prod.panel?.url}${path}`);
      expect(res.headers.get('strict-transport-security'), path).toBe(HSTS);
    }
  });

  it('not the admin listener (cluster-internal), not outside production', async () => {
    expect(
      (await fetch(`${prod.gateway.adminUrl}/admin/v1/health`)).headers.get('strict-transport-security'),
    ).toBeNull();
    expect(
      (await fetch(`${dev.gateway.publicUrl}/docs/json`)).headers.get('strict-transport-security'),
    ).toBeNull();
    expect((await fetch(`${dev.panel?.url}/panel/`)).headers.get('strict-transport-security')).toBeNull();
  });
});
