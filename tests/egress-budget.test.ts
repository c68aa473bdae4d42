import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { outboundRequest } from '@od/egress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * @od/egress's byte budget (issue 22): the read stops at the first chunk past the budget and keeps at
 * most the budget; an answer announcing more is not read at all. The server counts what it managed
 * to write before the client cut it off.
 */
const MiB = 1024 * 1024;
const CERTS = path.resolve(import.meta.dirname, '../libs/testing/certs');

describe('egress byte budget while streaming', () => {
  let server: https.Server;
  let url: string;
  const written: Record<string, number> = {};
  beforeAll(async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    server = https.createServer(
      {
        cert: readFileSync(path.join(CERTS, 'server.pem')),
        key: readFileSync(path.join(CERTS, 'server-key.pem')),
      },
      (req, res) => {
        const id = req.url ?? '';
        written[id] = 0;
        // 256 MiB offered, chunked or announced
        res.writeHead(200, id.startsWith('/announced') ? { 'content-length': String(256 * MiB) } : {});
        let left = 4096;
        const pump = () => {
          while (left > 0 && !res.destroyed) {
            left--;
            written[id] += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        pump();
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const get = (p: string) =>
    outboundRequest({
      method: 'GET',
      url: url + p,
      headers: {},
      timeoutMs: 10_000,
      allowPrivateNetworks: true,
      maxResponseBytes: MiB,
      keepBody: true,
    });

  it('a chunked flood is cut just past 1 MiB: the body kept is never larger than the budget', async () => {
    const r = await get('/chunked');
    expect(r).toMatchObject({ statusCode: 200, truncated: true, error: null });
    expect(r.body.length).toBe(0);
    await new Promise((res) => setTimeout(res, 300));
    // what the server pushed before the cut: the budget plus socket and TLS buffers, not 256 MiB
    expect(written['/chunked']).toBeLessThan(4 * MiB);
  });

  it('an answer announcing more than the budget is not read', async () => {
    const r = await get('/announced');
    expect(r).toMatchObject({ statusCode: 200, truncated: true, error: null });
    await new Promise((res) => setTimeout(res, 300));
    expect(written['/announced']).toBeLessThan(8 * MiB);
  });

  it('an answer within the budget is kept whole', async () => {
    server.removeAllListeners('request');
    server.on('request', (_req, res) => res.end(Buffer.alloc(MiB, 'y')));
    const r = await get('/fits');
    expect(r).toMatchObject({ statusCode: 200, truncated: false, error: null });
    expect(r.body.length).toBe(MiB);
  });
});
