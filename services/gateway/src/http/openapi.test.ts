import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ACK_MAX_ENTRIES,
  BYTES,
  businessErrorSchema,
  COUNT,
  internalErrorSchema,
  MAX_CANCELLATION_REASON,
  ORDER_ACTIONS,
  oauthErrorSchema,
  problemDetailsSchema,
  serviceUnavailableSchema,
  TEXT,
  validationProblemSchema,
} from '@od/contracts';
import { errors } from '@od/errors';
import { describe, expect, it } from 'vitest';
import { globalRegistry, ZodType } from 'zod';
import { SPEC_REVISION_DATE } from './openapi.ts';
import { openApiFiles } from './openapi-documents.ts';

const docs = path.resolve(import.meta.dirname, '../../../../docs');
const files = await openApiFiles();
const doc = (name: string) => JSON.parse(files[name]);

describe('OpenAPI documents', () => {
  it('docs/openapi.json and docs/openapi-admin.json are what the routes generate (run `pnpm openapi`)', () => {
    for (const [name, text] of Object.entries(files))
      expect(readFileSync(path.join(docs, name), 'utf8'), `docs/${name} is stale`).toBe(text);
  });

  it('names its components in sorted order, whatever order the schemas were registered in', () => {
    for (const name of Object.keys(files)) {
      const names = Object.keys(doc(name).components.schemas ?? {});
      expect(names, name).toEqual([...names].sort());
    }
    expect(Object.keys(doc('openapi.json').components.schemas).length).toBeGreaterThan(10);
  });

  it('info carries version 1.4.0 and the revision date marker (SPEC Versioning)', () => {
    for (const name of Object.keys(files)) {
      const { info } = doc(name);
      expect(info.version).toBe('1.4.0');
      expect(info['x-revision-date']).toBe(SPEC_REVISION_DATE);
      expect(info.description).toContain(SPEC_REVISION_DATE);
    }
    expect(SPEC_REVISION_DATE).toBe('2026-09-19');
  });

  it('shows the input limits: maxLength / maxItems of bodies and strings', () => {
    const pub = doc('openapi.json');
    const body = (p: string, m = 'post') => pub.paths[p][m].requestBody.content['application/json'].schema;
    expect(body('/v1/events/acknowledgment').maxItems).toBe(ACK_MAX_ENTRIES);
    const cancel = body('/v1/orders/{orderId}/requestCancellation').properties.reason;
    expect(JSON.stringify(cancel)).toContain(`"maxLength":${MAX_CANCELLATION_REASON}`);
    const admin = JSON.stringify(doc('openapi-admin.json').paths);
    for (const n of [TEXT.name, TEXT.note, TEXT.url, TEXT.reason])
      expect(admin).toContain(`"maxLength":${n}`);
    for (const n of [COUNT.orderItems, COUNT.itemOptions, COUNT.menuItems, COUNT.menuOptionGroups])
      expect(admin).toContain(`"maxItems":${n}`);
    expect(JSON.stringify(pub.paths)).toContain(String(BYTES.publicBody / 1024));
  });

  it('documents every public answer: Order, 202 actions, 503 and 429 with Retry-After, 401 with WWW-Authenticate', () => {
    const pub = doc('openapi.json');
    const ops = Object.entries(pub.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item).map(([method, op]: [string, any]) => ({ path, method, op })),
    );
    const res = (path: string, method: string, status: number) =>
      pub.paths[path][method].responses[String(status)];
    const schemaRef = (r: any) => r.content['application/json'].schema.$ref;
    expect(schemaRef(res('/v1/orders/{orderId}', 'get', 200))).toBe('#/components/schemas/Order');
    expect(pub.components.schemas.Order.required).toEqual(
      expect.arrayContaining(['id', 'items', 'total', 'test']),
    );
    for (const a of ORDER_ACTIONS) {
      const path = `/v1/orders/{orderId}/${a}`;
      expect(schemaRef(res(path, 'post', 202))).toBe('#/components/schemas/ActionResponse');
      expect(res(path, 'post', 200)).toBeUndefined();
      for (const s of [400, 401, 403, 404, 409, 422, 429, 500, 503])
        expect(res(path, 'post', s), `${a} ${s}`).toBeDefined();
      expect(pub.paths[path].post.parameters.map((p: any) => p.name)).toContain('Idempotency-Key');
    }
    for (const { path, method, op } of ops) {
      if (!op.security?.length) continue;
      for (const s of ['429', '503'])
        expect(op.responses[s].headers['Retry-After'], `${method} ${path} ${s}`).toBeDefined();
      expect(op.responses['401'].headers['WWW-Authenticate']).toBeDefined();
    }
    expect(res('/oauth/token', 'post', 503).headers['Retry-After']).toBeDefined();
    expect(JSON.stringify(pub.components.schemas.ServiceUnavailable)).toContain('service_unavailable');
    expect(schemaRef(res('/v1/events/acknowledgment', 'post', 202))).toBe(
      '#/components/schemas/Acknowledgment',
    );
  });

  it('marks the extensions: operations and schemas carry x-extension', () => {
    const pub = doc('openapi.json');
    expect(pub.paths['/v1/orders/{orderId}/startPreparation'].post['x-extension']).toBe(true);
    expect(pub.paths['/v1/orders/{orderId}/pickedUp'].post['x-extension']).toBe(true);
    expect(pub.paths['/v1/orders/{orderId}/confirm'].post['x-extension']).toBeUndefined();
    expect(pub.paths['/v1/events/:polling'].get['x-extension']).toBe(true);
    expect(pub.components.schemas.ActionResponse['x-extension']).toBe(true);
    expect(pub.info.description).toContain('x-extension');
  });

  it('the error catalogue builds bodies the documented schemas accept', () => {
    const cases: [unknown, { safeParse(x: unknown): { success: boolean } }][] = [
      [errors.orderNotFound().body, businessErrorSchema],
      [errors.invalidTransition('DONE', 'confirm').body, businessErrorSchema],
      [errors.rateLimited().body, businessErrorSchema],
      [errors.notFound('t').body, problemDetailsSchema],
      [errors.validation({ limit: ['x'] }, 't').body, validationProblemSchema],
      [errors.invalidClient().body, oauthErrorSchema],
      [errors.tokenUnavailable().body, oauthErrorSchema],
      [errors.internal('t').body, internalErrorSchema],
      [errors.unavailable('t').body, serviceUnavailableSchema],
    ];
    for (const [body, schema] of cases)
      expect(schema.safeParse(body).success, JSON.stringify(body)).toBe(true);
    expect(errors.unavailable('t').headers?.['Retry-After']).toBe('1');
    expect(errors.tokenUnavailable().headers?.['Retry-After']).toBe('1');
  });

  it('every example of a contract schema is valid against that schema', async () => {
    const c = await import('@od/contracts');
    const schemas = (Object.values(c) as unknown[]).filter((v): v is ZodType => {
      if (!(v instanceof ZodType)) return false;
      const meta = globalRegistry.get(v);
      return !!meta && 'example' in meta;
    });
    expect(schemas.length).toBeGreaterThanOrEqual(8);
    for (const schema of schemas) {
      const { id, example } = globalRegistry.get(schema) as { id: string; example: unknown };
      const r = schema.safeParse(example);
      expect(r.success, `${id}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
    }
    expect(doc('openapi.json').components.schemas.Order.example.id).toBeDefined();
  });
});
