import { createLogger } from '@od/logger';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpsListener, startOps } from './ops.ts';

describe('ops listener', () => {
  let ops: OpsListener | undefined;
  afterEach(async () => ops?.close());
  const log = createLogger('test', 'silent');

  it('is off without a port', async () => {
    ops = await startOps({ name: 'x', host: '127.0.0.1', log });
    expect(ops.url).toBeUndefined();
  });

  it('answers livez, metrics, and readyz from its checks; not ready while draining', async () => {
    ops = await startOps({ name: 'x', port: 0, host: '127.0.0.1', log });
    let dbUp = false;
    ops.check('database', () => dbUp);
    ops.check('bus', async () => {
      throw new Error('no connection');
    });
    ops.check('slow', () => new Promise<boolean>(() => {}));
    expect((await fetch(`${ops.url}/livez`)).status).toBe(200);
    const metrics = await fetch(`${ops.url}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram/m);
    const notReady = await fetch(`${ops.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect((await notReady.json()).failed).toEqual({
      database: 'not ready',
      bus: 'no connection',
      slow: 'timed out',
    });
    ops.check('bus', () => true);
    ops.check('slow', () => true);
    dbUp = true;
    const ready = await fetch(`${ops.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    ops.drain();
    const draining = await fetch(`${ops.url}/readyz`);
    expect(draining.status).toBe(503);
    expect((await draining.json()).failed).toEqual({ draining: 'shutting down' });
    expect((await fetch(`${ops.url}/nope`)).status).toBe(404);
    expect((await fetch(`${ops.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});
