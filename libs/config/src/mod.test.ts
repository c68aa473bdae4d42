import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_KEYS, isLoopback, loadConfig, SERVICE_KEYS, SERVICE_NAMES } from './mod.ts';

const key32 = () => randomBytes(32).toString('base64');
const REAL = {
  ADMIN_TOKEN: 'a'.repeat(24),
  JWT_SECRET: 'j'.repeat(40),
  CLIENT_SECRET_KEY: 'c'.repeat(40),
  SECRETS_KEYS: `k1:${key32()}`,
  RPC_SIGNING_KEY: randomBytes(32).toString('base64url'),
  RPC_PUBLIC_KEYS: `gateway=${randomBytes(32).toString('base64url')}`,
  NATS_USER: 'auth',
  NATS_PASSWORD: 'p'.repeat(24),
  PUBLIC_BASE_URL: 'https://api.example.com',
  PANEL_PUBLIC_URL: 'https://panel.example.com',
};
const prod = (extra: Record<string, string | undefined> = {}) =>
  loadConfig({ NODE_ENV: 'production', HOST: '0.0.0.0', ...REAL, ...extra }, () => {});
const errorOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('config: zero-config stays zero-config', () => {
  it('nothing set: development defaults on loopback, one warning per key', () => {
    const warnings: string[] = [];
    const c = loadConfig({}, (m) => warnings.push(m));
    expect(c.HOST).toBe('127.0.0.1');
    expect(c.ADMIN_TOKEN).toBe(DEV_KEYS.ADMIN_TOKEN);
    expect(c.SECRETS_KEYS).toBe(DEV_KEYS.SECRETS_KEYS);
    expect(warnings).toHaveLength(6);
    expect(warnings.join('\n')).toMatch(/CLIENT_SECRET_KEY not set/);
  });

  it('development defaults are refused when a listener is not on loopback', () => {
    expect(errorOf(() => loadConfig({ HOST: '0.0.0.0' }, () => {}))).toMatch(
      /development defaults of ADMIN_TOKEN, JWT_SECRET, CLIENT_SECRET_KEY, SECRETS_KEYS, RPC_SIGNING_KEY, RPC_PUBLIC_KEYS are refused/,
    );
    expect(errorOf(() => loadConfig({ ...REAL, JWT_SECRET: undefined, HOST: '10.0.0.5' }, () => {}))).toMatch(
      /JWT_SECRET are refused on a non-loopback listener/,
    );
    // every key set: any listener
    expect(loadConfig({ ...REAL, HOST: '0.0.0.0' }, () => {}).HOST).toBe('0.0.0.0');
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'])
      expect(loadConfig({ HOST: h }, () => {}).HOST).toBe(h);
  });

  it('isLoopback', () => {
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(isLoopback('::')).toBe(false);
    expect(isLoopback('192.168.1.1')).toBe(false);
    expect(isLoopback('127.0.0.1')).toBe(true);
  });
});

describe('config: production refuses what is not a real key', () => {
  it('starts with every key and a bus identity', () => {
    const c = prod();
    expect(c.JWT_SECRET).toBe(REAL.JWT_SECRET);
    expect(
      prod({ NATS_USER: undefined, NATS_PASSWORD: undefined, NATS_CREDS: '/run/nats.creds' }).NATS_CREDS,
    ).toBe('/run/nats.creds');
  });

  it('refuses a missing key, each named', () => {
    for (const k of ['ADMIN_TOKEN', 'JWT_SECRET', 'CLIENT_SECRET_KEY', 'SECRETS_KEYS', 'RPC_SIGNING_KEY'])
      expect(errorOf(() => prod({ [k]: undefined }))).toMatch(
        new RegExp(`missing required settings in production: ${k}`),
      );
  });

  it('refuses running without a NATS identity', () => {
    expect(errorOf(() => prod({ NATS_USER: undefined, NATS_PASSWORD: undefined }))).toMatch(/NATS identity/);
    expect(errorOf(() => prod({ NATS_PASSWORD: undefined }))).toMatch(/go together/);
  });

  it('refuses the placeholders of docker-compose.yml and deploy templates', () => {
    expect(errorOf(() => prod({ ADMIN_TOKEN: 'change-me-admin-token-0123456789' }))).toMatch(
      /placeholder .* ADMIN_TOKEN/,
    );
    expect(errorOf(() => prod({ NATS_PASSWORD: 'CHANGE-ME-nats-auth-0123' }))).toMatch(/NATS_PASSWORD/);
    expect(errorOf(() => prod({ JWT_SECRET: 'REPLACE_ME'.padEnd(40, 'x') }))).toMatch(/JWT_SECRET/);
    expect(errorOf(() => prod({ DATABASE_URL: 'postgresql://auth:change-me@db:5432/od' }))).toMatch(
      /DATABASE_URL/,
    );
  });

  it('refuses the development defaults given explicitly (they contain change-me)', () => {
    expect(errorOf(() => prod({ JWT_SECRET: DEV_KEYS.JWT_SECRET }))).toMatch(/JWT_SECRET/);
  });

  it('validates the encryption keyring', () => {
    expect(errorOf(() => prod({ SECRETS_KEYS: 'k1:c2hvcnQ=' }))).toMatch(
      /SECRETS_KEYS: key k1 must be 32 bytes/,
    );
    expect(errorOf(() => prod({ SECRETS_ACTIVE_KEY: 'k9' }))).toMatch(/active key k9/);
    expect(
      prod({ SECRETS_KEYS: `a:${key32()},b:${key32()}`, SECRETS_ACTIVE_KEY: 'b' }).SECRETS_ACTIVE_KEY,
    ).toBe('b');
  });
});

