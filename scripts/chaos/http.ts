// HTTP as an integrator and a channel see it: every answer (or network failure) is logged with its
// time, so the runner can tell 5xx inside fault windows from 5xx outside them. A gateway that does
// not answer at all (killed) is skipped for the next one, as a load balancer would.

export interface Answer {
  /** HTTP status, 0 = network error or client timeout */
  status: number;
  headers: Headers | undefined;
  body: unknown;
  ms: number;
}

export interface CallRecord {
  route: string;
  status: number;
  start: number;
  end: number;
}

/** above every server-side bound (RPC 5 s, idempotency wait 15 s): a timeout here is a hang */
const CLIENT_TIMEOUT_MS = 20_000;

export class Client {
  readonly calls: CallRecord[] = [];
  private next = 0;

  constructor(
    private readonly publicUrls: string[],
    private readonly adminUrls: string[],
    private readonly adminToken: string,
  ) {}

  private pick(urls: string[]): string[] {
    const i = this.next++ % urls.length;
    return [...urls.slice(i), ...urls.slice(0, i)];
  }

  private async send(urls: string[], route: string, path: string, init: RequestInit): Promise<Answer> {
    const start = Date.now();
    let last: Answer = { status: 0, headers: undefined, body: undefined, ms: 0 };
    // a refused connection (gateway replica down) goes to the next replica at once
    for (const base of this.pick(urls)) {
      try {
        const r = await fetch(base + path, { ...init, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
        const text = await r.text();
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {}
        last = { status: r.status, headers: r.headers, body, ms: Date.now() - start };
        break;
      } catch (e) {
        last = { status: 0, headers: undefined, body: (e as Error).message, ms: Date.now() - start };
        if (!/ECONNREFUSED/.test(String((e as Error & { cause?: Error }).cause ?? e))) break;
      }
    }
    this.calls.push({ route, status: last.status, start, end: Date.now() });
    return last;
  }

  api(route: string, path: string, token: string, init: RequestInit = {}): Promise<Answer> {
    return this.send(this.publicUrls, route, path, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  }

  admin(route: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.send(this.adminUrls, route, path, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  token(clientId: string, clientSecret: string): Promise<Answer> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId });
    form.set('client_secret', clientSecret);
    return this.send(this.publicUrls, 'token', '/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
  }
}

/** Whether an answer may be retried with the same request (SPEC: 429, 5xx, timeouts, network). */
export const retryable = (a: Answer) => a.status === 0 || a.status === 429 || a.status >= 500;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Repeats `call` while its answer is retryable (backoff 100 ms -> 1 s), up to `maxMs`. */
export async function untilAnswered(
  call: () => Promise<Answer>,
  maxMs = 120_000,
): Promise<{ answer: Answer; attempts: number; ambiguous: number }> {
  const until = Date.now() + maxMs;
  let attempts = 0;
  let ambiguous = 0;
  let delay = 100;
  for (;;) {
    const answer = await call();
    attempts++;
    if (!retryable(answer) || Date.now() > until) return { answer, attempts, ambiguous };
    // a network failure or timeout may have executed on the server: the retry must not double it
    if (answer.status === 0 || answer.status >= 500) ambiguous++;
    await sleep(delay + Math.random() * delay);
    delay = Math.min(1000, delay * 2);
  }
}
