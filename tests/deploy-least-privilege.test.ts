import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_KEYS, SERVICE_LINKS, SERVICE_NAMES, type ServiceName } from '@od/config';
import { migrate } from '@od/db';
import { freePort, freshDatabase } from '@od/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findNatsServer } from '../scripts/lib/nats-server.ts';
import type { K8sObject } from './lib/deploy.ts';
import * as deploy from './lib/deploy.ts';

/**
 * Issue 22 item 3, least privilege in deploy/ and docker-compose.yml, checked on the rendered
 * manifests (kubectl kustomize) and the compose file: nothing reachable beyond the public API and
 * the panel, each pod with only the keys its service uses (libs/config SERVICE_KEYS), a database
 * role and password per service, TLS on every link, authenticated NATS cluster routes (also live,
 * with two local nats-servers running the rendered configuration).
 */
const { composeDefaults, fill, natsFiles, of, podEnv, ROOT, readCompose, writeNatsFiles } = deploy;
const k8s = deploy.render('deploy/k8s');
const SECRET_KEYS = [
  'ADMIN_TOKEN',
  'JWT_SECRET',
  'CLIENT_SECRET_KEY',
  'SECRETS_KEYS',
  'RPC_SIGNING_KEY',
  'RPC_PUBLIC_KEYS',
];
const template = (s: string) => (of(k8s, 'Deployment', s) as K8sObject).spec.template;
const keysOf = (env: Record<string, string | undefined>) =>
  SECRET_KEYS.filter((k) => env[k] !== undefined).sort();
const expected = (s: ServiceName) => [...SERVICE_KEYS[s]].sort();

describe('kubernetes: nothing exposed beyond the public API and the panel', () => {
  it('every Service is cluster-internal; the ingress serves only gateway-public and panel, over TLS', () => {
    for (const svc of k8s.filter((o) => o.kind === 'Service'))
      expect(svc.spec.type ?? 'ClusterIP', svc.metadata.name).toBe('ClusterIP');
    const ingresses = k8s.filter((o) => o.kind === 'Ingress');
    expect(ingresses).toHaveLength(1);
    const [ing] = ingresses;
    const backends = ing.spec.rules.flatMap((r: any) =>
      r.http.paths.map((p: any) => `${r.host} -> ${p.backend.service.name}:${p.backend.service.port.name}`),
    );
    expect(backends).toEqual(['api.example.com -> gateway-public:http', 'panel.example.com -> panel:http']);
    expect(ing.spec.tls).toEqual([
      { hosts: ['api.example.com', 'panel.example.com'], secretName: 'opendelivery-ingress-tls' },
    ]);
    // the hosts are the addresses production requires to be https://
    const config = of(k8s, 'ConfigMap', 'opendelivery-config')?.data;
    expect(new URL(config.PUBLIC_BASE_URL).host).toBe('api.example.com');
    expect(new URL(config.PANEL_PUBLIC_URL).host).toBe('panel.example.com');
    expect(new URL(config.PUBLIC_BASE_URL).protocol).toBe('https:');
  });

  it('no pod uses the host network or host ports, nor gets a Kubernetes API token', () => {
    for (const o of k8s.filter((x) => x.kind === 'Deployment' || x.kind === 'StatefulSet')) {
      const spec = o.spec.template.spec;
      expect(spec.hostNetwork ?? false, o.metadata.name).toBe(false);
      expect(spec.automountServiceAccountToken, o.metadata.name).toBe(false);
      for (const c of spec.containers)
        for (const p of c.ports ?? []) expect(p.hostPort, `${o.metadata.name} ${p.name}`).toBeUndefined();
    }
  });

  it('the admin listener admits only pods labelled as admin clients', () => {
    const rules = k8s
      .filter((o) => o.kind === 'NetworkPolicy')
      .flatMap((p) => (p.spec.ingress ?? []).map((r: any) => ({ policy: p, rule: r })))
      .filter(({ rule }) => rule.ports?.some((x: { port: number }) => x.port === 8081));
    expect(rules).toHaveLength(1);
    expect(rules[0].policy.spec.podSelector).toEqual({
      matchLabels: { 'app.kubernetes.io/name': 'gateway' },
    });
    expect(rules[0].rule.from).toEqual([
      { podSelector: { matchLabels: { 'opendelivery.io/admin-client': 'true' } } },
    ]);
    // no service pod carries the label
    for (const s of SERVICE_NAMES)
      expect(template(s).metadata.labels['opendelivery.io/admin-client'], s).toBeUndefined();
  });
});

