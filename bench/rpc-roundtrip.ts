// `npx tsx bench/rpc-roundtrip.ts [--seconds 3] [--rounds 4] [--concurrency 20]`
// CPU µs per request/reply of the two ways a client waits for replies, in one process against one
// served op (the serving side is the same for both): nats.js `request()` and the bus's reply mux
// (libs/bus/src/reply-mux.ts). Alternated over rounds so both see the same machine; a nats-server of
// its own on a spare port. The figure is the client + server process CPU (one process) per request.
import { connect, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { loadRpcKeys, serveOp, signContext } from '@od/bus';
import { names, ORDER_OPS, type Principal, SIGNATURE_HEADER, STATUS_HEADER } from '@od/contracts';
import { Command } from 'commander';
import { pino } from 'pino';
import { replyMux } from '../libs/bus/src/reply-mux.ts';
import { ownNats } from '../scripts/chaos/servers.ts';

const o = new Command('bench:rpc-roundtrip')
  .option('--seconds <s>', 'seconds per figure', '3')
  .option('--rounds <n>', 'rounds (each: both ways)', '4')
  .option('--concurrency <n>', 'requests in flight', '20')
  .parse()
  .opts<{ seconds: string; rounds: string; concurrency: string }>();

const server = await ownNats();
const n = names('rtt');
const subject = n.rpc('orders', ORDER_OPS.get.name);
const body = Buffer.from(JSON.stringify({ id: 'x'.repeat(36), pad: 'y'.repeat(1500) }));
let nc: NatsConnection | undefined;
try {
  nc = await connect({ servers: server.url, noAsyncTraces: true, inboxPrefix: '_INBOX.gateway' });
  serveOp(nc, subject, ORDER_OPS.get, async () => ({ status: 200, body }), {
    queue: 'orders',
    log: pino({ level: 'warn' }),
    keys: loadRpcKeys('orders'),
  });
  await nc.flush();
  const gw = loadRpcKeys('gateway');
  const principal: Principal = {
    kind: 'credential',
    clientId: 'odc_0123456789abcdef01234567',
    merchantId: '0b1c6a52-7f0e-4f7b-9d7e-3c1b2a4d5e6f',
    scopes: ['orders:read'],
  };
  const signed = () => {
    const s = signContext(
      { name: 'gateway', privateKey: gw.privateKey, mac: gw.mac },
      subject,
      { traceId: 't', params: { orderId: '9a8b7c6d-1111-2222-3333-444455556666' } },
      principal,
      { verifier: 'orders' },
    );
    const h = natsHeaders();
    h.set(SIGNATURE_HEADER, s.signature);
    return { payload: s.payload, h };
  };
  const c = nc;
  const ways = {
    'nats.js request': () => {
      const s = signed();
      return c.request(subject, s.payload, { timeout: 5000, headers: s.h });
    },
    'reply mux': () => {
      const s = signed();
      return replyMux(c).request(subject, s.payload, s.h, 5000);
    },
  };
  for (const [name, call] of Object.entries(ways)) {
    const status = (await call()).headers?.get(STATUS_HEADER);
    if (status !== '200') throw new Error(`${name}: the op answered ${status}, not 200`);
  }
  const results: Record<string, number[]> = {};
  for (let round = 0; round < Number(o.rounds); round++)
    for (const [name, call] of Object.entries(ways)) {
      let done = 0;
      const until = performance.now() + 1000 * Number(o.seconds);
      const c0 = process.cpuUsage();
      const worker = async () => {
        while (performance.now() < until) {
          await call();
          done++;
        }
      };
      await Promise.all(Array.from({ length: Number(o.concurrency) }, worker));
      const cu = process.cpuUsage(c0);
      const us = (cu.user + cu.system) / done;
      (results[name] ??= []).push(us);
      console.log(`round ${round + 1} ${name.padEnd(16)} ${us.toFixed(1)} µs CPU/request (${done} requests)`);
    }
  for (const [name, v] of Object.entries(results))
    console.log(
      `${name.padEnd(16)} min ${Math.min(...v).toFixed(1)} median ${v.sort((a, b) => a - b)[v.length >> 1].toFixed(1)} µs CPU/request`,
    );
} finally {
  await nc?.close();
  await server.destroy();
}
