import { createAgent, guardedLookup } from '@od/egress';
import { type HttpsReceiver, startHttpsReceiver } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, sendWebhook } from './sender.ts';

const lookup = (allow: boolean, host: string, all: boolean) =>
  new Promise<{ err: Error | null; res: unknown }>((resolve) =>
    (guardedLookup(allow) as any)(host, { all }, (err: Error | null, a: unknown, f?: number) =>
      resolve({ err, res: all ? a : { address: a, family: f } }),
    ),
  );

describe('webhook sender', () => {
  let rx: HttpsReceiver;
  beforeAll(async () => {
    rx = await startHttpsReceiver();
  });
  afterAll(async () => {
    await rx?.close();
  });
  const send = (url: string, allow = true, timeoutMs = 2_000) =>
    sendWebhook({
      url,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
      timeoutMs,
      allowPrivateNetworks: allow,
    });

  it('guarded lookup answers both callback forms and refuses non-public answers', async () => {
    const one = await lookup(true, 'localhost', false);
    expect(one.err).toBeNull();
    expect(one.res).toMatchObject({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
    const all = await lookup(true, 'localhost', true);
    expect(Array.isArray(all.res)).toBe(true);
    const refused = await lookup(false, 'localhost', true);
    expect(refused.err?.message).toMatch(/refused \(no public address\)/);
  });

  it('2xx is success; 3xx, 4xx, 5xx are failures with the status recorded', async () => {
    for (const [status, ok] of [
      [200, true],
      [204, true],
      [299, true],
      [301, false],
      [404, false],
      [500, false],
    ] as const) {
      rx.respond({ status, headers: status === 301 ? { location: 'https://example.com/' } : {} });
      const r = await send(`${rx.url}/s`);
      expect(r.statusCode).toBe(status);
      expect(r.success).toBe(ok);
    }
    rx.respond({});
  });

  it('times out, refuses http://, refuses private addresses when not allowed', async () => {
    rx.respond({ delayMs: 1_500 });
    const t = await send(`${rx.url}/slow`, true, 300);
    expect(t).toMatchObject({ statusCode: null, success: false, error: 'timeout after 300 ms' });
    expect(t.durationMs).toBeGreaterThanOrEqual(290);
    rx.respond({});
    expect((await send(`http://127.0.0.1:${rx.port}/x`)).error).toBe('webhook URL must use https');
    expect((await send(`${rx.url}/x`, false)).error).toBe('host 127.0.0.1 refused (no public address)');
    expect((await send(`https://10.0.0.1/x`, false)).error).toMatch(/refused/);
  });

  it('a connection error shows the host and a fixed text, not the resolved address', async () => {
    const closed = await import('node:net').then(
      (net) =>
        new Promise<number>((resolve) => {
          const srv = net.createServer().listen(0, '127.0.0.1', () => {
            const { port } = srv.address() as { port: number };
            srv.close(() => resolve(port));
          });
        }),
    );
    const r = await send(`https://localhost:${closed}/x`);
    expect(r.error).toBe('ECONNREFUSED: connection refused (localhost)');
  });

  it('reads at most MAX_RESPONSE_BYTES of the answer and reuses connections', async () => {
    rx.respond({ body: 'x'.repeat(MAX_RESPONSE_BYTES * 4) });
    const r = await send(`${rx.url}/big`);
    expect(r.success).toBe(true);
    rx.respond({});
    const agent = createAgent(true, 4);
    try {
      for (let i = 0; i < 3; i++) {
        const x = await sendWebhook({
          url: `${rx.url}/ka`,
          headers: {},
          body: '{}',
          timeoutMs: 2_000,
          allowPrivateNetworks: true,
          agent,
        });
        expect(x.success).toBe(true);
      }
    } finally {
      agent.destroy();
    }
  });
});
