import { randomUUID } from 'node:crypto';
import type https from 'node:https';
import type { CredentialsView } from '@od/bus';
import { WEBHOOK_TIMEOUT_MS } from '@od/contracts';
import type { Pool } from '@od/db';
import type { EgressDns } from '@od/egress';
import type { Logger } from '@od/logger';
import { tracedWebhookCall } from '@od/telemetry';
import {
  type ClaimedDelivery,
  claimDue,
  markSkipped,
  nextDueAt,
  recordAttempt,
  releaseClaim,
} from './db/deliveries.ts';
import { odPush } from './domain/od-push.ts';
import { retryDelayMs } from './domain/retry-schedule.ts';
import { webhookHeaders } from './domain/signature.ts';
import { notDeliverable, outsideProfile } from './domain/targets.ts';
import { type SecretsSource, SecretsUnavailableError } from './secrets.ts';
import { AbortedError, sendWebhook } from './sender.ts';

export interface DispatcherOptions {
  pool: Pool;
  log: Logger;
  credentials: CredentialsView;
  secrets: SecretsSource;
  agent: https.Agent;
  /** the resolver of outgoing calls (EGRESS_DNS_SERVERS): c-ares, its own timeout */
  dns?: EgressDns;
  allowPrivateNetworks: boolean;
  retryScale: number;
  /** `X-App-Id` of the Open Delivery push: this ordering application's id (OD_APP_ID) */
  appId: string;
  /** deliveries in flight in this replica */
  globalCap?: number;
  /** deliveries in flight per credential (= per URL) in this replica */
  perClientCap?: number;
  timeoutMs?: number;
  /** safety-net poll of the schedule (retries due from other replicas or before a restart) */
  pollMs?: number;
  /** how long a claimed delivery is reserved: longer than the timeout */
  leaseMs?: number;
}

/**
 * Sends due deliveries. Work is claimed from PostgreSQL (the schedule is there, so a restart or a
 * crash forgets no retry), many deliveries run at once with a global cap and a small per-credential
 * cap: a hanging receiver occupies at most `perClientCap` slots and never delays other stores.
 */
export class Dispatcher {
  private inflight = 0;
  private perClient = new Map<string, number>();
  private running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private ticking = false;
  private again = false;
  private stopped = false;
  private poller: NodeJS.Timeout;
  private timers = new Set<NodeJS.Timeout>();
  private readonly globalCap: number;
  private readonly perClientCap: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;

  constructor(private o: DispatcherOptions) {
    this.globalCap = o.globalCap ?? 128;
    this.perClientCap = o.perClientCap ?? 4;
    this.timeoutMs = o.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.leaseMs = o.leaseMs ?? this.timeoutMs * 3;
    this.poller = setInterval(() => this.wake(), o.pollMs ?? 500);
  }

  /** Claims and starts due deliveries as soon as possible (coalesced). */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((err) => this.o.log.error({ err }, 'webhook dispatch failed'))
      .finally(() => {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private wakeAt(at: number): void {
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        this.wake();
      },
      Math.max(0, at - Date.now()) + 5,
    );
    this.timers.add(t);
  }

  private async tick(): Promise<void> {
    while (!this.stopped) {
      const free = this.globalCap - this.inflight;
      if (free <= 0) return;
      const rows = await claimDue(this.o.pool, free, this.perClientCap, this.perClient, this.leaseMs);
      if (this.stopped) {
        for (const d of rows) await releaseClaim(this.o.pool, d, 0).catch(() => {});
        return;
      }
      for (const d of rows) this.start(d);
      if (rows.length < free) return;
    }
  }

  private start(d: ClaimedDelivery): void {
    this.inflight++;
    this.perClient.set(d.client_id, (this.perClient.get(d.client_id) ?? 0) + 1);
    const abort = new AbortController();
    const key = `${d.id}:${d.round}:${d.attempts}`;
    // the per-URL slot covers the HTTP exchange only; recording the result does not hold it
    let urlSlot = true;
    const releaseUrlSlot = () => {
      if (!urlSlot) return;
      urlSlot = false;
      const n = (this.perClient.get(d.client_id) ?? 1) - 1;
      if (n <= 0) this.perClient.delete(d.client_id);
      else this.perClient.set(d.client_id, n);
      this.wake();
    };
    const done = this.run(d, abort.signal, releaseUrlSlot)
      .catch((err) => this.o.log.error({ err, deliveryId: d.id }, 'webhook delivery failed unexpectedly'))
      .finally(() => {
        this.running.delete(key);
        this.inflight--;
        releaseUrlSlot();
        this.wake();
      });
    this.running.set(key, { abort, done });
  }

