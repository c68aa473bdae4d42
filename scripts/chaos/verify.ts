// The checks of a chaos run, pure (no I/O): what was driven and what the store's history says,
// against what each credential's poller received; 5xx against the fault windows.
import { CLUSTER_FAULT_KINDS, type Fault, type FaultKind } from './faults.ts';
import type { CallRecord } from './http.ts';
import type { ProcExit } from './stack.ts';
import type { DrivenOrder, FeedLog, Plan } from './workload.ts';

export interface HistoryRow {
  trigger: string;
  eventId: string | null;
  eventType: string | null;
}

/** GET /admin/v1/orders/{id}: the order's state and history, `store` = index of its merchant. */
export interface OrderTruth {
  id: string;
  store: number;
  situation: string;
  history: HistoryRow[];
}

export interface CredentialResult {
  clientId: string;
  store: number;
  orders: number;
  expected: number;
  received: number;
  lost: number;
  duplicates: number;
  outOfOrder: number;
  unexpected: number;
}

export interface FaultStats {
  kind: FaultKind;
  count: number;
  outageMsMax: number;
  recoveryMsP50: number;
  recoveryMsMax: number;
  errors: number;
}

export interface Verdict {
  orders: { driven: number; completed: number; intakeDuplicates: number };
  actions: { total: number; retried: number; alreadyAppliedOnRetry: number; replayed: number };
  credentials: CredentialResult[];
  totals: { expected: number; received: number; lost: number; duplicates: number; outOfOrder: number };
  doubleExecuted: number;
  wrongFinalState: number;
  errors: { inside: number; outside: number; outsideSamples: CallRecord[] };
  unexpectedExits: ProcExit[];
  faults: FaultStats[];
  /** failures: any makes the run fail */
  violations: string[];
  /** gaps of before issue 9 item 4: failing when strict (the default of `pnpm chaos`) */
  knownGaps: string[];
  /** orders received out of order, listed without failing the run (--allow-out-of-order) */
  reordered: string[];
}

const p50 = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

