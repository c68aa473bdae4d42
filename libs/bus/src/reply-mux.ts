import {
  createInbox,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  errors as natsErrors,
  nuid,
  type Subscription,
} from '@nats-io/transport-node';
import { publishSoon } from './coalesce.ts';

/**
 * Request/reply over one wildcard subscription per connection, without nats.js's `request()`: that
 * one builds a `RequestError("cancelled")` with its stack trace for every request it resolves, a
 * timer and two promises per request (~4 % of the gateway). Here a request is a map entry; replies
 * arrive on `<inbox prefix>.<nuid>.<token>` (the identity's own inbox: permissions let nobody else
 * read it) and deadlines are checked by one timer per connection every SWEEP_MS.
 *
 * Same outcomes as `nc.request`: the reply `Msg`; `NoRespondersError` when nobody serves the subject
 * (the server's 503 status message), also at once while the connection is down and for every
 * request in flight when it drops (fail fast: a reply published meanwhile is lost anyway);
 * `TimeoutError` after `timeoutMs` (up to SWEEP_MS later); a publish permission violation for the
 * subject, or one on the reply subscription, rejects at once.
 */
export const SWEEP_MS = 50;

interface Pending {
  subject: string;
  deadline: number;
  resolve: (m: Msg) => void;
  reject: (e: Error) => void;
}

export interface ReplyMux {
  request(
    subject: string,
    payload: Uint8Array,
    headers: MsgHdrs | undefined,
    timeoutMs: number,
  ): Promise<Msg>;
  /** requests waiting for their reply */
  pending(): number;
}

const muxes = new WeakMap<NatsConnection, ReplyMux>();

/** The connection's mux, made on first use (one subscription, one status watcher). */
export function replyMux(nc: NatsConnection): ReplyMux {
  let m = muxes.get(nc);
  if (!m) {
    m = createReplyMux(nc);
    muxes.set(nc, m);
  }
  return m;
}

const noResponders = (subject: string) => new natsErrors.NoRespondersError(subject);

function createReplyMux(nc: NatsConnection): ReplyMux {
  const prefix = (nc as { options?: { inboxPrefix?: string } }).options?.inboxPrefix;
  const pending = new Map<string, Pending>();
  let connected = !nc.isClosed();
  let sub: Subscription | undefined;
  let base = '';
  let timer: NodeJS.Timeout | undefined;

  const failAll = (err: (p: Pending) => Error, which: (p: Pending) => boolean = () => true) => {
    for (const [token, p] of pending)
      if (which(p)) {
        pending.delete(token);
        p.reject(err(p));
      }
  };
  const sweep = () => {
    const now = Date.now();
    failAll(
      () => new natsErrors.TimeoutError(),
      (p) => p.deadline <= now,
    );
    if (pending.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const subscribe = () => {
    base = `${createInbox(prefix)}.`;
    const s = nc.subscribe(`${base}*`, {
      callback: (err, msg) => {
        if (err) {
          // the reply subscription was refused or closed: every waiting request fails, the next one resubscribes
          if (sub === s) sub = undefined;
          failAll(() => err);
          return;
        }
        const token = msg.subject.slice(base.length);
        const p = pending.get(token);
        if (!p) return; // late (timed out) or unknown
        pending.delete(token);
        if (msg.data.length === 0 && msg.headers?.code === 503) p.reject(noResponders(p.subject));
        else p.resolve(msg);
      },
    });
    return s;
  };

  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') {
        connected = false;
        failAll((p) => noResponders(p.subject));
      } else if (s.type === 'reconnect') connected = true;
      else if (s.type === 'error' && s.error instanceof natsErrors.PermissionViolationError) {
        const pe = s.error;
        if (pe.operation === 'publish')
          failAll(
            () => pe,
            (p) => p.subject === pe.subject,
          );
      }
    }
    // closed
    connected = false;
    failAll(() => new natsErrors.RequestError('connection closed'));
  })();

  return {
    pending: () => pending.size,
    request(subject, payload, headers, timeoutMs) {
      if (!connected) return Promise.reject(noResponders(subject));
      sub ??= subscribe();
      const token = nuid.next();
      return new Promise<Msg>((resolve, reject) => {
        pending.set(token, { subject, deadline: Date.now() + timeoutMs, resolve, reject });
        timer ??= setInterval(sweep, SWEEP_MS).unref();
        // with the other publishes of this turn: one socket write (coalesce.ts)
        publishSoon(nc, () => {
          try {
            nc.publish(subject, payload, { reply: base + token, headers });
          } catch (e) {
            pending.delete(token);
            reject(e as Error);
          }
        });
      });
    },
  };
}
