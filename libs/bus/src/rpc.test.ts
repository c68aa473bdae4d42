import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { names, type OpSpec } from '@od/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadRpcKeys } from './caller.ts';
import { busCounters, callRpc, createRpcClient, RpcPayloadTooLargeError, serveOp } from './rpc.ts';

/** Issue 9 item 2: nothing raised while answering takes the process down (real NATS). */
describe('no reply can kill a process', () => {
  let nc: NatsConnection;
  const prefix = `bus${randomUUID().slice(0, 8).replace(/-/g, '')}`;
  const n = names(prefix);
  const keys = loadRpcKeys('orders');
  const op = {
    service: 'catalog',
    name: 'test.size',
    callers: ['orders'],
    body: z.object({ bytes: z.number().int() }),
  } as const satisfies OpSpec;
  /** the same body, answered in the public error form (ValidationProblemDetails) */
  const publicOp = { ...op, name: 'test.form', errorForm: 'problem' } as const satisfies OpSpec;
  /** the admin form with the op's own message */
  const namedOp = {
    ...op,
    name: 'test.named',
    invalidMessage: 'Tamanho inválido.',
  } as const satisfies OpSpec;
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });

  beforeAll(async () => {
    nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    serveOp(
      nc,
      n.rpc(op.service, op.name),
      op,
      (req) => ({ status: 200, body: 'x'.repeat(req.body.bytes) }),
      {
        queue: 'catalog',
        log,
        // the serving process is catalog: it verifies with its own keys (MAC pair orders -> catalog)
        keys: loadRpcKeys('catalog'),
      },
    );
    serveOp(nc, n.rpc(namedOp.service, namedOp.name), namedOp, () => ({ status: 204 }), {
      queue: 'catalog',
      log,
      keys: loadRpcKeys('catalog'),
    });
    serveOp(nc, n.rpc(publicOp.service, publicOp.name), publicOp, () => ({ status: 204 }), {
      queue: 'catalog',
      log,
      keys: loadRpcKeys('catalog'),
    });
    await nc.flush();
  });
  afterAll(async () => {
    await nc?.close();
  });

  const rpc = () => createRpcClient(nc, n, 'orders', keys);

  it('a 2 MB reply answers 500 "reply too large" with the traceId, logged once; the next request is served', async () => {
    const max = nc.info?.max_payload ?? 0;
    expect(max).toBeGreaterThan(0);
    const before = busCounters.replyTooLarge;
    const big = await rpc().call(op, { body: { bytes: 2 * 1024 * 1024 } }, { traceId: 'trace-big' });
    expect(big.status).toBe(500);
    const body = JSON.parse(Buffer.from(big.body).toString('utf8'));
    expect(body).toMatchObject({ title: 'Reply Too Large', status: 500, traceId: 'trace-big' });
    expect(body.detail).toContain(String(max));
    expect(busCounters.replyTooLarge).toBe(before + 1);
    expect(lines.filter((l) => l.traceId === 'trace-big')).toHaveLength(1);

    // just under the limit still travels whole, and the subscription keeps serving
    const fits = await rpc().call(op, { body: { bytes: max - 1024 } }, { traceId: 'trace-fits' });
    expect(fits.status).toBe(200);
    expect(fits.body.length).toBe(max - 1024);
    const next = await rpc().call(op, { body: { bytes: 3 } }, { traceId: 'trace-next' });
    expect(Buffer.from(next.body).toString()).toBe('xxx');
  });

  it('a request too large for the bus is refused before sending (no crash, no hang)', async () => {
    const huge = 'y'.repeat(2 * 1024 * 1024);
    await expect(
      callRpc(nc, n.rpc('catalog', op.name), { traceId: 't', body: huge }, 1000),
    ).rejects.toBeInstanceOf(RpcPayloadTooLargeError);
  });

  it('a body the op schema refuses is a 400 before the handler', async () => {
    const r = await rpc().call(
      op,
      { body: { bytes: 'many' as unknown as number } },
      { traceId: 'trace-400' },
    );
    expect(r.status).toBe(400);
    expect(JSON.parse(Buffer.from(r.body).toString()).errors).toHaveProperty('bytes');
  });

  it("the 400 takes the op's error form: admin `{ error, message, errors }` or ValidationProblemDetails", async () => {
    const bad = { body: { bytes: 'many' as unknown as number } };
    const admin = await rpc().call(op, bad, { traceId: 'trace-admin' });
    expect(JSON.parse(Buffer.from(admin.body).toString())).toEqual({
      error: 'validation_error',
      message: 'Requisição inválida.',
      errors: { bytes: [expect.any(String)] },
    });
    const named = await rpc().call(namedOp, bad, { traceId: 'trace-named' });
    expect(JSON.parse(Buffer.from(named.body).toString()).message).toBe('Tamanho inválido.');
    const problem = await rpc().call(publicOp, bad, { traceId: 'trace-problem' });
    expect(problem.status).toBe(400);
    const body = JSON.parse(Buffer.from(problem.body).toString());
    expect(body).toMatchObject({
      status: 400,
      traceId: 'trace-problem',
      errors: { bytes: [expect.any(String)] },
    });
    expect(body).not.toHaveProperty('error');
  });
});
