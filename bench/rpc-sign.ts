/**
 * Microbench of the bus layer's per-request work (no I/O): signing a caller context (gateway),
 * verifying it (service), and the zod parse `serve` does on the hot ops. `tsx bench/rpc-sign.ts`
 */
import { loadRpcKeys, signContext, verifyRequest } from '@od/bus';
import { FEED_OPS, names, ORDER_OPS, type Principal } from '@od/contracts';

const n = names('od');
const gw = { name: 'gateway' as const, privateKey: loadRpcKeys('gateway').privateKey };
const { ring } = loadRpcKeys('orders');
const principal: Principal = {
  kind: 'credential',
  clientId: 'odc_0123456789abcdef01234567',
  merchantId: '0b1c6a52-7f0e-4f7b-9d7e-3c1b2a4d5e6f',
  scopes: ['orders:read', 'orders:write'],
};
const subject = n.rpc('orders', ORDER_OPS.get.name);
const req = {
  traceId: '5f2b1c3d-aaaa-bbbb-cccc-123456789abc',
  params: { orderId: '9a8b7c6d-1111-2222-3333-444455556666' },
};

function time(label: string, iterations: number, fn: () => unknown) {
  for (let i = 0; i < 1000; i++) fn();
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let i = 0; i < iterations; i++) fn();
  const c = process.cpuUsage(c0);
  const wall = Number(process.hrtime.bigint() - t0) / 1e3 / iterations;
  // CPU time is the figure to compare on a shared machine (wall time includes waiting for a core)
  const cpu = (c.user + c.system) / iterations;
  console.log(
    `${label.padEnd(44)} cpu ${cpu.toFixed(2).padStart(8)} µs/op   wall ${wall.toFixed(2).padStart(8)} µs/op`,
  );
}

const gwKeys = loadRpcKeys('gateway');
const ordersKeys = loadRpcKeys('orders');
const gwMac = { ...gw, mac: gwKeys.mac };
const macSigned = signContext(gwMac, subject, req, principal, { verifier: 'orders' });
time('MAC proof (gateway, small request)', 20_000, () =>
  signContext(gwMac, subject, req, principal, { verifier: 'orders' }),
);
time('MAC check (service, small request)', 20_000, () =>
  verifyRequest(ordersKeys, ORDER_OPS.get, subject, macSigned.payload, macSigned.signature),
);
const signed = signContext(gw, subject, req, principal);
time('sign (gateway, small request)', 20_000, () => signContext(gw, subject, req, principal));
time('verify (service, small request)', 20_000, () =>
  verifyRequest({ ring }, ORDER_OPS.get, subject, signed.payload, signed.signature),
);
const ackBody = Array.from({ length: 1000 }, (_, i) => ({
  id: `9a8b7c6d-1111-2222-3333-${String(i).padStart(12, '0')}`,
}));
const ackSubject = n.rpc('feed', FEED_OPS.ack.name);
const big = signContext(gw, ackSubject, { traceId: 't', body: ackBody }, principal);
time(`sign (1000-entry ack, ${big.payload.length} B)`, 2_000, () =>
  signContext(gw, ackSubject, { traceId: 't', body: ackBody }, principal),
);
time(`verify (1000-entry ack, ${big.payload.length} B)`, 2_000, () =>
  verifyRequest({ ring }, FEED_OPS.ack, ackSubject, big.payload, big.signature),
);
time('zod parse orders.get params', 200_000, () => ORDER_OPS.get.params.parse(req.params));
time('zod parse feed.poll query', 200_000, () => FEED_OPS.poll.query.parse({ limit: 100 }));
time('JSON.parse of the small request (baseline)', 200_000, () =>
  JSON.parse(Buffer.from(signed.payload).toString()),
);
