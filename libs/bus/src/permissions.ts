import { INTERNAL_OPS, names, type ServiceName } from '@od/contracts';

/**
 * Who may do what on the bus: one NATS identity per service, each allowed only the subjects it
 * serves and calls. Derived from `names(prefix)` so it cannot drift from the code; rendered into a
 * nats-server configuration by `natsServerConfig` (deploy/nats/nats.conf is generated from it).
 *
 * - Replies: every identity subscribes only to its own inbox prefix `_INBOX.<identity>.>` (set by
 *   connectBus), so nobody reads another's replies; answering a request is allowed by
 *   `allow_responses` (only to the reply subject of a request actually received).
 * - Only feed announces new pollable entries (`feedPending`, read by the gateways' empty-poll cache).
 * - Only orders publishes order events; only auth writes the credentials bucket; feed, webhook and
 *   gateway read it; catalog and orders cannot see it. Only webhook may ask auth for webhook
 *   secrets and OPEN_DELIVERY client secrets; the gateway may call every service op except `internal.*` ones.
 * - JetStream API: per stream (and per durable consumer) only what each identity uses.
 */
export type BusIdentity = ServiceName | 'gateway';
export const BUS_IDENTITIES: BusIdentity[] = [
  'auth',
  'catalog',
  'orders',
  'feed',
  'webhook',
  'panel',
  'gateway',
];

export interface Permissions {
  publish: { allow: string[]; deny?: string[] };
  subscribe: { allow: string[]; deny?: string[] };
}

/** durable consumer names on the order-event stream (feed consumer.ts, webhook intake.ts, panel live-orders.ts) */
export const ORDER_EVENT_CONSUMERS = { feed: 'feed', webhook: 'webhook', panel: 'panel' } as const;

export const inboxPrefix = (identity: string) => `_INBOX.${identity}`;

export function busPermissions(prefix: string): Record<BusIdentity, Permissions> {
  const n = names(prefix);
  const api = '$JS.API';
  const stream = (s: string, ...ops: ('INFO' | 'CREATE' | 'UPDATE')[]) =>
    ops.map((op) => `${api}.STREAM.${op}.${s}`);
  const kvStream = (bucket: string) => `KV_${bucket}`;
  /** read a KV bucket: open it, get a key, watch or list it (ordered consumers) */
  const kvRead = (bucket: string) => [
    ...stream(kvStream(bucket), 'INFO', 'CREATE'),
    `${api}.STREAM.MSG.GET.${kvStream(bucket)}`,
    `${api}.DIRECT.GET.${kvStream(bucket)}.>`,
    `${api}.CONSUMER.CREATE.${kvStream(bucket)}`,
    `${api}.CONSUMER.CREATE.${kvStream(bucket)}.>`,
    `${api}.CONSUMER.DELETE.${kvStream(bucket)}.>`,
    `${api}.CONSUMER.INFO.${kvStream(bucket)}.>`,
    `$JS.FC.${kvStream(bucket)}.>`,
  ];
  const kvWrite = (bucket: string) => [`$KV.${bucket}.>`];
  /** one durable consumer of the order-event stream, pulled */
  const orderConsumer = (name: string) => {
    const s = n.orderEventsStream;
    return [
      ...stream(s, 'INFO', 'CREATE'),
      `${api}.CONSUMER.CREATE.${s}.${name}`,
      `${api}.CONSUMER.CREATE.${s}.${name}.>`,
      `${api}.CONSUMER.DURABLE.CREATE.${s}.${name}`,
      `${api}.CONSUMER.UPDATE.${s}.${name}`,
      `${api}.CONSUMER.UPDATE.${s}.${name}.>`,
      `${api}.CONSUMER.INFO.${s}.${name}`,
      `${api}.CONSUMER.MSG.NEXT.${s}.${name}`,
      `$JS.ACK.${s}.${name}.>`,
    ];
  };
  const serve = (s: ServiceName) => `${prefix}.rpc.${s}.>`;
  const call = (op: { service: ServiceName; name: string }) => n.rpc(op.service, op.name);
  const base = (id: BusIdentity, pub: string[], sub: string[], deny?: string[]): Permissions => ({
    publish: { allow: [`${api}.INFO`, ...pub], ...(deny ? { deny } : {}) },
    subscribe: { allow: [`${inboxPrefix(id)}.>`, ...sub] },
  });
  const credentials = n.credentialsBucket;
  return {
    auth: base(
      'auth',
      [
        call(INTERNAL_OPS.merchantSnapshot),
        ...stream(kvStream(credentials), 'INFO', 'CREATE', 'UPDATE'),
        ...kvWrite(credentials),
      ],
      [serve('auth')],
    ),
    catalog: base('catalog', [n.catalogChanged], [serve('catalog'), n.catalogChanged]),
    orders: base(
      'orders',
      [
        call(INTERNAL_OPS.merchantSnapshot),
        n.orderEventSubjects,
        ...stream(n.orderEventsStream, 'INFO', 'CREATE', 'UPDATE'),
      ],
      [serve('orders')],
    ),
    feed: base(
      'feed',
      [...orderConsumer(ORDER_EVENT_CONSUMERS.feed), ...kvRead(credentials), n.feedPending],
      [serve('feed')],
    ),
    webhook: base(
      'webhook',
      [
        call(INTERNAL_OPS.webhookSecrets),
        call(INTERNAL_OPS.clientSecret),
        ...orderConsumer(ORDER_EVENT_CONSUMERS.webhook),
        ...kvRead(credentials),
      ],
      [serve('webhook')],
    ),
    // the merchant panel's back end: a front door like the gateway (no internal op), plus its board
    panel: base(
      'panel',
      [
        `${prefix}.rpc.*.>`,
        ...orderConsumer(ORDER_EVENT_CONSUMERS.panel),
        // the credential barrier (gateway-barrier.ts): read the registry, ask each replica
        ...kvRead(n.gatewaysBucket),
        n.gatewaySync('*'),
      ],
      [serve('panel'), n.orderEventSubjects],
      [`${prefix}.rpc.*.internal.>`],
    ),
    gateway: base(
      'gateway',
      [
        `${prefix}.rpc.*.>`,
        ...kvRead(credentials),
        ...kvRead(n.gatewaysBucket),
        ...stream(kvStream(n.gatewaysBucket), 'UPDATE'),
        ...kvWrite(n.gatewaysBucket),
        n.gatewaySync('*'),
      ],
      [n.gatewaySync('*'), n.feedPending],
      [`${prefix}.rpc.*.internal.>`],
    ),
  };
}

