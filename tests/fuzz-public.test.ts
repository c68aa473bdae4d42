import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { ORDER_ACTIONS } from '@od/contracts';
import {
  createMerchant,
  createOrder,
  issueTestToken,
  requestToken,
  startStack,
  type TestStack,
} from '@od/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Property tests of the public surface: random and malformed paths, headers, query strings and
 * bodies on every public route. Every answer must be a documented status with a documented body
 * shape, never a 5xx, and a token of store A never receives an id of store B.
 * (Rate limiting is off here so that the properties explore past 600 calls; limits have their tests.)
 */
let stack: TestStack;
const A = { merchantId: '', token: '', orders: [] as string[], events: [] as string[] };
const B = { merchantId: '', token: '', orders: [] as string[], events: [] as string[] };
const statuses = new Map<number, number>();
let sent = 0;

async function pollIds(token: string): Promise<string[]> {
  const r = await stack.api('/v1/events:polling?limit=200', {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await r.json()) as { eventId: string }[]).map((e) => e.eventId);
}

beforeAll(async () => {
  stack = await startStack({
    services: ['auth', 'catalog', 'orders', 'feed'],
    env: { RATE_LIMIT_ENABLED: 'false' },
  });
  for (const s of [A, B]) {
    s.merchantId = (await createMerchant(stack)).merchantId;
    s.token = (await issueTestToken(stack, { merchantId: s.merchantId })).token;
  }
  // feed visibility needs a credential the feed knows: a real one through the admin API
  for (const s of [A, B]) {
    const c = await stack.admin('POST', `/admin/v1/merchants/${s.merchantId}/credentials`, {
      name: 'fuzz',
      scopes: ['orders:read', 'orders:write', 'merchant:read', 'catalog:read'],
      deliveryMode: 'POLLING',
    });
    const cred = await c.json();
    const t = await requestToken(stack, cred.clientId, cred.clientSecret);
    s.token = (await t.json()).access_token;
    for (let i = 0; i < 3; i++) s.orders.push((await createOrder(stack, s.merchantId)).id);
  }
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && (A.events.length < 3 || B.events.length < 3)) {
    A.events = await pollIds(A.token);
    B.events = await pollIds(B.token);
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(B.events.length).toBeGreaterThanOrEqual(3);
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  const counts = Object.fromEntries([...statuses.entries()].sort((a, b) => a[0] - b[0]));
  console.log(`fuzz-public: ${sent} requests sent, statuses ${JSON.stringify(counts)}`);
});

