import { sampleMenu } from '../../cli/lib/samples.ts';
import { accessToken } from './credential.ts';
import { load } from './load.ts';
import type { ProcessStack } from './stack.ts';
import type { BenchContext, Credential, Figure, LoadOptions } from './types.ts';

const ALL_SCOPES = ['orders:read', 'orders:write', 'merchant:read', 'catalog:read'];

export interface Harness {
  ctx: BenchContext;
  figures: Figure[];
  /** req/s of bare fastify in this run (ratios are computed against it) */
  setBare(reqPerSec: number): void;
}

export function createHarness(opts: {
  publicUrl: string;
  adminUrl: string;
  adminToken: string;
  bareUrl: string;
  duration: number;
  connections: number;
  stack: ProcessStack | null;
  log: (m: string) => void;
  nats: { url: string; prefix: string };
}): Harness {
  const figures: Figure[] = [];
  let bare = Number.NaN;
  const defaults = { duration: opts.duration, connections: opts.connections };

  const peakRss = (): Record<string, number> | undefined => opts.stack?.peakRss();

  const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await fetch(opts.adminUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${opts.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`admin ${method} ${path} answered ${r.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };

  const record = (f: Figure): Figure => {
    const fig: Figure = { ...f };
    if (fig.reqPerSec !== undefined && fig.ratio === undefined && bare > 0) fig.ratio = fig.reqPerSec / bare;
    if (!fig.peakRssMb) fig.peakRssMb = peakRss();
    figures.push(fig);
    opts.log(
      `  ${fig.name}: ${fig.reqPerSec !== undefined ? `${fig.reqPerSec} req/s, ` : ''}p50 ${fig.p50Ms} ms, p99 ${fig.p99Ms} ms` +
        (fig.non2xx || fig.errors ? ` (non-2xx ${fig.non2xx ?? 0}, errors ${fig.errors ?? 0})` : ''),
    );
    return fig;
  };

  const ctx: BenchContext = {
    publicUrl: opts.publicUrl,
    nats: opts.nats,
    adminUrl: opts.adminUrl,
    bareUrl: opts.bareUrl,
    options: defaults,
    api: (path, init) => fetch(opts.publicUrl + path, init),
    admin,
    async credential(o = {}): Promise<Credential> {
      let merchantId = o.merchantId;
      if (!merchantId) {
        const m = await admin<{ id: string }>('POST', '/admin/v1/merchants', {
          name: 'Bench store',
          test: true,
        });
        merchantId = m.id;
        await admin('PUT', `/admin/v1/merchants/${merchantId}/menu`, await sampleMenu());
      }
      const c = await admin<{ clientId: string; clientSecret: string; webhookSecret?: string | null }>(
        'POST',
        `/admin/v1/merchants/${merchantId}/credentials`,
        {
          name: 'bench',
          scopes: o.scopes ?? ALL_SCOPES,
          deliveryMode: o.deliveryMode ?? 'POLLING',
          ...(o.webhookUrl ? { webhookUrl: o.webhookUrl } : {}),
          ...(o.includeMarketplaceOrders !== undefined
            ? { includeMarketplaceOrders: o.includeMarketplaceOrders }
            : {}),
        },
      );
      const token = await accessToken(opts.publicUrl, c.clientId, c.clientSecret);
      return {
        merchantId,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        webhookSecret: c.webhookSecret ?? null,
        token,
      };
    },
    load: (o: LoadOptions) => load(opts.publicUrl, o, defaults),
    async measure(name, o, extra) {
      const r = await load(opts.publicUrl, o, defaults);
      return record({
        name,
        reqPerSec: r.reqPerSec,
        p50Ms: r.p50Ms,
        p99Ms: r.p99Ms,
        non2xx: r.non2xx,
        errors: r.errors,
        extra: { ...(o.overallRate ? { rate: o.overallRate } : {}), ...extra },
      });
    },
    record,
    async withGatewayEnv(env, fn) {
      if (!opts.stack) throw new Error('needs the harness-owned stack (run without --url)');
      await opts.stack.restartGateway(env);
      try {
        return await fn();
      } finally {
        await opts.stack.restartGateway({});
      }
    },
    log: opts.log,
  };
  return {
    ctx,
    figures,
    setBare(r) {
      bare = r;
    },
  };
}