export interface NatsServerConfigOptions {
  prefix: string;
  /** `host:port` to listen on */
  listen: string;
  /** JetStream store directory */
  storeDir: string;
  /** per identity: a literal password, or `$VAR` (nats-server reads the environment variable) */
  passwords: Record<BusIdentity, string>;
  /** HTTP monitoring port (health checks), optional */
  httpPort?: number;
}

const quote = (s: string) => JSON.stringify(s);
const list = (xs: string[]) => `[${xs.map(quote).join(', ')}]`;

/**
 * The `authorization` block alone: one user per service with its permissions, no anonymous access.
 * `passwords`: per identity a literal, or `$VAR` (nats-server reads the environment variable).
 * deploy/k8s/nats includes it from its cluster configuration.
 */
export function natsAuthorization(prefix: string, passwords: Record<BusIdentity, string>): string {
  const perms = busPermissions(prefix);
  const users = BUS_IDENTITIES.map((id) => {
    const p = perms[id];
    const pw = passwords[id];
    const password = pw.startsWith('$') ? pw : quote(pw);
    const deny = p.publish.deny ? `, deny: ${list(p.publish.deny)}` : '';
    return [
      `    {`,
      `      user: ${quote(id)}`,
      `      password: ${password}`,
      `      permissions: {`,
      `        publish: { allow: ${list(p.publish.allow)}${deny} }`,
      `        subscribe: { allow: ${list(p.subscribe.allow)} }`,
      `        allow_responses: true`,
      `      }`,
      `    }`,
    ].join('\n');
  });
  return [
    `# no user = no access: anonymous clients are refused`,
    `authorization {`,
    `  users: [`,
    users.join('\n'),
    `  ]`,
    `}`,
    '',
  ].join('\n');
}

/** nats-server configuration text: JetStream, no anonymous access, one user per service. */
export function natsServerConfig(o: NatsServerConfigOptions): string {
  return [
    `# Generated by scripts/nats-config.ts from libs/bus/src/permissions.ts (prefix "${o.prefix}"): do not edit.`,
    `listen: ${quote(o.listen)}`,
    ...(o.httpPort ? [`http_port: ${o.httpPort}`] : []),
    `jetstream { store_dir: ${quote(o.storeDir)} }`,
    natsAuthorization(o.prefix, o.passwords),
  ].join('\n');
}
