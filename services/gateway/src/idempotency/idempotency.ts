import { createHash, randomBytes } from 'node:crypto';
import type { RpcReply } from '@od/bus';
import { IDEMPOTENCY_RPC_HEADERS, IDEMPOTENT_REPLAYED_HEADER, isIdempotencyKey, names } from '@od/contracts';
import { errors, HttpException, isHttpException } from '@od/errors';
import type { Logger } from '@od/logger';
import type { FastifyRequest } from 'fastify';
import type { Redis, Result } from 'ioredis';

/**
 * Idempotency-Key on actions (SPEC "Idempotency-Key"), stored in Redis so every gateway replica
 * sees the same records.
 *
 * - Scope: per credential (`request.auth.clientId`) and key; records live 24 hours.
 * - Same key + same request (method, path, route fingerprint: action and body) -> the recorded
 *   status, headers and body are replayed without executing (plus `Idempotent-Replayed: true`).
 * - Same key + another request -> 409 idempotency_key_reuse (also while the first is still running).
 * - Key longer than 128 characters (or empty) -> 400 invalid_idempotency_key, nothing executed.
 * - Recorded: every answer below 500 (SPEC names 202, 404 and 422; 400/409 are deterministic too).
 *   5xx (and an exception) is not recorded: the key is released and a repetition really executes.
 * - Concurrency: the first request takes a lock (`SET NX PX`, one Lua round trip that also returns
 *   an existing record). Others with the same key and request poll Redis (10 -> 100 ms backoff) and
 *   replay the first answer once recorded; if the first failed (5xx) one of them takes the lock and
 *   executes. A waiter gives up after WAIT_MS with 503 (retryable, Retry-After: 1): the first
 *   request is still running. The lock outlives the RPC timeout (10 s), so it cannot expire while
 *   the first execution may still succeed; a gateway crash mid-execution frees the key after LOCK_MS.
 * - A Redis call that timed out may still have run: after a timed-out lock, the lock is released in
 *   the background (compare-and-delete of our own value); after a timed-out record, recording is
 *   retried in the background. Either way a retry is not blocked until LOCK_MS.
 * - Redis unreachable: a request carrying a key answers 503 (retryable) and nothing is executed,
 *   rather than risking a double execution. Requests without the header just execute.
 * - Redis is the fast path and the in-flight lock, not the record of truth: `execute` receives the
 *   key and the fingerprint as RPC headers, and the service records the first answer in PostgreSQL
 *   in the transaction of the action. A retry after Redis lost its data, or after the service
 *   committed and died before answering, reaches the service, which replays that answer.
 * - Scope: the credential on public routes, `admin` on the admin API (one admin token).
 */
export interface Idempotency {
  /**
   * Runs `execute` at most once per (credential, key) and returns the reply to send: the recorded
   * one on a replay. The request is identified by method, path and `body` (fingerprintOf).
   * Throws HttpException(400 invalid_idempotency_key / 409 idempotency_key_reuse / 5xx if Redis is down).
   */
  run(
    request: FastifyRequest,
    body: unknown,
    execute: (rpcHeaders: Record<string, string>) => Promise<RpcReply>,
  ): Promise<RpcReply>;
}

export const RECORD_TTL_SECONDS = 24 * 60 * 60;
export const LOCK_MS = 30_000;
export const WAIT_MS = 15_000;
const REDIS_TIMEOUT_MS = 1_000;
/** Background attempts to settle a lock after a timed-out Redis call (waits before each). */
const SETTLE_RETRY_MS = [0, 250, 1_000, 2_000, 4_000];
export const REPLAY_HEADER = IDEMPOTENT_REPLAYED_HEADER;

export interface IdempotencyOptions {
  log?: Logger;
  lockMs?: number;
  waitMs?: number;
}

type Pending = { s: 'p'; fp: string; o: string };
type Done = { s: 'd'; fp: string; st: number; h: Record<string, string>; b: string };
type Entry = Pending | Done;

/** Returns the existing entry, or sets ARGV[1] with a PX of ARGV[2] ms and returns nil. */
const ACQUIRE_LUA = `
local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
`;
/** Compare-and-set: only the lock holder (exact pending value ARGV[1]) records ARGV[2] or deletes (''). */
const COMPLETE_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    odIdemAcquire(key: string, pending: string, lockMs: number): Result<string | null, Context>;
    odIdemComplete(key: string, pending: string, value: string, ttlSeconds: number): Result<number, Context>;
  }
}

/** The Idempotency-Key header: undefined when absent; throws 400 when unusable. */
export function readKey(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw.join(', ') : raw;
  if (!isIdempotencyKey(key)) throw new HttpException(errors.invalidIdempotencyKey());
  return key;
}

/**
 * The one fingerprint recipe of a keyed request: method, path and the canonical body (sorted keys).
 * The hashed text is byte for byte what the previous release hashed (public routes repeat method and
 * path, admin routes hash a missing body as `null`), so records written before a rolling deploy
 * still match after it.
 */
