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

/**
 * What production refuses to start without (besides a bus identity: `PRODUCTION_BUS_IDENTITY`).
 * deploy/ checks every Deployment against it (tests/deploy-manifests.test.ts).
 */
export const PRODUCTION_REQUIRED = [...KEY_NAMES, 'RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'] as const;
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

/** Keys and placeholders: what production demands, what development may default. */
function checkKeys(env: Env, warn: (msg: string) => void): void {
  // the bus signing keys have their development default in libs/bus (caller.ts), not here
  const missing = PRODUCTION_REQUIRED.filter((k) => !env[k]);
  const busIdentity = PRODUCTION_BUS_IDENTITY.some((set) => set.every((k) => env[k]));
  if (env.NODE_ENV === 'production') {
    const problems: string[] = [];
    if (missing.length) problems.push(`missing required secrets in production: ${missing.join(', ')}`);
    if (!busIdentity)
      problems.push('production needs a NATS identity: NATS_USER and NATS_PASSWORD, or NATS_CREDS');
    const placeholders = Object.entries(env)
      .filter(([, v]) => typeof v === 'string' && PLACEHOLDER.test(v))
      .map(([k]) => k);
    if (placeholders.length)
      problems.push(`placeholder values ("change-me") are not keys: replace ${placeholders.join(', ')}`);
    if (problems.length) throw new ConfigError(problems.join('\n'));
    return;
  }
  if (missing.length && !isLoopback(env.HOST)) {
    throw new ConfigError(
      `development defaults of ${missing.join(', ')} are refused on a non-loopback listener (HOST=${env.HOST}): set them, or HOST=127.0.0.1`,
    );
  }
  for (const k of missing) warn(`config: ${k} not set, using an insecure development default`);
}

/**
 * Validates the environment once at start. Production refuses to start without its keys or with a
 * placeholder; development defaults them with a warning, on loopback listeners only.
 */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  warn: (msg: string) => void = (m) => console.warn(m),
): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (Boolean(env.NATS_USER) !== Boolean(env.NATS_PASSWORD))
    throw new ConfigError('NATS_USER and NATS_PASSWORD go together');
  checkKeys(env, warn);
  const config: Config = {
    ...env,
    ADMIN_TOKEN: env.ADMIN_TOKEN ?? DEV_KEYS.ADMIN_TOKEN,
    JWT_SECRET: env.JWT_SECRET ?? DEV_KEYS.JWT_SECRET,
    CLIENT_SECRET_KEY: env.CLIENT_SECRET_KEY ?? DEV_KEYS.CLIENT_SECRET_KEY,
    SECRETS_KEYS: env.SECRETS_KEYS ?? DEV_KEYS.SECRETS_KEYS,
  };
  try {
    parseKeyring(config.SECRETS_KEYS, config.SECRETS_ACTIVE_KEY);
  } catch (e) {
    if (e instanceof KeyringError) throw new ConfigError(`SECRETS_KEYS: ${e.message}`);
    throw e;
  }
  return config;
}
