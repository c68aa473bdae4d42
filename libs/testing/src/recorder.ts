import type { TestStack } from './stack.ts';

/** One HTTP exchange with the public listener, as sent and as answered (a contract check's input). */
export interface RecordedExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

/**
 * `stack.api` that keeps every exchange (contract tests validate them all against the published
 * document). Bodies must be strings (JSON or form text) so what was sent is what is recorded.
 */
export function recordingApi(stack: TestStack) {
  const exchanges: RecordedExchange[] = [];
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
  return { api, exchanges };
}