interface Req {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}
interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Raw HTTP (no URL normalisation by the client); undefined when node refuses to send it. */
function send(r: Req): Promise<Res | undefined> {
  const url = new URL(stack.gateway.publicUrl);
  return new Promise((resolve, reject) => {
    let req: ReturnType<typeof httpRequest>;
    try {
      req = httpRequest(
        { host: url.hostname, port: url.port, method: r.method, path: r.path, headers: r.headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
    } catch {
      resolve(undefined); // invalid path or header: the client itself refuses
      return;
    }
    req.on('error', (e) => reject(e));
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

const DOCUMENTED = new Set([200, 202, 400, 401, 403, 404, 409, 413, 415, 422, 429]);
const isToken = (path: string) => /^\/(v1\/)?oauth\/token(\?|$)/.test(path);

function check(r: Req, res: Res) {
  sent++;
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const where = `${r.method} ${r.path} -> ${res.status} ${res.text.slice(0, 200)}`;
  expect(res.status, where).toBeLessThan(500);
  expect(DOCUMENTED.has(res.status), where).toBe(true);
  for (const id of [B.merchantId, ...B.orders, ...B.events])
    expect(res.text.includes(id), `B id leaked: ${where}`).toBe(false);
  if (res.text === '') {
    expect(res.status === 401 && !isToken(r.path), `empty body: ${where}`).toBe(true);
    expect(String(res.headers['www-authenticate'] ?? ''), where).toMatch(/^Bearer/);
    return;
  }
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new Error(`not JSON: ${where}`);
  }
  if (res.status < 300) return;
  const keys = Object.keys(body).sort().join(',');
  const shapes = ['error,error_description', 'error,message', ...(res.status === 401 ? ['error'] : [])];
  if (shapes.includes(keys)) {
    expect(typeof body.error, where).toBe('string');
    return;
  }
  // ProblemDetails / ValidationProblemDetails
  expect(body, where).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status: res.status,
  });
  expect(typeof body.traceId, where).toBe('string');
  if (body.errors !== undefined) expect(res.status, where).toBe(400);
}

// ---- generators -------------------------------------------------------------------------------
const weird = fc.constantFrom(
  '',
  '%',
  '%00',
  '%zz',
  '..',
  '%2e%2e',
  '%2F',
  'null',
  'undefined',
  '[object Object]',
  '{}',
  'ç',
  '%C3%A7',
  '00000000-0000-0000-0000-000000000000',
  'a'.repeat(300),
  '-1',
  '1e309',
  '__proto__',
  'constructor',
);
const guidLike = fc.oneof(
  fc.constant('A'),
  fc.constant('B'),
  fc.uuid().map((u) => u as string),
  weird,
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
);
const resolveId = (v: string, kind: 'merchant' | 'order') =>
  v === 'A'
    ? kind === 'merchant'
      ? A.merchantId
      : A.orders[0]
    : v === 'B'
      ? kind === 'merchant'
        ? B.merchantId
        : B.orders[0]
      : v;

const route = fc.oneof(
  fc.constant({ method: 'POST', tpl: '/oauth/token' }),
  fc.constant({ method: 'POST', tpl: '/v1/oauth/token' }),
  fc.constant({ method: 'GET', tpl: '/v1/merchant/{m}' }),
  fc.constant({ method: 'GET', tpl: '/v1/merchant/{m}/menus' }),
  fc.constant({ method: 'GET', tpl: '/v1/orders/{o}' }),
  fc.constantFrom(...ORDER_ACTIONS).map((a) => ({ method: 'POST', tpl: `/v1/orders/{o}/${a}` })),
  fc.constant({ method: 'GET', tpl: '/v1/events:polling' }),
  fc.constant({ method: 'GET', tpl: '/v1/events/:polling' }),
  fc.constant({ method: 'POST', tpl: '/v1/events/acknowledgment' }),
  fc.constant({ method: 'GET', tpl: '/v1/orders' }),
  fc.constant({ method: 'GET', tpl: '/v1/events' }),
);
const method = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD') },
);
const query = fc.oneof(
  fc.constant(''),
  fc.integer({ min: -1000, max: 100_000 }).map((n) => `?limit=${n}`),
  fc.constantFrom(
    '?limit=',
    '?limit=abc',
    '?limit=1.5',
    '?limit=200',
    '?limit=201',
    '?limit=0',
    '?limit=1&limit=2',
    '?limit[]=1',
    '?__proto__=1',
    '?cursor=%zz',
    '?cursor=djF8eHx5',
    '?cursor=&limit=1',
    '?createdFrom=2026-01-01',
    '?createdFrom=x&createdTo=y',
    '?createdTo=1970-01-01T00:00:00Z',
    '?situation=PENDING_PAYMENT',
  ),
  fc
    .dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 16 }), { maxKeys: 4 })
    .map((d) => `?${new URLSearchParams(d).toString()}`),
);
const authHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constant('A') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'Bearer',
      'Bearer ',
      'Bearer a.b.c',
      'bearer xyz',
      'Basic Zm9vOmJhcg==',
      'Basic %%%',
      'Basic ',
      'Token abc',
      'Bearer eyJhbGciOiJub25lIn0.eyJtZXJjaGFudF9pZCI6IngifQ.',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);
