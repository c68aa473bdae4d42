import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';

/**
 * Validates response bodies against the official Open Delivery 1.4.0 document shipped in this
 * package (src/spec/opendelivery-1.4.0.yaml, verbatim). Used by the tests and by catalog (a point of
 * sale's Merchant document). The platform's
 * OPEN_DELIVERY responses are checked with it, so "the standard's shape" is the standard's file,
 * not our reading of it. Formats `uuid`, `date-time`, `uri` and `email` are enforced; the
 * document's informal ones (`decimal`, `float`, `URL`, ...) are accepted as written.
 *
 * The document itself does not pass a strict OpenAPI 3.0 check (a few schema objects carry stray
 * keys), so it is loaded without that check (`quick`). The event schema's `discriminator` maps each
 * eventType to a schema that includes the Event schema again, which JSON Schema validators cannot
 * follow; `event()` applies that mapping itself (e.g. CANCELLED requires `metadata.reason/code`).
 */
// resolved through the package's exports, so a service bundle (dist/) finds it too
export const OD_SPEC_PATH = createRequire(import.meta.url).resolve(
  '@od/opendelivery/spec/opendelivery-1.4.0.yaml',
);
const INFORMAL_FORMATS = [
  'decimal',
  'float',
  'double',
  'int32',
  'int64',
  'URL',
  'url',
  'binary',
  'byte',
  'CRC32',
  'SHA256',
];

export interface OdValidator {
  /** errors (empty when valid) of `body` as the `status` response of the standard's `operationId` */
  response(operationId: string, status: number, body: unknown): string[];
  /** errors of one event envelope against the schema its eventType maps to */
  event(body: unknown): string[];
}

type AnyAjv = InstanceType<typeof Ajv>;
/** ajv-formats plus the informal formats of the official document, accepted as written. */
export function withFormats(ajv: AnyAjv, addFormats: unknown): AnyAjv {
  (addFormats as (a: AnyAjv) => void)(ajv);
  for (const f of INFORMAL_FORMATS) if (!ajv.formats[f]) ajv.addFormat(f, true);
  return ajv;
}

function stripDiscriminators(node: unknown, seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  delete (node as Record<string, unknown>).discriminator;
  for (const v of Object.values(node)) stripDiscriminators(v, seen);
}

const describe = (e: { instancePath?: string; message?: string; params?: unknown }) =>
  `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`;

export async function odValidator(): Promise<OdValidator> {
  // loaded on first use: these modules weigh ~27 MB, and catalog needs them only when a point of
  // sale is read
  const [{ OpenAPIBackend }, { Ajv }, { default: addFormats }] = await Promise.all([
    import('openapi-backend'),
    import('ajv'),
    import('ajv-formats'),
  ]);
  const api = new OpenAPIBackend({
    definition: OD_SPEC_PATH,
    quick: true,
    customizeAjv: (ajv) => withFormats(ajv as unknown as AnyAjv, addFormats) as unknown as typeof ajv,
  });
  await api.init();
  const schemas = (api.definition as { components: { schemas: Record<string, any> } }).components.schemas;
  const mapping: Record<string, string> = { ...schemas.Event.discriminator.mapping };
  const eventSchemas = structuredClone(
    Object.fromEntries(
      Object.entries(mapping).map(([t, ref]) => [t, schemas[ref.split('/').pop() as string]]),
    ),
  );
  stripDiscriminators(eventSchemas);
  const ajv = withFormats(new Ajv({ strict: false, allErrors: true }), addFormats);
  const byType = new Map(Object.entries(eventSchemas).map(([t, s]) => [t, ajv.compile(s)]));
  return {
    response(operationId, status, body) {
      const r = api.validator.validateResponse(body, operationId, status);
      return (r.errors ?? []).map(describe);
    },
    event(body) {
      const type = (body as { eventType?: unknown })?.eventType;
      const validate = typeof type === 'string' ? byType.get(type) : undefined;
      if (!validate) return [`/eventType unknown to the standard: ${String(type)}`];
      return validate(body) ? [] : (validate.errors ?? []).map(describe);
    },
  };
}
