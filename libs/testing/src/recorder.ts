import type { ContractValidator, Exchange } from '@od/opendelivery/contract';
import { expect } from 'vitest';
import type { TestStack } from './stack.ts';

export interface BearerInit {
  headers?: Record<string, string>;
  body?: string;
}

/**
 * `stack.api` that keeps every exchange (contract tests validate them all against the published
 * document). Bodies must be strings (JSON or form text) so what was sent is what is recorded.
 */
export function recordingApi(stack: TestStack) {
  const exchanges: Exchange[] = [];
  const api = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const requestHeaders = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    if (init.body !== undefined && typeof init.body !== 'string')
      throw new Error('recordingApi: string bodies only');
    const res = await stack.api(path, init);
    const responseBody = await res.text();
    exchanges.push({
      method: init.method ?? 'GET',
      url: path,
      requestHeaders,
      requestBody: init.body as string | undefined,
      status: res.status,
      responseHeaders: Object.fromEntries(res.headers),
      responseBody,
    });
    return new Response(res.status === 204 || responseBody === '' ? null : responseBody, {
      status: res.status,
      headers: res.headers,
    });
  };
  /** an authenticated call: `Authorization: Bearer <token>` over `init`'s headers */
  const call = (token: string, method: string, path: string, init: BearerInit = {}) =>
    api(path, { method, ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  return { api, call, exchanges };
}

/**
 * The verdict of a contract test: no exchange violates the document, and the exchanges reached
 * every `operationId status` of `expected` (so a cycle that silently skips a step fails too).
 */
export function expectContract(doc: ContractValidator, exchanges: Exchange[], expected: string[]): void {
  expect(exchanges.flatMap((x) => doc.check(x))).toEqual([]);
  const reached = new Set(exchanges.map((x) => `${doc.operationOf(x)} ${x.status}`));
  for (const op of expected) expect(reached, op).toContain(op);
}