  private async run(d: ClaimedDelivery, signal: AbortSignal, releaseUrlSlot: () => void): Promise<void> {
    const { pool, log } = this.o;
    const cred = this.o.credentials.get(d.client_id);
    const reason = notDeliverable(cred);
    if (reason || !cred?.webhookUrl) {
      await markSkipped(pool, d, reason ?? 'webhook_disabled');
      return;
    }
    // OPEN_DELIVERY: the standard's newEvent push, signed with the client secret (domain/od-push.ts)
    const od = cred.apiProfile === 'OPEN_DELIVERY';
    if (outsideProfile(cred, d.event_type)) {
      await markSkipped(pool, d, 'not_in_standard');
      return;
    }
    let secrets: string[] | null;
    try {
      secrets = await this.o.secrets.get(d.client_id, randomUUID(), od ? 'client' : 'webhook');
    } catch (e) {
      if (e instanceof SecretsUnavailableError) {
        log.warn({ clientId: d.client_id, reason: e.message }, 'webhook secrets unavailable, postponed');
        await releaseClaim(pool, d, 2_000);
        this.wakeAt(Date.now() + 2_000);
        return;
      }
      throw e;
    }
    if (!secrets) {
      await markSkipped(pool, d, 'no_signing_secret');
      return;
    }
    const startedAt = new Date();
    const request = od
      ? odPush({
          webhookUrl: cred.webhookUrl,
          envelopeText: d.body,
          clientSecret: secrets[0],
          appId: this.o.appId,
          merchantId: d.merchant_id,
        })
      : {
          url: cred.webhookUrl,
          body: d.body,
          headers: webhookHeaders({
            secrets,
            eventId: d.event_id,
            merchantId: d.merchant_id,
            timestamp: Math.floor(startedAt.getTime() / 1000),
            rawBody: d.body,
          }),
        };
    if (!request) {
      await markSkipped(pool, d, 'not_in_standard');
      return;
    }
    let result: Awaited<ReturnType<typeof sendWebhook>>;
    try {
      result = await tracedWebhookCall(request.url, () =>
        sendWebhook({
          url: request.url,
          headers: request.headers,
          body: request.body,
          timeoutMs: this.timeoutMs,
          allowPrivateNetworks: this.o.allowPrivateNetworks,
          agent: this.o.agent,
          dns: this.o.dns,
          signal,
        }),
      );
    } catch (e) {
      releaseUrlSlot();
      if (e instanceof AbortedError) {
        // stopping: give the delivery back untouched; the next replica (or restart) sends it
        await releaseClaim(pool, d, 0).catch(() => {});
        return;
      }
      throw e;
    }
    releaseUrlSlot();
    const retryInMs = result.success ? null : retryDelayMs(d.attempts + 1, this.o.retryScale);
    const status = await recordAttempt(pool, d, { url: request.url, startedAt, ...result, retryInMs });
    if (status === 'PENDING' && retryInMs !== null) this.wakeAt(Date.now() + retryInMs);
    if (!result.success) {
      log.info(
        {
          clientId: d.client_id,
          eventId: d.event_id,
          attempt: d.attempts + 1,
          statusCode: result.statusCode,
          error: result.error,
        },
        'webhook attempt failed',
      );
    }
  }

  /** The next due time as stored (used at start to arm a timer). */
  async armFromSchedule(): Promise<void> {
    const at = await nextDueAt(this.o.pool);
    if (at !== null) this.wakeAt(at);
  }

  /**
   * Stops claiming; attempts in flight get `graceMs` to finish and be recorded, then the rest are
   * aborted (their deliveries are given back untouched and sent again by the next instance).
   */
  async stop(graceMs = 3_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.poller);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const running = [...this.running.values()];
    const all = Promise.all(running.map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    for (const r of running) r.abort.abort();
    await all;
    while (this.ticking) await new Promise((r) => setTimeout(r, 10));
  }
}