const contentType = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/x-www-form-urlencoded',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/xml',
    'APPLICATION/JSON',
    'application/json; charset=latin1',
    '',
  ),
  fc.string({ maxLength: 30 }),
);
const body = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.json({ maxDepth: 3 }) },
  {
    weight: 2,
    arbitrary: fc.array(fc.record({ id: fc.oneof(fc.uuid(), fc.string(), fc.constant('B-event')) }), {
      maxLength: 5,
    }),
  }.arbitrary.map((a) => JSON.stringify(a)),
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        grant_type: fc.constantFrom('client_credentials', 'password', ''),
        client_id: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('odc_0123456789abcdef01234567')),
        client_secret: fc.string({ maxLength: 40 }),
      })
      .map((o) => new URLSearchParams(o).toString()),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ reason: fc.string({ maxLength: 600 }), code: fc.string() })
      .map((o) => JSON.stringify(o)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 4000, max: 80_000 }).map((n) => `{"x":"${'a'.repeat(n)}"}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('{', '[', '{"__proto__": {"x": 1}}', 'null', '""', '\u0000', '[{"id": null}]'),
  },
);
const idemKey = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 120, maxLength: 200 }) },
);

const request = fc.record({
  route,
  method,
  m: guidLike,
  o: guidLike,
  query,
  auth: authHeader,
  contentType,
  body,
  idemKey,
  requestId: fc.option(fc.string({ maxLength: 140 }), { nil: undefined }),
  origin: fc.option(fc.constantFrom('https://portal.test.local', 'https://evil.example'), { nil: undefined }),
});

function build(x: fc.Arbitrary<unknown> extends never ? never : any): Req {
  const path =
    x.route.tpl.replace('{m}', resolveId(x.m, 'merchant')).replace('{o}', resolveId(x.o, 'order')) + x.query;
  const headers: Record<string, string> = {};
  if (x.auth === 'A') headers.authorization = `Bearer ${A.token}`;
  else if (x.auth !== undefined) headers.authorization = x.auth;
  if (x.contentType !== undefined) headers['content-type'] = x.contentType;
  if (x.idemKey !== undefined) headers['idempotency-key'] = x.idemKey;
  if (x.requestId !== undefined) headers['x-request-id'] = x.requestId;
  if (x.origin !== undefined) headers.origin = x.origin;
  let b: string | undefined = x.body;
  if (typeof b === 'string' && b.includes('B-event')) b = b.replaceAll('B-event', B.events[0]);
  const m = x.method ?? x.route.method;
  if (m === 'GET' || m === 'HEAD') b = undefined;
  if (b !== undefined) headers['content-length'] = String(Buffer.byteLength(b));
  return { method: m, path, headers, body: b };
}

describe('fuzzing the public surface', () => {
  it('random requests on every public route: documented statuses and shapes, no 5xx, no store B ids', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (x) => {
        const r = build(x);
        const res = await send(r);
        if (!res) return;
        if (r.method === 'HEAD') {
          expect(res.status).toBeLessThan(500);
          return;
        }
        check(r, res);
      }),
      { numRuns: 700, endOnFailure: true },
    );
  }, 240_000);

  it('random raw paths: never a 5xx', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'v1',
        'orders',
        'merchant',
        'events',
        'oauth',
        'token',
        'menus',
        ':polling',
        'events:polling',
        'acknowledgment',
        'docs',
        'json',
      ),
      weird,
      fc.uuid(),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 0, maxLength: 6 }),
        fc.constantFrom('GET', 'POST'),
        fc.boolean(),
        async (segs, m, withAuth) => {
          const r: Req = {
            method: m,
            path: `/${segs.join('/')}`,
            headers: withAuth ? { authorization: `Bearer ${A.token}` } : {},
          };
          const res = await send(r);
          if (!res) return;
          if (r.path.startsWith('/docs')) {
            expect(res.status).toBeLessThan(500);
            return;
          }
          check(r, res);
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
  }, 120_000);

  it('store B stays invisible to store A through every read path', async () => {
    const auth = { authorization: `Bearer ${A.token}` };
    for (const p of [
      `/v1/merchant/${B.merchantId}`,
      `/v1/merchant/${B.merchantId}/menus`,
      ...B.orders.map((o) => `/v1/orders/${o}`),
      '/v1/events:polling?limit=200',
    ]) {
      const res = await send({ method: 'GET', path: p, headers: auth });
      check({ method: 'GET', path: p, headers: auth }, res!);
    }
    const ack = JSON.stringify(B.events.map((id) => ({ id })));
    const res = await send({
      method: 'POST',
      path: '/v1/events/acknowledgment',
      headers: { ...auth, 'content-type': 'application/json', 'content-length': String(ack.length) },
      body: ack,
    });
    expect(res!.status).toBe(202);
    expect(JSON.parse(res!.text)).toEqual({ acknowledged: 0 });
    expect((await pollIds(B.token)).length).toBe(B.events.length);
    expect(randomUUID()).not.toBe(B.merchantId);
  });
});
