import { type RpcClient, RpcUnavailableError } from '@od/bus';
import { INTERNAL_OPS } from '@od/contracts';

/** Thrown when auth cannot be asked right now: the attempt is postponed, not counted. */
export class SecretsUnavailableError extends Error {}

/**
 * What signs a delivery: `webhook` = the credential's `whsec_` secrets (SPEC, Standard Webhooks),
 * from auth's `internal.webhookSecrets`, newest first; `client` = an OPEN_DELIVERY credential's
 * client secret (`X-App-Signature`), from `internal.clientSecret`, as a one-element list.
 */
export type SecretKind = 'webhook' | 'client';

/**
 * Signing secrets come from auth, cached for at most `ttlMs` and dropped whenever the credential's
 * record changes, so a rotation applies to the next send. Secrets live only in memory, never in
 * logs or the database of this service.
 */
export class SecretsSource {
  private cache = new Map<string, { secrets: string[] | null; at: number }>();
  private inflight = new Map<string, Promise<string[] | null>>();

  constructor(
    private rpc: RpcClient,
    private ttlMs = 1_000,
  ) {}

  invalidate(clientId: string): void {
    this.cache.delete(`webhook:${clientId}`);
    this.cache.delete(`client:${clientId}`);
  }

  /** null = auth keeps no such secret for the credential (never send unsigned) */
  async get(clientId: string, traceId: string, kind: SecretKind = 'webhook'): Promise<string[] | null> {
    const key = `${kind}:${clientId}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.secrets;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const p = this.fetch(clientId, traceId, kind)
      .then((secrets) => {
        this.cache.set(key, { secrets, at: Date.now() });
        return secrets;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }

  private async fetch(clientId: string, traceId: string, kind: SecretKind): Promise<string[] | null> {
    let r: { status: number; body: { secrets?: unknown; clientSecret?: unknown } };
    try {
      r = await this.rpc.callJson(
        kind === 'webhook' ? INTERNAL_OPS.webhookSecrets : INTERNAL_OPS.clientSecret,
        { body: { clientId } },
        { traceId, timeoutMs: 3_000 },
      );
    } catch (e) {
      if (e instanceof RpcUnavailableError) throw new SecretsUnavailableError('auth unavailable');
      throw new SecretsUnavailableError(`auth answered badly: ${(e as Error).message}`);
    }
    if (r.status === 404) return null;
    const secrets = kind === 'webhook' ? r.body?.secrets : [r.body?.clientSecret];
    if (r.status !== 200 || !Array.isArray(secrets) || !secrets.every((s) => typeof s === 'string')) {
      throw new SecretsUnavailableError(`auth answered ${r.status}`);
    }
    return secrets.length ? (secrets as string[]) : null;
  }
}
