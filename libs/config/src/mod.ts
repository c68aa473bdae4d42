import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A duration such as `90s`, `30m`, `24h` or `7d`, in milliseconds. */
const duration = z
  .string()
  .regex(/^\d+(ms|s|m|h|d)$/, 'a duration such as 90s, 30m, 24h or 7d')
  .transform((v) => {
    const [, n, unit] = /^(\d+)(ms|s|m|h|d)$/.exec(v) as RegExpExecArray;
    return Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
  });

const DEV_ADMIN_TOKEN = 'dev-admin-token';
const DEV_JWT_SECRET = 'dev-jwt-secret-change-me-0123456789abcdef';

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Namespaces NATS subjects, streams, KV buckets and Redis keys: lets test stacks share one server. */
  NATS_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9]*$/, 'lowercase letters and digits')
    .default('od'),
  HOST: z.string().default('0.0.0.0'),
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
  CORS_ORIGIN: z.string().default('https://developers.example.com'),
  TRUST_PROXY: z.string().default(''),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool,
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
export type Config = Omit<Env, 'ADMIN_TOKEN' | 'JWT_SECRET'> & { ADMIN_TOKEN: string; JWT_SECRET: string };

export class ConfigError extends Error {}

/** Validates the environment once at start. Production refuses to start without its secrets. */
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
  const missing = (['ADMIN_TOKEN', 'JWT_SECRET', 'RPC_SIGNING_KEY', 'RPC_PUBLIC_KEYS'] as const).filter(
    (k) => !env[k],
  );
  if (missing.length && env.NODE_ENV === 'production') {
    throw new ConfigError(`missing required secrets in production: ${missing.join(', ')}`);
  }
  for (const k of missing) warn(`config: ${k} not set, using an insecure development default`);
  return {
    ...env,
    ADMIN_TOKEN: env.ADMIN_TOKEN ?? DEV_ADMIN_TOKEN,
    JWT_SECRET: env.JWT_SECRET ?? DEV_JWT_SECRET,
  };
}