describe('kubernetes: each pod holds only the keys its service uses', () => {
  it('the keys in each pod are exactly libs/config SERVICE_KEYS, picked one by one', () => {
    for (const s of SERVICE_NAMES) {
      const { env, from } = podEnv(k8s, template(s));
      expect(keysOf(env), s).toEqual(expected(s));
      // never a whole shared Secret: a new key there would reach every pod
      const c = template(s).spec.containers[0];
      expect(
        c.envFrom.map((f: any) => f.configMapRef?.name ?? f.secretRef.name),
        s,
      ).toEqual(['opendelivery-config', `opendelivery-${s}`]);
      for (const k of keysOf(env))
        expect(from[k], `${s} ${k}`).toMatch(new RegExp(`^(opendelivery-secrets|opendelivery-${s})/${k}$`));
    }
    // e.g. the webhook pod: no admin token, no JWT secret, no encryption key
    expect(keysOf(podEnv(k8s, template('webhook')).env)).toEqual(['RPC_PUBLIC_KEYS', 'RPC_SIGNING_KEY']);
  });

  it('database and Redis URLs only where used; every Secret is read by the pods it is meant for', () => {
    for (const s of SERVICE_NAMES) {
      const { env } = podEnv(k8s, template(s));
      for (const link of ['DATABASE_URL', 'REDIS_URL'] as const)
        expect(env[link] !== undefined, `${s} ${link}`).toBe(SERVICE_LINKS[s].includes(link));
    }
    // the shared Secret holds the shared keys only (each Deployment picks from it)
    expect(Object.keys(of(k8s, 'Secret', 'opendelivery-secrets')?.stringData).sort()).toEqual(
      ['ADMIN_TOKEN', 'CLIENT_SECRET_KEY', 'JWT_SECRET', 'RPC_PUBLIC_KEYS', 'SECRETS_KEYS'].sort(),
    );
    // the verifying ring names only the processes that sign
    const ring = of(k8s, 'Secret', 'opendelivery-secrets')?.stringData.RPC_PUBLIC_KEYS as string;
    const signers = SERVICE_NAMES.filter((s) => SERVICE_KEYS[s].includes('RPC_SIGNING_KEY'));
    expect(
      ring
        .split(',')
        .map((e) => e.split('=')[0])
        .sort(),
    ).toEqual([...signers].sort());
  });

  it('the per-pod key table of deploy/k8s/README.md is SERVICE_KEYS', () => {
    const readme = readFileSync(path.join(ROOT, 'deploy/k8s/README.md'), 'utf8');
    for (const s of SERVICE_NAMES) {
      const row = readme.split('\n').find((l) => l.startsWith(`| ${s} `));
      expect(row, s).toBeDefined();
      const cells = (row as string).split('|').map((c) => c.trim());
      const marked = SECRET_KEYS.filter((_, i) => cells[i + 2] === 'yes');
      expect(marked.sort(), s).toEqual(expected(s));
    }
  });
});

