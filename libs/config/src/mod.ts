import { isIP } from 'node:net';
import { KeyringError, parseKeyring } from '@od/crypto';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** `1.2.3.4`, `1.2.3.4:53`, `2001:db8::1`, `[2001:db8::1]:53` (what dns.Resolver#setServers takes) */
const isDnsServer = (s: string): boolean => {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s) ?? /^([\d.]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return isIP(s) === 6;
  return isIP(m[1]) !== 0 && (m[2] === undefined || Number(m[2]) <= 65535);
};

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A duration such as `90s`, `30m`, `24h` or `7d`, in milliseconds. */
const duration = z
  .string()
  .regex(/^\d+(ms|s|m|h|d)$/, 'a duration such as 90s, 30m, 24h or 7d')
  .transform((v) => {
    const [, n, unit] = /^(\d+)(ms|s|m|h|d)$/.exec(v) as RegExpExecArray;
    return Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
  });

/** Development defaults of the keys: used with a warning, refused in production and off loopback. */
export const DEV_KEYS = {
  ADMIN_TOKEN: 'dev-admin-token',
  JWT_SECRET: 'dev-jwt-secret-change-me-0123456789abcdef',
  CLIENT_SECRET_KEY: 'dev-client-secret-key-change-me-0123456789',
  SECRETS_KEYS: `dev:${Buffer.alloc(32, 7).toString('base64')}`,
} as const;
type KeyName = keyof typeof DEV_KEYS;
const KEY_NAMES = Object.keys(DEV_KEYS) as KeyName[];

/** The processes that read this configuration (each is also a bus identity, libs/bus). */
export const SERVICE_NAMES = ['auth', 'catalog', 'orders', 'feed', 'webhook', 'panel', 'gateway'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
type SecretName = KeyName | 'RPC_SIGNING_KEY' | 'RPC_PUBLIC_KEYS';

/**
 * The keys each service uses, read from the code (least privilege: a pod gets these and no other;
 * deploy/k8s/README.md has the table). ADMIN_TOKEN: the gateway's admin listener. JWT_SECRET: auth
 * signs tokens, the gateway verifies them. CLIENT_SECRET_KEY: auth hashes client secrets.
 * SECRETS_KEYS: auth (webhook and client secrets) and catalog (point-of-sale api keys) seal data at
 * rest. RPC_SIGNING_KEY and RPC_PUBLIC_KEYS: every service; its own key signs its calls and, with the
 * ring, derives the pair keys (libs/bus pairKeys) it proves its calls and checks the requests it
 * serves with, so even catalog, which calls nobody, needs it.
 */
export const SERVICE_KEYS: Record<ServiceName, readonly SecretName[]> = {
  auth: ['JWT_SECRET', 'CLIENT_SECRET_KEY', 'SECRETS_KEYS', 'RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'],
  catalog: ['SECRETS_KEYS', 'RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'],
  orders: ['RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'],
  feed: ['RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'],
  webhook: ['RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'],
  panel: ['RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'],
  gateway: ['ADMIN_TOKEN', 'JWT_SECRET', 'RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'],
};
/** Connection URLs (they carry the passwords) each service must be given in production. */
export const SERVICE_LINKS: Record<ServiceName, readonly ('DATABASE_URL' | 'REDIS_URL')[]> = {
  auth: ['DATABASE_URL'],
  catalog: ['DATABASE_URL'],
  orders: ['DATABASE_URL'],
  feed: ['DATABASE_URL'],
  webhook: ['DATABASE_URL'],
  panel: ['DATABASE_URL', 'REDIS_URL'],
  gateway: ['REDIS_URL'],
};
/** Public addresses each service prints or links to: `https://` only in production (SPEC: HTTPS only). */
export const SERVICE_PUBLIC_URLS: Record<ServiceName, readonly ('PUBLIC_BASE_URL' | 'PANEL_PUBLIC_URL')[]> = {
  auth: [],
  catalog: [],
  orders: ['PUBLIC_BASE_URL'],
  feed: [],
  webhook: [],
  panel: ['PANEL_PUBLIC_URL'],
  gateway: ['PUBLIC_BASE_URL'],
};
const ALL_SECRETS: readonly SecretName[] = [...KEY_NAMES, 'RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'];

/**
 * What production refuses to start without: the service's keys (every key when the caller names no
 * service, e.g. a one-off script) and, besides, a bus identity (`PRODUCTION_BUS_IDENTITY`).
 * deploy/ checks every Deployment against it (tests/deploy-manifests.test.ts).
 */
export const productionRequired = (service?: ServiceName): readonly string[] =>
  service ? [...SERVICE_KEYS[service], ...SERVICE_LINKS[service]] : ALL_SECRETS;
/** Production's bus identity: either set of variables. */
export const PRODUCTION_BUS_IDENTITY = [['NATS_USER', 'NATS_PASSWORD'], ['NATS_CREDS']] as const;

/** A value copied from docker-compose.yml or deploy/ templates, never a real key. */
const PLACEHOLDER = /change-me|replace_me/i;

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** TLS: `?sslmode=verify-full&sslrootcert=/path/ca.pem` (and sslcert/sslkey) in the URL */
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/postgres'),
  /** TLS: `rediss://` (CA from NODE_EXTRA_CA_CERTS) */
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** This process's own bus identity (deploy/nats): user and password ... */
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
  /** ... or a creds file (JWT + nkey seed) for operator-mode servers */
  NATS_CREDS: z.string().min(1).optional(),
  /** TLS to NATS (any of them turns TLS on): CA bundle, client certificate and key (file paths) */
  NATS_TLS_CA: z.string().min(1).optional(),
  NATS_TLS_CERT: z.string().min(1).optional(),
  NATS_TLS_KEY: z.string().min(1).optional(),
  /** Namespaces NATS subjects, streams, KV buckets and Redis keys: lets test stacks share one server. */
  NATS_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9]*$/, 'lowercase letters and digits')
    .default('od'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  ADMIN_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** Ops listener (/metrics, /livez, /readyz); unset = off, 0 = ephemeral port. */
  OPS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  OPS_HOST: z.string().default('127.0.0.1'),
  ADMIN_TOKEN: z.string().min(16).optional(),
  /** The merchant panel's listener (services/panel) and the address its invite links point to. */
  PANEL_PORT: z.coerce.number().int().min(0).max(65535).default(8082),
  PANEL_PUBLIC_URL: z.string().url().default('http://localhost:8082'),
  PUBLIC_BASE_URL: z.string().url().default('http://localhost:8080'),
  JWT_SECRET: z.string().min(32).optional(),
  /** HMAC-SHA256 key of client-secret hashes (auth); changing it invalidates every client secret */
  CLIENT_SECRET_KEY: z.string().min(32).optional(),
  /** Encryption keys of secrets at rest: `id:<base64 of 32 bytes>,...` (libs/crypto) */
  SECRETS_KEYS: z.string().min(1).optional(),
  /** id of the key new values are encrypted with (default the first of SECRETS_KEYS) */
  SECRETS_ACTIVE_KEY: z.string().optional(),
  CORS_ORIGIN: z.string().default('https://developers.example.com'),
  TRUST_PROXY: z.string().default(''),
  /** lifts the address check of every outgoing call to an integrator's URL (@od/egress): tests, on-premise */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool,
  /**
   * DNS servers of every outgoing call to an integrator's URL (@od/egress, c-ares): `ip`, `ip:port`
   * or `[ipv6]:port`, comma separated; unset = the system's (/etc/resolv.conf)
   */
  EGRESS_DNS_SERVERS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every(isDnsServer), { message: 'ip, ip:port or [ipv6]:port, comma separated' }),
  /** the whole lookup of one name of an outgoing call (A and AAAA): failing it, the call fails */
  EGRESS_DNS_TIMEOUT: duration.default(3_000),
  /** catalog: after a read of a point of sale's GET /v1/merchant, the store's next read waits this long */
  OD_MERCHANT_FETCH_COOLDOWN: duration.default(10_000),
  /** catalog: reads of points of sale in flight at once per replica (each holds at most 1 MiB) */
  OD_MERCHANT_FETCHES: z.coerce.number().int().min(1).max(64).default(4),
  /** Open Delivery: this ordering application's AppId (a UUID), sent as `X-App-Id` in the newEvent push */
  OD_APP_ID: z.uuid().default('3f6c2a1e-8b4d-4f7a-9c2e-5d1b7a9e0c41'),
  /** Scales every webhook retry delay (tests use a small factor); 1 in production. */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().default(1),
  /**
   * How long published order-outbox rows are kept before pruning (never less than the order-event
   * stream's duplicate window: the relay uses the larger of the two). Unpublished rows are never pruned.
   */
  ORDER_OUTBOX_RETENTION: duration.default(86_400_000),
  /** how often each orders replica looks for PENDING orders past their confirmation deadline */
  ORDER_CONFIRM_SWEEP_INTERVAL: duration.default(5_000),
  /** this process' Ed25519 signing key for bus requests (base64url 32-byte seed); see libs/bus caller.ts */
  RPC_SIGNING_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'a base64url 32-byte key (pnpm odctl rpc-keys)')
    .optional(),
  /** public keys of every signer: `gateway=<key>,panel=<key>,orders=<key>,...` (base64url raw keys) */
  RPC_PUBLIC_KEYS: z
    .string()
    .regex(
      /^[a-z]+=[A-Za-z0-9_-]{43}(,[a-z]+=[A-Za-z0-9_-]{43})*$/,
      '<signer>=<key>,... (pnpm odctl rpc-keys)',
    )
    .optional(),
  /**
   * Credentials per store that are not revoked (auth refuses the next with 409
   * credential_limit_reached): every order event fans out to each of them.
   */
  CREDENTIALS_PER_STORE_MAX: z.coerce.number().int().min(1).max(1000).default(20),
  RATE_LIMIT_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** The order-event stream (docs/event-stream.md); replicas > 1 need a JetStream cluster that size. */
  ORDER_EVENTS_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  ORDER_EVENTS_MAX_AGE_HOURS: z.coerce.number().int().min(1).default(168),
  ORDER_EVENTS_MAX_BYTES: z.coerce.number().int().min(1_048_576).default(1_073_741_824),
  ORDER_EVENTS_DUPLICATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(7_200),
});

