import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type Config, loadConfig } from '@od/config';
import pg from 'pg';
import type { Infra } from './infra.ts';

export function currentInfra(): Infra {
  return {
    databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  };
}

export const uniquePrefix = (): string => `t${randomBytes(5).toString('hex')}`;

/** A new empty database on the test server; dropped by the returned function. */
export async function freshDatabase(
  infra = currentInfra(),
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `od_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: infra.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(infra.databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: infra.databaseUrl });
      await c.connect();
      // a pool that was just ended may still be closing its connections (pg-pool resolves end()
      // before every socket is gone): give them up to 2 s, so FORCE does not hit a client that no
      // longer has an error listener (an uncaught 57P01 in the test run)
      for (let i = 0; i < 40; i++) {
        const { rows } = await c.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}

/** Config for an isolated stack: own database, own NATS/Redis prefix, ephemeral ports, quiet logs. */
export function testConfig(
  databaseUrl: string,
  prefix: string,
  overrides: Record<string, string> = {},
): Config {
  const infra = currentInfra();
  return loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: databaseUrl,
      REDIS_URL: infra.redisUrl,
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: prefix,
      HOST: '127.0.0.1',
      PORT: '0',
      ADMIN_PORT: '0',
      PANEL_PORT: '0',
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789',
      PUBLIC_BASE_URL: 'https://api.test.local',
      CORS_ORIGIN: 'https://portal.test.local',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      ...overrides,
    },
    () => {},
  );
}

/** Removes the JetStream streams, consumers and KV buckets a test stack created under its prefix. */
export async function cleanupNats(natsUrl: string, prefix: string): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    const upper = prefix.toUpperCase();
    for await (const s of jsm.streams.list()) {
      const name = s.config.name;
      if (
        name.startsWith(`${upper}_`) ||
        name === `KV_${prefix}_credentials` ||
        name.startsWith(`KV_${prefix}_`)
      ) {
        await jsm.streams.delete(name).catch(() => {});
      }
    }
  } finally {
    await nc.close();
  }
}
