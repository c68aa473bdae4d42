import { type RpcClient, RpcUnavailableError } from '@od/bus';
import { INTERNAL_OPS } from '@od/contracts';

/** Thrown when auth cannot be asked right now: the attempt is postponed, not counted. */
export class SecretsUnavailableError extends Error {}

/**
 * Signing secrets come from auth (`internal.webhookSecrets`), newest first. Cached for at most
 * `ttlMs` and dropped whenever the credential's record changes, so a rotation applies to the next
 * send. Secrets live only in memory, never in logs or the database of this service.
 */
export class SecretsSource {
  private cache = new Map<string, { secrets: string[] | null; at: number }>();
  private inflight = new Map<string, Promise<string[] | null>>();

  constructor(
    private rpc: RpcClient,
    private ttlMs = 1_000,
  ) {}

  invalidate(clientId: string): void {
    this.cache.delete(clientId);
  }

  /** null = auth does not know the credential (no secret: never send unsigned) */
  async get(clientId: string, traceId: string): Promise<string[] | null> {
    const hit = this.cache.get(clientId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.secrets;
    const pending = this.inflight.get(clientId);
    if (pending) return pending;
    const p = this.fetch(clientId, traceId).finally(() => this.inflight.delete(clientId));
    this.inflight.set(clientId, p);
    return p;
  }

  private async fetch(clientId: string, traceId: string): Promise<string[] | null> {
    let r: { status: number; body: { secrets?: unknown } };
    try {
      r = await this.rpc.callJson(
        INTERNAL_OPS.webhookSecrets,
        { body: { clientId } },
        { traceId, timeoutMs: 3_000 },
      );
    } catch (e) {
      if (e instanceof RpcUnavailableError) throw new SecretsUnavailableError('auth unavailable');
      throw new SecretsUnavailableError(`auth answered badly: ${(e as Error).message}`);
    }
    if (r.status === 404) {
      this.cache.set(clientId, { secrets: null, at: Date.now() });
      return null;
    }
    const secrets = r.body?.secrets;
    if (r.status !== 200 || !Array.isArray(secrets) || !secrets.every((s) => typeof s === 'string')) {
      throw new SecretsUnavailableError(`auth answered ${r.status}`);
    }
    const out = secrets.length ? (secrets as string[]) : null;
    this.cache.set(clientId, { secrets: out, at: Date.now() });
    return out;
  }
}