describe('config: outgoing calls (issue 22)', () => {
  it('egress DNS servers, DNS deadline and the point-of-sale read bounds: defaults, values, refusals', () => {
    const dev = (env: Record<string, string>) => loadConfig(env, () => {});
    expect(dev({})).toMatchObject({
      EGRESS_DNS_SERVERS: [],
      EGRESS_DNS_TIMEOUT: 3_000,
      OD_MERCHANT_FETCH_COOLDOWN: 10_000,
      OD_MERCHANT_FETCHES: 4,
    });
    expect(
      dev({
        EGRESS_DNS_SERVERS: '10.0.0.10, 127.0.0.1:5353,[2001:db8::1]:53',
        EGRESS_DNS_TIMEOUT: '500ms',
        OD_MERCHANT_FETCH_COOLDOWN: '0ms',
        OD_MERCHANT_FETCHES: '8',
      }),
    ).toMatchObject({
      EGRESS_DNS_SERVERS: ['10.0.0.10', '127.0.0.1:5353', '[2001:db8::1]:53'],
      EGRESS_DNS_TIMEOUT: 500,
      OD_MERCHANT_FETCH_COOLDOWN: 0,
      OD_MERCHANT_FETCHES: 8,
    });
    for (const bad of ['dns.example.com', 'dead', '10.0.0.1:99999', '[dns]:53'])
      expect(errorOf(() => dev({ EGRESS_DNS_SERVERS: bad }))).toMatch(/EGRESS_DNS_SERVERS/);
    expect(dev({ EGRESS_DNS_SERVERS: '2001:db8::53' }).EGRESS_DNS_SERVERS).toEqual(['2001:db8::53']);
    expect(errorOf(() => dev({ OD_MERCHANT_FETCHES: '0' }))).toMatch(/OD_MERCHANT_FETCHES/);
    expect(errorOf(() => dev({ EGRESS_DNS_TIMEOUT: '3' }))).toMatch(/EGRESS_DNS_TIMEOUT/);
  });
});