export type Env = z.infer<typeof envSchema>;
export type Config = Omit<Env, KeyName> & Record<KeyName, string>;

export class ConfigError extends Error {}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/i;
export const isLoopback = (host: string): boolean => LOOPBACK.test(host.replace(/^\[|\]$/g, ''));

/** Keys, links and placeholders: what production demands, what development may default. */
function checkKeys(
  env: Env,
  source: Record<string, string | undefined>,
  warn: (msg: string) => void,
  service?: ServiceName,
): void {
  // the bus signing keys have their development default in libs/bus (caller.ts), not here
  const keys = service ? SERVICE_KEYS[service] : ALL_SECRETS;
  const missing = keys.filter((k) => !env[k]);
  const busIdentity = PRODUCTION_BUS_IDENTITY.some((set) => set.every((k) => env[k]));
  if (env.NODE_ENV === 'production') {
    const problems: string[] = [];
    const absent = productionRequired(service).filter((k) => !source[k]);
    if (absent.length)
      problems.push(
        `missing required settings in production${service ? ` (${service})` : ''}: ${absent.join(', ')}`,
      );
    if (!busIdentity)
      problems.push('production needs a NATS identity: NATS_USER and NATS_PASSWORD, or NATS_CREDS');
    const placeholders = Object.entries(env)
      .filter(([, v]) => typeof v === 'string' && PLACEHOLDER.test(v))
      .map(([k]) => k);
    if (placeholders.length)
      problems.push(`placeholder values ("change-me") are not keys: replace ${placeholders.join(', ')}`);
    for (const k of service
      ? SERVICE_PUBLIC_URLS[service]
      : (['PUBLIC_BASE_URL', 'PANEL_PUBLIC_URL'] as const))
      if (new URL(env[k]).protocol !== 'https:')
        problems.push(`${k} must be an https:// address in production (HTTPS only), got ${env[k]}`);
    if (problems.length) throw new ConfigError(problems.join('\n'));
    const unused = service ? ALL_SECRETS.filter((k) => env[k] && !keys.includes(k)) : [];
    if (unused.length)
      warn(
        `config: ${service} does not use ${unused.join(', ')}: remove them from its environment (ignored)`,
      );
    return;
  }
  if (missing.length && !isLoopback(env.HOST)) {
    throw new ConfigError(
      `development defaults of ${missing.join(', ')} are refused on a non-loopback listener (HOST=${env.HOST}): set them, or HOST=127.0.0.1`,
    );
  }
  for (const k of missing) warn(`config: ${k} not set, using an insecure development default`);
}

