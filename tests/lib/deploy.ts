import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** What the deploy tests share: rendering the manifests, a pod's environment, the NATS files. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  [k: string]: any;
};

/** kubectl's built-in kustomize, as `kubectl apply -k` would render the tree. */
export function render(dir: string): K8sObject[] {
  const out = execFileSync('kubectl', ['kustomize', path.join(ROOT, dir)], { encoding: 'utf8' });
  return parseAllDocuments(out).map((d) => d.toJSON() as K8sObject);
}

export const of = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);

type PodTemplate = { metadata?: { labels?: Record<string, string> }; spec: { containers: any[] } };

/**
 * What a pod's process sees: its envFrom ConfigMaps and Secrets, then its env entries (literal,
 * secretKeyRef, or a pod label through fieldRef), each value with where it comes from (`secret/key`).
 */
export function podEnv(objects: K8sObject[], template: PodTemplate) {
  const find = (kind: string, name: string) => {
    const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
    if (!o) throw new Error(`${kind}/${name} is referenced but not in the manifests`);
    return (o.data ?? o.stringData ?? {}) as Record<string, string>;
  };
  const env: Record<string, string> = {};
  const from: Record<string, string> = {};
  const c = template.spec.containers[0];
  for (const f of c.envFrom ?? []) {
    const [kind, name] = f.configMapRef ? ['ConfigMap', f.configMapRef.name] : ['Secret', f.secretRef.name];
    for (const [k, v] of Object.entries(find(kind, name))) {
      env[k] = v;
      from[k] = `${name}/${k}`;
    }
  }
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    const label = /^metadata\.labels\['(.+)'\]$/.exec(e.valueFrom?.fieldRef?.fieldPath ?? '');
    if (ref) {
      env[e.name] = find('Secret', ref.name)[ref.key];
      from[e.name] = `${ref.name}/${ref.key}`;
    } else if (label) env[e.name] = template.metadata?.labels?.[label[1]] as string;
    // Kubernetes expands $(VAR) from the variables defined before it
    else if ('value' in e)
      env[e.name] = e.value.replace(/\$\((\w+)\)/g, (_: string, v: string) => env[v] ?? '');
  }
  return { env, from };
}

/** an operator fills in the template: every REPLACE_ME by a value (placeholders keep the real shape) */
export const fill = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replaceAll('REPLACE_ME', 'XXXXXXXXXX')]));

/** nats.conf and authorization.conf of the cluster, as the ConfigMap holds them */
export const natsFiles = (objects: K8sObject[]) =>
  objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('nats-config'))?.data as Record<
    string,
    string
  >;

const TEST_CA = path.join(ROOT, 'libs/testing/certs');
/**
 * Writes the cluster's NATS files into `dir`, runnable by a local nats-server: certificate paths
 * point at a fresh server certificate for 127.0.0.1/localhost (server and client use, for routes)
 * signed by the test CA, and settings an older local server lacks (2.10's sync_interval) dropped.
 */
export function writeNatsFiles(
  dir: string,
  objects: K8sObject[],
  bin: string,
  edit = (t: string) => t,
): void {
  const version = /v(\d+)\.(\d+)/.exec(execFileSync(bin, ['-v'], { encoding: 'utf8' }));
  const old = version && Number(version[1]) === 2 && Number(version[2]) < 10;
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  writeFileSync(
    path.join(dir, 'ext.cnf'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'tls.key',
    '-out',
    'tls.csr',
    '-subj',
    '/CN=nats',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'tls.csr',
    '-CA',
    path.join(TEST_CA, 'ca.pem'),
    '-CAkey',
    path.join(TEST_CA, 'ca-key.pem'),
    '-CAcreateserial',
    '-CAserial',
    path.join(dir, 'ca.srl'),
    '-out',
    'tls.crt',
    '-days',
    '1',
    '-extfile',
    'ext.cnf',
  );
  writeFileSync(path.join(dir, 'ca.crt'), readFileSync(path.join(TEST_CA, 'ca.pem')));
  for (const [name, text] of Object.entries(natsFiles(objects))) {
    let t = text.replaceAll('/etc/nats-tls/', `${dir}/`);
    if (old) t = t.replace(/^\s*sync_interval:.*$/m, '');
    writeFileSync(path.join(dir, name), edit(t));
  }
}

/** docker-compose.yml with YAML merge keys resolved */
export const readCompose = () =>
  parseAllDocuments(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true })[0].toJSON();

/** `${VAR:-default}` as Compose interpolates it with VAR unset */
export const composeDefaults = (v: string) => v.replace(/\$\{\w+:-([^}]*)\}/g, '$1');