describe('config: each service requires and holds only its own keys', () => {
  const LINKS = { DATABASE_URL: 'postgresql://od_x:pw@db:5432/od', REDIS_URL: 'redis://gw:pw@redis:6379' };
  const only = (service: (typeof SERVICE_NAMES)[number], extra: Record<string, string | undefined> = {}) => {
    const env: Record<string, string | undefined> = { NODE_ENV: 'production', HOST: '0.0.0.0', ...LINKS };
    for (const k of ['NATS_USER', 'NATS_PASSWORD', 'PUBLIC_BASE_URL', 'PANEL_PUBLIC_URL'] as const)
      env[k] = REAL[k];
    for (const k of SERVICE_KEYS[service]) env[k] = REAL[k];
    return { env: { ...env, ...extra }, warnings: [] as string[] };
  };

  it('webhook starts without ADMIN_TOKEN, JWT_SECRET, CLIENT_SECRET_KEY or SECRETS_KEYS, and holds none', () => {
    const { env } = only('webhook');
    const c = loadConfig(env, () => {}, { service: 'webhook' });
    expect([c.ADMIN_TOKEN, c.JWT_SECRET, c.CLIENT_SECRET_KEY, c.SECRETS_KEYS]).toEqual(['', '', '', '']);
    // the same environment without a service name is refused: every key is required then
    expect(errorOf(() => loadConfig(env, () => {}))).toMatch(/ADMIN_TOKEN, JWT_SECRET, CLIENT_SECRET_KEY/);
  });

  it('every service starts with exactly its keys and is refused without any one of them', () => {
    for (const s of SERVICE_NAMES) {
      const { env } = only(s);
      expect(loadConfig(env, () => {}, { service: s }).NODE_ENV, s).toBe('production');
      for (const k of SERVICE_KEYS[s])
        expect(
          errorOf(() => loadConfig({ ...env, [k]: undefined }, () => {}, { service: s })),
          `${s} ${k}`,
        ).toMatch(new RegExp(`missing required settings in production \\(${s}\\): ${k}`));
    }
  });

  it('a key the service does not use is dropped with a warning, not handed to the code', () => {
    const { env, warnings } = only('webhook', { ADMIN_TOKEN: REAL.ADMIN_TOKEN, JWT_SECRET: REAL.JWT_SECRET });
    const c = loadConfig(env, (m) => warnings.push(m), { service: 'webhook' });
    expect(c.ADMIN_TOKEN).toBe('');
    expect(c.JWT_SECRET).toBe('');
    expect(warnings.join()).toMatch(/webhook does not use ADMIN_TOKEN, JWT_SECRET/);
  });

  it('the database and Redis URLs (their passwords) are required where used, explicitly', () => {
    expect(
      errorOf(() =>
        loadConfig(only('orders', { DATABASE_URL: undefined }).env, () => {}, { service: 'orders' }),
      ),
    ).toMatch(/\(orders\): DATABASE_URL/);
    expect(
      errorOf(() =>
        loadConfig(only('gateway', { REDIS_URL: undefined }).env, () => {}, { service: 'gateway' }),
      ),
    ).toMatch(/\(gateway\): REDIS_URL/);
    // the gateway has no database
    expect(
      loadConfig(only('gateway', { DATABASE_URL: undefined }).env, () => {}, { service: 'gateway' }).NODE_ENV,
    ).toBe('production');
  });

  it('development keeps zero-config: every key defaulted whatever the service', () => {
    const c = loadConfig({}, () => {}, { service: 'webhook' });
    expect(c.ADMIN_TOKEN).toBe(DEV_KEYS.ADMIN_TOKEN);
  });
});

describe('config: HTTPS only in production', () => {
  it('refuses an http:// PUBLIC_BASE_URL and PANEL_PUBLIC_URL, each named', () => {
    expect(errorOf(() => prod({ PUBLIC_BASE_URL: 'http://api.example.com' }))).toMatch(
      /PUBLIC_BASE_URL must be an https:\/\/ address in production \(HTTPS only\), got http:\/\/api\.example\.com/,
    );
    expect(errorOf(() => prod({ PANEL_PUBLIC_URL: 'http://panel.example.com' }))).toMatch(
      /PANEL_PUBLIC_URL must be an https:\/\//,
    );
    // the defaults (http://localhost) are refused too
    expect(errorOf(() => prod({ PUBLIC_BASE_URL: undefined }))).toMatch(/PUBLIC_BASE_URL must be/);
  });

  it('only where the service uses the address', () => {
    const env = { NODE_ENV: 'production', HOST: '0.0.0.0', ...REAL, DATABASE_URL: 'postgresql://a:b@db/od' };
    expect(() =>
      loadConfig({ ...env, PANEL_PUBLIC_URL: 'http://x' }, () => {}, { service: 'webhook' }),
    ).not.toThrow();
    expect(
      errorOf(() => loadConfig({ ...env, PANEL_PUBLIC_URL: 'http://x' }, () => {}, { service: 'panel' })),
    ).toMatch(/PANEL_PUBLIC_URL/);
    expect(
      errorOf(() => loadConfig({ ...env, PUBLIC_BASE_URL: 'http://x' }, () => {}, { service: 'orders' })),
    ).toMatch(/PUBLIC_BASE_URL/);
  });

  it('development and test accept http://', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'http://localhost:8080' }, () => {}).PUBLIC_BASE_URL).toBe(
      'http://localhost:8080',
    );
  });
});
