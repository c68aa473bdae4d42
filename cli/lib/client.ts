/**
 * A thin client of the Admin API (DESIGN.md, "Admin API"): JSON in and out, `Authorization: Bearer
 * <ADMIN_TOKEN>`. Every non-2xx answer becomes an `AdminError` carrying the status and the body.
 */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }

  /** What odctl prints on stderr. */
  toJSON(): Record<string, unknown> {
    const b = this.body;
    if (b && typeof b === 'object' && !Array.isArray(b)) return { status: this.status, ...b };
    return { status: this.status, error: 'http_error', message: this.message, body: b ?? null };
  }
}

export interface AdminClient {
  readonly url: string;
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export function adminClient(opts: { url: string; token: string; timeoutMs?: number }): AdminClient {
  const base = opts.url.replace(/\/+$/, '');
  return {
    url: base,
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      let res: Response;
      try {
        res = await fetch(base + path, {
          method,
          headers: {
            authorization: `Bearer ${opts.token}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
        });
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        throw new AdminError(
          0,
          {
            error: 'connection_failed',
            message: `cannot reach the Admin API at ${base}: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
          },
          'connection failed',
        );
      }
      const text = await res.text();
      let parsed: unknown = null;
      if (text.length) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      if (!res.ok) {
        const msg =
          parsed && typeof parsed === 'object' && 'message' in parsed
            ? String((parsed as { message: unknown }).message)
            : `${method} ${path} answered ${res.status}`;
        throw new AdminError(res.status, parsed, msg);
      }
      // an empty success body (202 without content) still prints something useful
      return (text.length ? parsed : { status: res.status }) as T;
    },
  };
}