export function verify(input: {
  plans: Plan[];
  driven: DrivenOrder[];
  truths: OrderTruth[];
  feeds: FeedLog[];
  calls: CallRecord[];
  faults: Fault[];
  exits: ProcExit[];
  strict: boolean;
  /** report events out of per-order order without failing (the known feed-replica defect, see README) */
  allowOutOfOrder?: boolean;
}): Verdict {
  const violations: string[] = [];
  const knownGaps: string[] = [];
  const reordered: string[] = [];
  const planOf = new Map(input.plans.map((p) => [p.name, p]));
  const truthOf = new Map(input.truths.map((t) => [t.id, t]));
  const drivenIds = new Set(input.driven.map((o) => o.id));

  // transitions executed twice: an event type twice in one order's history
  let doubleExecuted = 0;
  for (const t of input.truths) {
    const types = t.history.map((h) => h.eventType).filter((x): x is string => !!x);
    const dup = types.length - new Set(types).size;
    if (dup > 0) {
      doubleExecuted += dup;
      violations.push(`order ${t.id}: event types repeated in history: ${types.join(',')}`);
    }
  }

  let wrongFinalState = 0;
  let completed = 0;
  for (const o of input.driven) {
    const plan = planOf.get(o.plan)!;
    const truth = truthOf.get(o.id);
    if (!o.completed) {
      violations.push(`order ${o.id} not driven to its end: ${o.error}`);
      continue;
    }
    completed++;
    if (!truth || truth.situation !== plan.final) {
      wrongFinalState++;
      violations.push(`order ${o.id}: final state ${truth?.situation} instead of ${plan.final}`);
    }
    const types = truth?.history.map((h) => h.eventType).filter(Boolean) ?? [];
    if (truth && types.join(',') !== plan.events.join(','))
      violations.push(`order ${o.id}: history events ${types.join(',')} instead of ${plan.events.join(',')}`);
  }

  const actions = input.driven.flatMap((o) => o.actions);
  const alreadyAppliedOnRetry = actions.filter(
    (a) => a.result === 'already_applied' && a.ambiguous > 0 && !a.replayed,
  ).length;
  const firstTryAlreadyApplied = actions.filter((a) => a.result === 'already_applied' && a.ambiguous === 0);
  for (const a of firstTryAlreadyApplied)
    violations.push(`action ${a.name} answered already_applied without any earlier attempt`);
  if (alreadyAppliedOnRetry)
    knownGaps.push(`${alreadyAppliedOnRetry} retried action(s) answered already_applied instead of a replay`);

  // orders in a store's history that we did not drive: a retried intake created them twice
  const extra = input.truths.filter((t) => !drivenIds.has(t.id));
  if (extra.length) knownGaps.push(`${extra.length} order(s) created twice by a retried intake`);

  const credentials: CredentialResult[] = input.feeds.map((feed) => {
    const mine = input.truths.filter((t) => t.store === feed.store);
    const expected = new Map<string, string>(); // eventId -> orderId
    for (const t of mine) for (const h of t.history) if (h.eventId) expected.set(h.eventId, t.id);
    const firstSeen: string[] = [];
    const seen = new Set<string>();
    let unexpected = 0;
    for (const d of feed.deliveries) {
      if (seen.has(d.eventId)) continue;
      seen.add(d.eventId);
      if (!expected.has(d.eventId)) unexpected++;
      firstSeen.push(d.eventId);
    }
    let lost = 0;
    for (const id of expected.keys()) if (!seen.has(id)) lost++;
    let outOfOrder = 0;
    const position = new Map(firstSeen.map((id, i) => [id, i]));
    const typeOf = new Map(feed.deliveries.map((d) => [d.eventId, d.eventType]));
    for (const t of mine) {
      const received = t.history
        .map((h) => h.eventId)
        .filter((id): id is string => !!id && position.has(id))
        .map((id) => position.get(id)!);
      let wrong = 0;
      for (let i = 1; i < received.length; i++) if (received[i] < received[i - 1]) wrong++;
      if (wrong) {
        outOfOrder += wrong;
        const got = [...received].sort((a, b) => a - b).map((p) => typeOf.get(firstSeen[p]));
        (input.allowOutOfOrder ? reordered : violations).push(
          `${feed.clientId}: order ${t.id} received ${got.join(',')}`,
        );
      }
    }
    if (lost) violations.push(`${feed.clientId}: ${lost} event(s) lost`);
    if (outOfOrder && !input.allowOutOfOrder)
      violations.push(`${feed.clientId}: ${outOfOrder} event(s) out of order`);
    if (unexpected) violations.push(`${feed.clientId}: ${unexpected} event(s) not in its store's history`);
    return {
      clientId: feed.clientId,
      store: feed.store,
      orders: mine.length,
      expected: expected.size,
      received: seen.size,
      lost,
      duplicates: feed.deliveries.length - seen.size,
      outOfOrder,
      unexpected,
    };
  });

  const failed = (c: CallRecord) => c.status === 0 || c.status >= 500;
  const inWindow = (c: CallRecord) => input.faults.some((f) => c.end >= f.start && c.end <= f.windowEnd);
  const errs = input.calls.filter(failed);
  const outside = errs.filter((c) => !inWindow(c));
  if (outside.length) violations.push(`${outside.length} 5xx/network error(s) outside fault windows`);

  const unexpectedExits = input.exits.filter((e) => !e.killed);
  for (const e of unexpectedExits)
    violations.push(`${e.proc} exited on its own (code ${e.code}, signal ${e.signal})`);

  // each failure counts for one fault: the last one started before it was seen
  const causeOf = (c: CallRecord) =>
    [...input.faults].reverse().find((f) => c.end >= f.start && c.end <= f.windowEnd);
  const causes = errs.map(causeOf);
  const faults: FaultStats[] = CLUSTER_FAULT_KINDS.filter(
    (k) => k !== 'natsnode' || input.faults.some((f) => f.kind === k),
  ).map((kind) => {
    const fs = input.faults.filter((f) => f.kind === kind);
    const recov = fs.map((f) => f.healthy - f.restored);
    return {
      kind,
      count: fs.length,
      outageMsMax: Math.max(0, ...fs.map((f) => f.restored - f.start)),
      recoveryMsP50: p50(recov),
      recoveryMsMax: Math.max(0, ...recov),
      errors: causes.filter((f) => f?.kind === kind).length,
    };
  });

  if (input.strict) violations.push(...knownGaps.map((g) => `strict: ${g}`));
  const sum = (k: keyof CredentialResult) => credentials.reduce((s, c) => s + (c[k] as number), 0);
  return {
    orders: { driven: input.driven.length, completed, intakeDuplicates: extra.length },
    actions: {
      total: actions.length,
      retried: actions.filter((a) => a.attempts > 1).length,
      alreadyAppliedOnRetry,
      replayed: actions.filter((a) => a.replayed).length,
    },
    credentials,
    totals: {
      expected: sum('expected'),
      received: sum('received'),
      lost: sum('lost'),
      duplicates: sum('duplicates'),
      outOfOrder: sum('outOfOrder'),
    },
    doubleExecuted,
    wrongFinalState,
    errors: {
      inside: errs.length - outside.length,
      outside: outside.length,
      outsideSamples: outside.slice(0, 20),
    },
    unexpectedExits,
    faults,
    violations,
    knownGaps,
    reordered,
  };
}
