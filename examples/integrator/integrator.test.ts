import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createIntegrator } from './integrator.ts';

// What the reference adds to the SDK, against a scripted server: unknown event types and orders
// gone (404) are logged and acknowledged without reaching `handle`. The SDK's own rules are tested
// in libs/client; the run against the real stack is tests/feed-integration.test.ts.

let server: Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (s) await new Promise((r) => s.close(r));
});
const json = (res: ServerResponse, status: number, body?: unknown) => {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
};
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const envelope = (n: number, eventType: string, orderId: string) => ({
  eventId: id(n),
  eventType,
  orderId,
  orderURL: `http://x/v1/orders/${orderId}`,
  createdAt: new Date().toISOString(),
});

describe('reference integrator (on @od/client)', () => {
  it('handles known events, acknowledges unknown types and vanished orders without handling them', async () => {
    const pending = [
      envelope(1, 'CREATED', id(100)),
      envelope(2, 'SOMETHING_NEW', id(100)),
      envelope(3, 'CREATED', id(404)),
    ];
    const acked: string[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        if (req.url === '/oauth/token') return json(res, 200, { access_token: 't', expires_in: 3600 });
        if (req.url?.startsWith('/v1/events:polling'))
          return json(
            res,
            200,
            pending.filter((e) => !acked.includes(e.eventId)),
          );
        if (req.url === '/v1/events/acknowledgment') {
          const ids = (JSON.parse(body) as { id: string }[]).map((x) => x.id);
          acked.push(...ids);
          return json(res, 202, { acknowledged: ids.length });
        }
        if (req.url === `/v1/orders/${id(100)}`) return json(res, 200, { id: id(100) });
        json(res, 404, { error: 'order_not_found', message: 'x' });
      });
    });
    const s = server;
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const logs: string[] = [];
    const handled: string[] = [];
    const ac = new AbortController();
    const integrator = createIntegrator({
      baseUrl: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
      clientId: 'c',
      clientSecret: 's',
      idleMs: 10,
      log: (_level, msg) => logs.push(msg),
      handle: async (order, event) => {
        handled.push(`${(order as { id: string }).id}:${event.eventType}`);
      },
    });
    const run = integrator.run(ac.signal);
    for (let i = 0; i < 200 && acked.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    const stats = await run;
    expect(handled).toEqual([`${id(100)}:CREATED`]);
    expect(acked.sort()).toEqual([id(1), id(2), id(3)]);
    expect(stats.acknowledged).toBe(3);
    expect(logs).toContain('unknown eventType ignored (acknowledged)');
    expect(logs).toContain('order not found, event acknowledged');
  });
});
