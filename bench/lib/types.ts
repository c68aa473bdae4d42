/**
 * The benchmark harness's extension surface. A file `bench/<area>-*.ts` (or `bench/limiter.ts`)
 * adds figures by exporting any of:
 *   export const scenarios: Scenario[]          export const scenario: Scenario
 *   export default scenario | scenarios          export async function benchSomething(ctx: BenchContext)
 * `bench/run.ts` discovers them, runs them after the core scenarios, and reports each figure
 * beside bare fastify. A scenario that throws is reported as failed; the run goes on.
 */

/** One line of the report. Throughput figures carry reqPerSec; latency-only figures leave it out. */
export interface Figure {
  name: string;
  reqPerSec?: number;
  p50Ms?: number;
  p99Ms?: number;
  /** reqPerSec / bare fastify req/s of the same run (filled in by the harness) */
  ratio?: number;
  /** responses that were not 2xx, and connection errors/timeouts, during the load */
  non2xx?: number;
  errors?: number;
  /** peak RSS (VmHWM, MB) of every stack process right after this figure */
  peakRssMb?: Record<string, number>;
  /** anything else worth printing (e.g. events per poll, rate used) */
  extra?: Record<string, number | string | boolean>;
}

export interface LoadOptions {
  /** path on the public listener (default) or a full URL */
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** several requests cycled by each connection (autocannon `requests`); overrides method/body */
  requests?: import('autocannon').Request[];
  /** seconds; default from --duration */
  duration?: number;
  /** default from --connections (50) */
  connections?: number;
  /**
   * a fixed total rate in req/s, evenly paced and open-loop (bench/lib/paced.ts; with `requests`,
   * autocannon's bursty overallRate is used instead); unset = autocannon as fast as possible
   */
  overallRate?: number;
  /** seconds of unmeasured load first (JIT, pools); default 1 */
  warmup?: number;
}

export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
}

export interface Credential {
  merchantId: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string | null;
  /** bearer token from POST /oauth/token */
  token: string;
}

export interface BenchContext {
  publicUrl: string;
  adminUrl: string;
  /** the bare fastify hello-world of this run (GET / answers), for a same-conditions reference */
  bareUrl: string;
  options: { duration: number; connections: number };
  /** fetch on the public listener (path relative) */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** Admin API call; throws on non-2xx; parsed JSON back */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** a new test store (with the sample menu) and a credential on it, with a token */
  credential(opts?: {
    scopes?: string[];
    deliveryMode?: 'POLLING' | 'WEBHOOK' | 'BOTH';
    webhookUrl?: string;
    includeMarketplaceOrders?: boolean;
    merchantId?: string;
  }): Promise<Credential>;
  /** runs autocannon against the public listener */
  load(opts: LoadOptions): Promise<LoadResult>;
  /** load() and record the result as a figure */
  measure(name: string, opts: LoadOptions, extra?: Figure['extra']): Promise<Figure>;
  /** records a figure measured some other way (latency samples, ...) */
  record(figure: Figure): Figure;
  /**
   * Restarts the gateway with extra env (e.g. { RATE_LIMIT_ENABLED: 'true' }), runs fn, then restores
   * it. Throws when the harness does not own the stack (--url).
   */
  withGatewayEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T>;
  log(message: string): void;
  /** the stack's NATS server and name prefix (for figures read off JetStream) */
  nats: { url: string; prefix: string };
}

export interface Scenario {
  name: string;
  run(ctx: BenchContext): Promise<unknown>;
}

/** p50/p99 of latency samples in ms. */
export function percentiles(samples: number[]): { p50Ms: number; p99Ms: number; count: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : Number.NaN);
  return { p50Ms: at(0.5), p99Ms: at(0.99), count: s.length };
}