describe('kubernetes: a database role and password per service, TLS on every link', () => {
  const roles = readFileSync(path.join(ROOT, 'deploy/postgres/roles.sql'), 'utf8');

  it('each service connects as od_<service> with a password, verifying the server certificate', () => {
    for (const s of SERVICE_NAMES.filter((x) => SERVICE_LINKS[x].includes('DATABASE_URL'))) {
      const url = new URL(fill(podEnv(k8s, template(s)).env).DATABASE_URL);
      expect(url.username, s).toBe(`od_${s}`);
      expect(url.password, s).not.toBe('');
      expect(url.searchParams.get('sslmode'), s).toBe('verify-full');
      expect(url.searchParams.get('sslrootcert'), s).toBe('/etc/opendelivery/tls/ca.crt');
      expect(roles, s).toContain(`CREATE SCHEMA IF NOT EXISTS ${s} AUTHORIZATION od_${s};`);
    }
  });

  it('Redis: the service its own user and password, over TLS (rediss://)', () => {
    for (const s of ['gateway', 'panel']) {
      const url = new URL(fill(podEnv(k8s, template(s)).env).REDIS_URL);
      expect([url.protocol, url.username], s).toEqual(['rediss:', s]);
      expect(url.password, s).not.toBe('');
    }
  });

  it('NATS: tls:// with the CA mounted in every pod; the servers require TLS from clients and routes', () => {
    for (const s of SERVICE_NAMES) {
      const { env } = podEnv(k8s, template(s));
      expect(env.NATS_URL, s).toMatch(/^tls:\/\//);
      const spec = template(s).spec;
      const mount = spec.containers[0].volumeMounts.find((m: { mountPath: string }) =>
        env.NATS_TLS_CA.startsWith(`${m.mountPath}/`),
      );
      expect(mount, s).toBeDefined();
      expect(spec.volumes.find((v: { name: string }) => v.name === mount.name).secret.secretName).toBe(
        'opendelivery-tls-ca',
      );
      expect(env.NODE_EXTRA_CA_CERTS, s).toBe(env.NATS_TLS_CA);
    }
    const conf = natsFiles(k8s)['nats.conf'];
    const [client, cluster] = conf.split(/^cluster \{/m);
    expect(client).toMatch(/^tls \{[^}]*cert_file: \/etc\/nats-tls\/tls\.crt/m);
    expect(cluster).toMatch(/tls \{[^}]*verify: true/);
    const sts = of(k8s, 'StatefulSet', 'nats') as K8sObject;
    expect(sts.spec.template.spec.volumes).toContainEqual({
      name: 'tls',
      secret: { secretName: 'nats-tls' },
    });
  });

  it('NATS cluster routes are authenticated: a password in the cluster block, credentials in every route', () => {
    const conf = natsFiles(k8s)['nats.conf'];
    const cluster = conf.slice(conf.search(/^cluster \{/m));
    expect(cluster).toMatch(/authorization \{\s*user: route\s*password: \$NATS_ROUTE_PASSWORD/);
    const { env, from } = podEnv(k8s, (of(k8s, 'StatefulSet', 'nats') as K8sObject).spec.template);
    expect(from.NATS_ROUTE_PASSWORD).toBe('nats-routes/NATS_ROUTE_PASSWORD');
    for (const i of [0, 1, 2]) expect(new URL(env[`NATS_ROUTE_${i}`]).username).toBe('route');
  });
});

/** servers a live test started (killed by their handles after the file) and their directories */
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const until = async (f: () => Promise<boolean> | boolean, ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (
      await Promise.resolve()
        .then(f)
        .catch(() => false)
    )
      return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
};

describe('NATS cluster routes, live: two servers with the rendered configuration', () => {
  const bin = findNatsServer();

  const routes = async (monitor: number) =>
    ((await (await fetch(`http://127.0.0.1:${monitor}/routez`)).json()) as { num_routes: number }).num_routes;
  const start = (conf: string, env: Record<string, string>) => {
    let log = '';
    const child = spawn(bin as string, ['-c', conf], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr?.on('data', (d) => (log += d));
    child.stdout?.on('data', (d) => (log += d));
    children.push(child);
    return () => log;
  };

  it.skipIf(!bin)(
    'the servers join each other; one without the route password is refused',
    async () => {
      const ports = await Promise.all(Array.from({ length: 9 }, () => freePort()));
      const [c0, c1, c2, m0, m1, m2, r0, r1, r2] = ports;
      const password = 'a1b2c3d4e5f6a1b2c3d4e5f6';
      const server = (i: number, client: number, monitor: number, route: number) => {
        const dir = mkdtempSync(path.join(tmpdir(), `od-nats-route-${i}-`));
        dirs.push(dir);
        writeNatsFiles(dir, k8s, bin as string, (t) =>
          t
            .replace(/^port: 4222$/m, `port: ${client}`)
            .replace(/^http_port: 8222$/m, `http_port: ${monitor}`)
            .replace(/^ {2}port: 6222$/m, `  port: ${route}`)
            .replace('store_dir: /data/jetstream', `store_dir: ${dir}/js`)
            .replace('/var/run/nats/nats.pid', `${dir}/nats.pid`),
        );
        return dir;
      };
      const { env } = podEnv(k8s, (of(k8s, 'StatefulSet', 'nats') as K8sObject).spec.template);
      const base = {
        ...fill(env),
        NATS_ROUTE_PASSWORD: password,
        NATS_ROUTE_0: `nats://route:${password}@127.0.0.1:${r0}`,
        NATS_ROUTE_1: `nats://route:${password}@127.0.0.1:${r1}`,
        NATS_ROUTE_2: `nats://route:${password}@127.0.0.1:${r2}`,
      };
      start(path.join(server(0, c0, m0, r0), 'nats.conf'), { ...base, SERVER_NAME: 'nats-0' });
      start(path.join(server(1, c1, m1, r1), 'nats.conf'), { ...base, SERVER_NAME: 'nats-1' });
      expect(await until(async () => (await routes(m0)) >= 1, 20_000)).toBe(true);
      // the third server has the configuration and the certificates but a wrong route password
      const wrong = 'ffffffffffffffffffffffff';
      const log = start(path.join(server(2, c2, m2, r2), 'nats.conf'), {
        ...base,
        SERVER_NAME: 'nats-2',
        NATS_ROUTE_PASSWORD: wrong,
        NATS_ROUTE_0: `nats://route:${wrong}@127.0.0.1:${r0}`,
        NATS_ROUTE_1: `nats://route:${wrong}@127.0.0.1:${r1}`,
        NATS_ROUTE_2: `nats://route:${wrong}@127.0.0.1:${r2}`,
      });
      expect(await until(() => /Authorization Violation|authentication error/i.test(log()), 20_000)).toBe(
        true,
      );
      expect(await routes(m0)).toBe(1);
      expect(await routes(m2)).toBe(0);
    },
    60_000,
  );
});

describe('PostgreSQL roles, live: deploy/postgres/roles.sql, then each service migrates as its role', () => {
  const hasPsql = spawnSync('psql', ['--version']).status === 0;
  it.skipIf(!hasPsql)(
    'each role owns its schema and its tables, and cannot reach another schema or create one',
    async () => {
      const db = await freshDatabase();
      // roles are cluster-wide: this run's own names, so parallel runs and real roles are not touched
      const tag = `odt${randomBytes(4).toString('hex')}`;
      const role = (s: string) => `${tag}_${s}`;
      const dbServices = SERVICE_NAMES.filter((s) => SERVICE_LINKS[s].includes('DATABASE_URL'));
      const sql = readFileSync(path.join(ROOT, 'deploy/postgres/roles.sql'), 'utf8').replace(
        /\bod_(auth|catalog|orders|feed|webhook|panel)\b/g,
        (_, s: string) => role(s),
      );
      const urlAs = (r: string) => {
        const u = new URL(db.url);
        u.username = r;
        return u.toString();
      };
      const query = async (url: string, text: string) => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          return await c.query(text);
        } finally {
          await c.end();
        }
      };
      try {
        const vars = dbServices.flatMap((s) => ['-v', `${s}_password=pw-${s}`]);
        const run = spawnSync('psql', [db.url, '-q', '-v', 'ON_ERROR_STOP=1', ...vars, '-f', '-'], {
          input: sql,
          encoding: 'utf8',
        });
        expect(run.stderr).toBe('');
        for (const s of dbServices) {
          const applied = await migrate({
            databaseUrl: urlAs(role(s)),
            schema: s,
            dir: path.join(ROOT, 'services', s, 'prisma', 'migrations'),
          });
          expect(applied.length, s).toBeGreaterThan(0);
        }
        const owners = await query(
          db.url,
          `SELECT schemaname, tableowner FROM pg_tables WHERE schemaname = ANY('{${dbServices.join(',')}}')`,
        );
        for (const r of owners.rows) expect(r.tableowner, r.schemaname).toBe(role(r.schemaname));
        const auth = urlAs(role('auth'));
        await expect(query(auth, 'SELECT 1 FROM catalog.merchants')).rejects.toThrow(
          /permission denied for schema catalog/,
        );
        await expect(query(auth, 'CREATE TABLE public.planted (id int)')).rejects.toThrow(
          /permission denied/,
        );
        await expect(query(auth, 'CREATE SCHEMA planted')).rejects.toThrow(/permission denied/);
        await expect(query(auth, 'DROP TABLE orders.orders')).rejects.toThrow(
          /permission denied|must be owner/,
        );
      } finally {
        await db.drop();
        await query(
          db.url.replace(/\/[^/]*$/, '/postgres'),
          dbServices.map((s) => `DROP ROLE IF EXISTS ${role(s)};`).join(' '),
        ).catch(() => {});
      }
    },
    60_000,
  );
});

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

describe('docker-compose.yml: least privilege', () => {
  const compose = readCompose();
  const services = compose.services as Record<string, any>;
  const envOf = (s: string) =>
    Object.fromEntries(
      Object.entries(services[s].environment as Record<string, string>).map(([k, v]) => [
        k,
        composeDefaults(String(v)),
      ]),
    );

  it('publishes only the public API and the panel; everything else on loopback or nowhere', () => {
    const published = Object.entries(services).flatMap(([name, s]) =>
      (s.ports ?? []).map((p: string) => ({ name, port: String(p) })),
    );
    const open = published.filter((p) => !p.port.startsWith('127.0.0.1:'));
    expect(open).toEqual([
      { name: 'panel', port: '8082:8082' },
      { name: 'gateway', port: '8080:8080' },
    ]);
    expect(published).toContainEqual({ name: 'gateway', port: '127.0.0.1:8081:8081' });
    for (const s of ['postgres', 'redis']) {
      expect(services[s].ports, s).toBeUndefined();
      expect(services[s].networks, s).toEqual(['backend']);
    }
    expect(compose.networks.backend.internal).toBe(true);
  });

  it('PostgreSQL and Redis require passwords (trust only in the loopback dev profile)', () => {
    const pg = services.postgres.environment;
    expect(pg.POSTGRES_HOST_AUTH_METHOD).toBe('scram-sha-256');
    expect(pg.POSTGRES_INITDB_ARGS).toContain('--auth-host=scram-sha-256');
    for (const [name, s] of Object.entries(services))
      if (s.environment?.POSTGRES_HOST_AUTH_METHOD === 'trust') {
        expect(s.profiles, name).toEqual(['dev']);
        for (const p of s.ports) expect(p, name).toMatch(/^127\.0\.0\.1:/);
      }
    const redis = (services.redis.command as string[]).join(' ');
    expect(redis).toContain('--user default off');
    for (const s of ['gateway', 'panel'])
      expect(redis).toMatch(new RegExp(`--user ${s} on >\\$\\{REDIS_PASSWORD_${s.toUpperCase()}`));
  });

  it.skipIf(!hasRedisServer)(
    "Redis, live with the file's command: no default user; gateway and panel each on their keys",
    async () => {
      const port = await freePort();
      const command = (services.redis.command as string[]).map(composeDefaults);
      const child = spawn(command[0], [...command.slice(1), '--port', String(port), '--bind', '127.0.0.1'], {
        stdio: 'ignore',
      });
      children.push(child);
      const as = (url: string | undefined, ...args: string[]) => {
        const u = url ? new URL(url) : undefined;
        const auth = u ? ['--user', u.username, '--pass', decodeURIComponent(u.password)] : [];
        const r = spawnSync('redis-cli', ['-p', String(port), '--no-auth-warning', ...auth, ...args], {
          encoding: 'utf8',
        });
        return r.stdout.trim();
      };
      const gateway = envOf('gateway').REDIS_URL;
      const panel = envOf('panel').REDIS_URL;
      expect(await until(() => as(gateway, 'PING') === 'PONG', 10_000)).toBe(true);
      expect(as(undefined, 'SET', 'od:rl:x', '1')).toMatch(/NOAUTH/);
      expect(as(gateway, 'SET', 'od:rl:x', '1')).toBe('OK');
      expect(as(gateway, 'EVAL', "return redis.call('incr', KEYS[1])", '1', 'od:idem:y')).toBe('1');
      expect(as(gateway, 'SET', 'elsewhere', '1')).toMatch(/NOPERM/);
      expect(as(gateway, 'FLUSHALL')).toMatch(/NOPERM/);
      expect(as(gateway, 'CONFIG', 'GET', 'requirepass')).toMatch(/NOPERM/);
      expect(as(gateway, 'INFO', 'server')).toMatch(/redis_version/);
      // the panel: its sign-in counters only, not the gateway's limits or idempotency records
      expect(as(panel, 'INCR', 'od:panel:signin:ip:1.2.3.4')).toBe('1');
      expect(as(panel, 'GET', 'od:rl:x')).toMatch(/NOPERM/);
    },
  );

  it('each service container gets only its keys, its own database role and Redis user', () => {
    for (const s of SERVICE_NAMES) {
      const env = envOf(s);
      expect(keysOf(env), s).toEqual(expected(s));
      expect(env.NATS_USER, s).toBe(s);
      for (const link of ['DATABASE_URL', 'REDIS_URL'] as const)
        expect(env[link] !== undefined, `${s} ${link}`).toBe(SERVICE_LINKS[s].includes(link));
      if (env.DATABASE_URL) {
        const url = new URL(env.DATABASE_URL);
        expect([url.username, url.password !== ''], s).toEqual([`od_${s}`, true]);
      }
      if (env.REDIS_URL) {
        const url = new URL(env.REDIS_URL);
        expect([url.username, url.password !== ''], s).toEqual([s, true]);
      }
      // production refuses plain http:// public addresses: the file's defaults are https:// placeholders
      expect(new URL(env.PUBLIC_BASE_URL).protocol, s).toBe('https:');
    }
    // the database gets the same role passwords the services connect with
    const pg = services.postgres.environment;
    for (const s of SERVICE_NAMES.filter((x) => SERVICE_LINKS[x].includes('DATABASE_URL')))
      expect(services[s].environment.DATABASE_URL).toContain(`\${DB_PASSWORD_${s.toUpperCase()}:-`);
    expect(Object.keys(pg).filter((k) => k.startsWith('DB_PASSWORD_')).length).toBe(6);
  });
});
