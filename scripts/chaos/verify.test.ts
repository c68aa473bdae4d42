import { describe, expect, it } from 'vitest';
import type { Fault } from './faults.ts';
import { type OrderTruth, verify } from './verify.ts';
import { type DrivenOrder, type FeedLog, PLANS } from './workload.ts';

const h = (eventType: string, eventId: string) => ({ trigger: 'x', eventId, eventType });
const cancelled = (id: string, events: [string, string][]): OrderTruth => ({
  id,
  store: 0,
  situation: 'CANCELLED',
  history: events.map(([t, e]) => h(t, e)),
});
const act = (name: string, result = 'accepted', attempts = 1) => ({
  name,
  status: 202,
  result,
  attempts,
  ambiguous: attempts - 1,
  replayed: false,
});
const driven = (id: string, over: Partial<DrivenOrder> = {}): DrivenOrder => ({
  id,
  store: 0,
  plan: 'cancelled',
  intakeAttempts: 1,
  intakeAmbiguous: 0,
  completed: true,
  actions: [act('confirm'), act('requestCancellation')],
  ...over,
});
const TYPES: Record<string, string> = { e1: 'CREATED', e2: 'CONFIRMED', e3: 'CANCELLED' };
const feed = (clientId: string, ids: string[]): FeedLog => ({
  clientId,
  store: 0,
  deliveries: ids.map((eventId) => ({ eventId, orderId: 'o1', eventType: TYPES[eventId] ?? '?' })),
  pollErrors: 0,
  ackErrors: 0,
});
const fault: Fault = { kind: 'nats', start: 40, restored: 45, healthy: 50, windowEnd: 60 };
const good = cancelled('o1', [
  ['CREATED', 'e1'],
  ['CONFIRMED', 'e2'],
  ['CANCELLED', 'e3'],
]);
const base = {
  plans: PLANS,
  driven: [driven('o1')],
  truths: [good],
  feeds: [feed('a', ['e1', 'e2', 'e3'])],
  calls: [{ route: 'r', status: 503, start: 45, end: 55 }],
  faults: [fault],
  exits: [],
  strict: false,
};

describe('chaos verification', () => {
  it('passes a clean run and counts duplicate deliveries without failing', () => {
    const v = verify({ ...base, feeds: [feed('a', ['e1', 'e2', 'e2', 'e3'])] });
    expect(v.violations).toEqual([]);
    expect(v.credentials[0]).toMatchObject({
      expected: 3,
      received: 3,
      lost: 0,
      duplicates: 1,
      outOfOrder: 0,
    });
    expect(v.errors).toMatchObject({ inside: 1, outside: 0 });
    expect(v.faults.find((f) => f.kind === 'nats')).toMatchObject({ count: 1, recoveryMsMax: 5, errors: 1 });
  });

  it('fails on a lost event, an event out of order and an event of another store', () => {
    const v = verify({
      ...base,
      feeds: [
        feed('lost', ['e1', 'e3']),
        feed('late', ['e1', 'e3', 'e2']),
        feed('foreign', ['e1', 'e2', 'e3', 'zz']),
      ],
    });
    expect(v.credentials.map((c) => [c.lost, c.outOfOrder, c.unexpected])).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    expect(v.violations).toHaveLength(4);
    expect(v.violations).toContain('late: order o1 received CREATED,CANCELLED,CONFIRMED');
  });

  it('with allowOutOfOrder, lists an order out of order without failing on it, even when strict', () => {
    const v = verify({
      ...base,
      strict: true,
      allowOutOfOrder: true,
      feeds: [feed('late', ['e1', 'e3', 'e2'])],
    });
    expect(v.credentials[0].outOfOrder).toBe(1);
    expect(v.violations).toEqual([]);
    expect(v.reordered).toContain('late: order o1 received CREATED,CANCELLED,CONFIRMED');
  });

  it('fails on a transition executed twice and on a wrong final state', () => {
    const twice = cancelled('o1', [
      ['CREATED', 'e1'],
      ['CONFIRMED', 'e2'],
      ['CONFIRMED', 'e4'],
      ['CANCELLED', 'e3'],
    ]);
    expect(verify({ ...base, truths: [twice], feeds: [] }).doubleExecuted).toBe(1);
    const stuck = { ...good, situation: 'ACCEPTED' };
    expect(verify({ ...base, truths: [stuck], feeds: [] }).wrongFinalState).toBe(1);
  });

  it('fails on 5xx outside fault windows and on a process that died on its own', () => {
    const v = verify({
      ...base,
      calls: [{ route: 'r', status: 0, start: 90, end: 100 }],
      exits: [{ at: 1, proc: 'feed-0', code: 1, signal: null, killed: false }],
    });
    expect(v.errors.outside).toBe(1);
    expect(v.violations.join('\n')).toMatch(/outside fault windows[\s\S]*feed-0 exited/);
  });

  it('counts known gaps (replay after a crash, intake duplicate), failing them only when strict', () => {
    const retried = driven('o1', {
      actions: [act('confirm', 'already_applied', 2), act('requestCancellation')],
    });
    const dup: OrderTruth = { id: 'o9', store: 0, situation: 'PENDING', history: [h('CREATED', 'e9')] };
    const input = {
      ...base,
      driven: [retried],
      truths: [good, dup],
      feeds: [feed('a', ['e1', 'e2', 'e3', 'e9'])],
    };
    const v = verify(input);
    expect(v.violations).toEqual([]);
    expect(v.knownGaps).toHaveLength(2);
    expect(v.orders.intakeDuplicates).toBe(1);
    expect(verify({ ...input, strict: true }).violations).toHaveLength(2);
  });
});
