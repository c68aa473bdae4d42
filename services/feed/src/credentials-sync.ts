import type { NatsConnection } from '@nats-io/transport-node';
import { type CredentialsView, openCredentialsKv, watchCredentials } from '@od/bus';
import type { CredentialRecord, Names } from '@od/contracts';
import type { Pool } from '@od/db';
import type { Logger } from '@od/logger';
import { upsertCredential } from './db/queries.ts';
import type { AnnouncePending } from './feed-pending.ts';

export interface CredentialSync {
  view: CredentialsView;
  /** resolves when every record seen so far is mirrored in the database */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * Mirrors the credentials KV bucket (pushed by auth) into the feed's `credentials` table, one record
 * at a time, newest record per credential winning. Every replica does it; the writes are idempotent.
 */
export async function startCredentialSync(
  nc: NatsConnection,
  n: Names,
  pool: Pool,
  log: Logger,
  replicas = 1,
  announce?: AnnouncePending,
): Promise<CredentialSync> {
  const pending = new Map<string, CredentialRecord>();
  let running: Promise<void> | undefined;
  let stopped = false;

  const drain = async () => {
    while (pending.size > 0 && !stopped) {
      const [clientId, rec] = pending.entries().next().value as [string, CredentialRecord];
      pending.delete(clientId);
      try {
        const r = await upsertCredential(pool, rec);
        if (r.backfilled) announce?.([rec.merchantId.toLowerCase()]);
        if (r.backfilled || r.deleted)
          log.info({ clientId, status: rec.status, ...r }, 'credential mirrored');
      } catch (err) {
        log.error({ err, clientId }, 'mirroring credential failed; retrying');
        if (!pending.has(clientId)) pending.set(clientId, rec);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const kick = () => {
    running ??= drain().finally(() => {
      running = undefined;
      if (pending.size > 0 && !stopped) kick();
    });
  };

  const view = await watchCredentials(await openCredentialsKv(nc, n, replicas), log, (rec) => {
    pending.set(rec.clientId, rec);
    kick();
  });
  await view.ready;
  const idle = async () => {
    while (!stopped && (running || pending.size > 0)) await (running ?? Promise.resolve());
  };
  await idle();
  return {
    view,
    idle,
    stop() {
      stopped = true;
      view.stop();
    },
  };
}
