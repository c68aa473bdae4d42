import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ACK_MAX_ENTRIES, BYTES, COUNT, MAX_CANCELLATION_REASON, TEXT } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import { openApiFiles, SPEC_REVISION_DATE } from './openapi.ts';

const docs = path.resolve(import.meta.dirname, '../../../../docs');
const files = await openApiFiles();
const doc = (name: string) => JSON.parse(files[name]);

describe('OpenAPI documents', () => {
  it('docs/openapi.json and docs/openapi-admin.json are what the routes generate (run `pnpm openapi`)', () => {
    for (const [name, text] of Object.entries(files))
      expect(readFileSync(path.join(docs, name), 'utf8'), `docs/${name} is stale`).toBe(text);
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
});