export interface LoadOptions {
  /**
   * The service this process runs: production then requires only its keys and links
   * (`SERVICE_KEYS`, `SERVICE_LINKS`) and hands it no other key (empty string). Unset: every key.
   */
  service?: ServiceName;
}

/**
 * Validates the environment once at start. Production refuses to start without its keys, with a
 * placeholder or with an `http://` public address; development defaults the keys with a warning,
 * on loopback listeners only.
 */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  warn: (msg: string) => void = (m) => console.warn(m),
  opts: LoadOptions = {},
): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (Boolean(env.NATS_USER) !== Boolean(env.NATS_PASSWORD))
    throw new ConfigError('NATS_USER and NATS_PASSWORD go together');
  checkKeys(env, source, warn, opts.service);
  // production: a service holds only its own keys, whatever its environment carries
  const scoped = env.NODE_ENV === 'production' && opts.service ? SERVICE_KEYS[opts.service] : ALL_SECRETS;
  const key = (k: KeyName) => (scoped.includes(k) ? (env[k] ?? DEV_KEYS[k]) : '');
  const config: Config = {
    ...env,
    ADMIN_TOKEN: key('ADMIN_TOKEN'),
    JWT_SECRET: key('JWT_SECRET'),
    CLIENT_SECRET_KEY: key('CLIENT_SECRET_KEY'),
    SECRETS_KEYS: key('SECRETS_KEYS'),
    ...(scoped.includes('RPC_SIGNING_KEY') ? {} : { RPC_SIGNING_KEY: undefined }),
  };
  if (config.SECRETS_KEYS)
    try {
      parseKeyring(config.SECRETS_KEYS, config.SECRETS_ACTIVE_KEY);
    } catch (e) {
      if (e instanceof KeyringError) throw new ConfigError(`SECRETS_KEYS: ${e.message}`);
      throw e;
    }
  return config;
}