export function fingerprintOf(request: FastifyRequest, body: unknown): string {
  const head = `${request.method} ${request.url.split('?', 1)[0]}\n`;
  const text =
    request.routeOptions?.config?.family === 'admin'
      ? canonicalJson(body ?? null)
      : `${head}${body === undefined ? '' : canonicalJson(body)}`;
  return createHash('sha256')
    .update(head + text)
    .digest('base64url');
}

/** Stable JSON (sorted keys, undefined members left out) so that equal bodies give equal fingerprints. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function bounded<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('redis timeout')), REDIS_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function replyOf(e: Done): RpcReply {
  return {
    status: e.st,
    headers: { ...e.h, [REPLAY_HEADER]: 'true' },
    body: new Uint8Array(Buffer.from(e.b, 'base64')),
  };
}

function replyFromException(e: HttpException): RpcReply {
  const { status, headers, body } = e.http;
  return {
    status,
    headers: headers ?? {},
    body: body === undefined ? new Uint8Array(0) : new TextEncoder().encode(JSON.stringify(body)),
  };
}

export function createIdempotency(redis: Redis, prefix: string, opts: IdempotencyOptions = {}): Idempotency {
  const n = names(prefix);
  const lockMs = opts.lockMs ?? LOCK_MS;
  const waitMs = opts.waitMs ?? WAIT_MS;
  const log = opts.log;
  if (typeof (redis as Partial<Redis>).odIdemAcquire !== 'function') {
    redis.defineCommand('odIdemAcquire', { numberOfKeys: 1, lua: ACQUIRE_LUA });
    redis.defineCommand('odIdemComplete', { numberOfKeys: 1, lua: COMPLETE_LUA });
  }

  const unavailable = (request: FastifyRequest, err: unknown) => {
    (log ?? request.log).error(
      { err: (err as Error).message, traceId: request.id },
      'idempotency store unavailable: refusing a keyed request',
    );
    return new HttpException(errors.unavailable(request.id));
  };

  /** After a timed-out call: settle our own lock in the background (record `value`, or free it). */
  const settleLater = (rkey: string, pending: string, value: string) => {
    void (async () => {
      for (const wait of SETTLE_RETRY_MS) {
        await sleep(wait);
        try {
          await bounded(redis.odIdemComplete(rkey, pending, value, RECORD_TTL_SECONDS));
          return;
        } catch {
          // Redis still slow or down: try again, then leave it to the lock's expiry
        }
      }
    })();
  };

  async function finish(
    request: FastifyRequest,
    rkey: string,
    pending: string,
    fp: string,
    reply: RpcReply | undefined,
  ): Promise<void> {
    let value = '';
    if (reply && reply.status < 500) {
      const done: Done = {
        s: 'd',
        fp,
        st: reply.status,
        h: reply.headers,
        b: Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength).toString('base64'),
      };
      value = JSON.stringify(done);
    }
    try {
      const ok = await bounded(redis.odIdemComplete(rkey, pending, value, RECORD_TTL_SECONDS));
      if (ok !== 1)
        (log ?? request.log).warn({ traceId: request.id }, 'idempotency lock lost before recording');
    } catch (e) {
      // executed, but not recorded yet: the answer is still sent, recording is retried in the background
      (log ?? request.log).error(
        { err: (e as Error).message, traceId: request.id },
        'idempotency record not stored',
      );
      settleLater(rkey, pending, value);
    }
  }

  return {
    async run(request, body, execute) {
      const key = readKey(request);
      if (key === undefined) return execute({});
      const clientId = request.auth?.clientId ?? 'admin';
      const rkey = n.redis(`idem:${clientId}:${key}`);
      const fp = fingerprintOf(request, body);
      const mine: Pending = { s: 'p', fp, o: randomBytes(12).toString('base64url') };
      const pending = JSON.stringify(mine);
      const deadline = Date.now() + waitMs;
      let delay = 10;
      for (;;) {
        let existing: string | null;
        try {
          existing = await bounded(redis.odIdemAcquire(rkey, pending, lockMs));
        } catch (e) {
          settleLater(rkey, pending, ''); // the lock may have been taken: free it for the retry
          throw unavailable(request, e);
        }
        if (existing === null) break; // the lock is ours: execute
        let entry: Entry;
        try {
          entry = JSON.parse(existing) as Entry;
        } catch {
          throw unavailable(request, new Error('unreadable idempotency record'));
        }
        if (entry.fp !== fp) throw new HttpException(errors.idempotencyKeyReuse());
        if (entry.s === 'd') return replyOf(entry);
        // same request still executing elsewhere: wait for its answer
        if (Date.now() >= deadline) {
          (log ?? request.log).warn({ traceId: request.id }, 'idempotency wait exceeded');
          throw new HttpException(errors.unavailable(request.id));
        }
        await sleep(delay);
        delay = Math.min(100, Math.ceil(delay * 1.5));
      }
      let result: RpcReply;
      try {
        result = await execute({
          [IDEMPOTENCY_RPC_HEADERS.key]: key,
          [IDEMPOTENCY_RPC_HEADERS.fingerprint]: fp,
        });
      } catch (e) {
        await finish(request, rkey, pending, fp, isHttpException(e) ? replyFromException(e) : undefined);
        throw e;
      }
      await finish(request, rkey, pending, fp, result);
      return result;
    },
  };
}
