import { withFormats } from './validator.ts';

/**
 * A contract check of real HTTP exchanges against a published OpenAPI document (the platform's
 * docs/openapi.json, or the official Open Delivery 1.4.0 YAML), with openapi-backend (Ajv): the
 * request must match an operation of the document, and pass its parameter and body validation
 * unless it was refused (a 4xx or 5xx to a request the document calls invalid is right); the
 * response status must be documented for that operation, its media type declared and its body
 * valid against the documented schema (and its headers against the documented headers). The only
 * rule of our own: an empty body is accepted where the document declares no content, and on a 401
 * carrying `WWW-Authenticate` (SPEC: "401, empty body, header WWW-Authenticate", which no
 * document can express next to the 401 that has a body); and a header parameter of type array is
 * split at commas before validation (openapi-backend does not apply OpenAPI's "simple" style).
 * Used by the contract tests (tests/contract-*.test.ts); see docs/api.md "The contract is checked".
 */
export interface Exchange {
  method: string;
  /** path with its query string, as requested */
  url: string;
  requestHeaders: Record<string, string>;
  /** the request body as sent (JSON text, form text) or undefined */
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

export interface ContractValidator {
  /** violations of one exchange (empty when it follows the document) */
  check(x: Exchange): string[];
  /** the operationId an exchange matches, undefined when the document has none */
  operationOf(x: Pick<Exchange, 'method' | 'url' | 'requestHeaders'>): string | undefined;
}

type Operation = {
  operationId?: string;
  parameters?: { in: string; name: string; schema?: { type?: string } }[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
};

export async function contractValidator(definition: string | object): Promise<ContractValidator> {
  const [{ OpenAPIBackend }, { default: addFormats }] = await Promise.all([
    import('openapi-backend'),
    import('ajv-formats'),
  ]);
  const api = new OpenAPIBackend({
    definition: definition as string,
    quick: true,
    validate: true,
    customizeAjv: (ajv) => withFormats(ajv as never, addFormats) as unknown as typeof ajv,
  });
  await api.init();

  const request = (x: Pick<Exchange, 'method' | 'url' | 'requestHeaders'> & { requestBody?: string }) => {
    const [path, query = ''] = x.url.split('?');
    const q: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(query)) q[k] = k in q ? [...[q[k]].flat(), v] : v;
    let body: unknown = x.requestBody;
    const type = x.requestHeaders['content-type'] ?? '';
    if (x.requestBody && /json/.test(type)) {
      try {
        body = JSON.parse(x.requestBody);
      } catch {}
    } else if (x.requestBody && type.startsWith('application/x-www-form-urlencoded')) {
      body = Object.fromEntries(new URLSearchParams(x.requestBody));
    }
    return {
      method: x.method.toLowerCase(),
      path,
      query: q,
      headers: { ...x.requestHeaders } as Record<string, string | string[]>,
      body,
    };
  };
  const operationOf: ContractValidator['operationOf'] = (x) =>
    (api.router.matchOperation(request(x)) as Operation | undefined)?.operationId;

  return {
    operationOf,
    check(x) {
      const where = `${x.method} ${x.url} -> ${x.status}`;
      const req = request(x);
      const op = api.router.matchOperation(req) as (Operation & object) | undefined;
      if (!op?.operationId) return [`${where}: no such operation in the document`];
      // a header parameter of type array travels comma separated (OpenAPI style "simple"), which
      // openapi-backend does not split (e.g. the standard's x-polling-merchants)
      for (const p of op.parameters ?? [])
        if (p.in === 'header' && p.schema?.type === 'array' && typeof req.headers[p.name] === 'string')
          req.headers[p.name] = (req.headers[p.name] as string).split(',').map((v) => v.trim());
      const out: string[] = [];
      // a request the document calls invalid must be refused (4xx); one it calls valid must not
      // be answered as invalid by a document that accepted it: only the first is checkable here
      const r = api.validator.validateRequest(req, op as never);
      if (x.status < 400)
        for (const e of r.errors ?? []) out.push(`${where}: request ${e.instancePath || '/'} ${e.message}`);
      const documented = op.responses?.[String(x.status)] ?? op.responses?.default;
      if (!documented)
        return [...out, `${where}: status ${x.status} is not documented for ${op.operationId}`];
      const declared = Object.keys(documented.content ?? {});
      const type = (x.responseHeaders['content-type'] ?? '').split(';')[0].trim();
      if (x.responseBody === '') {
        const emptyAllowed =
          declared.length === 0 || (x.status === 401 && !!x.responseHeaders['www-authenticate']);
        if (!emptyAllowed) out.push(`${where}: empty body, the document declares ${declared.join(', ')}`);
        return out;
      }
      if (declared.length === 0) return [...out, `${where}: a body where the document declares none`];
      if (!declared.includes(type))
        out.push(`${where}: media type ${type || '(none)'} not in ${declared.join(', ')}`);
      let body: unknown;
      try {
        body = JSON.parse(x.responseBody);
      } catch {
        return [...out, `${where}: body is not JSON`];
      }
      const v = api.validator.validateResponse(body, op as never, x.status);
      for (const e of v.errors ?? [])
        out.push(`${where}: response ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
      const h = api.validator.validateResponseHeaders(x.responseHeaders, op as never, {
        statusCode: x.status,
        setMatchType: 'superset' as never,
      });
      for (const e of h.errors ?? []) out.push(`${where}: header ${e.instancePath || '/'} ${e.message}`);
      return out;
    },
  };
}
