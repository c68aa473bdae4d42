import { ORDER_ACTIONS, ORDER_TYPES, type OrderType, SITUATIONS, type Situation } from '@od/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Decision,
  decide,
  FINAL,
  nextActions,
  type LifecycleTrigger as Trigger,
} from './state-machine.ts';

const move = (to: Situation, event?: string, backtrack = false) => ({ kind: 'move', to, event, backtrack });
const same = (to: Situation) => ({ kind: 'already_applied', to });
const bad = { kind: 'invalid' };

/**
 * The whole table, written out by hand: expected[from][trigger] for a DELIVERY order.
 * TAKEOUT/INDOOR differences are applied below.
 */
const DELIVERY: Record<Situation, Record<Trigger, unknown>> = {
  PENDING_PAYMENT: {
    expire: same('PENDING_PAYMENT'),
    pay: move('PENDING', 'CREATED'),
    cancel: move('CANCELLED'),
    confirm: bad,
    startPreparation: bad,
    readyForPickup: bad,
    dispatch: bad,
    pickedUp: bad,
    delivered: bad,
    requestCancellation: bad,
  },
  PENDING: {
    expire: move('CANCELLED', 'CANCELLED'),
    pay: same('PENDING'),
    cancel: move('CANCELLED', 'CANCELLED'),
    confirm: move('ACCEPTED', 'CONFIRMED'),
    startPreparation: bad,
    readyForPickup: bad,
    dispatch: bad,
    pickedUp: bad,
    delivered: bad,
    requestCancellation: move('CANCELLED', 'CANCELLED'),
  },
  ACCEPTED: {
    expire: same('ACCEPTED'),
    pay: same('ACCEPTED'),
    cancel: move('CANCELLED', 'CANCELLED'),
    confirm: same('ACCEPTED'),
    startPreparation: move('PREPARING', 'PREPARING'),
    readyForPickup: move('READY', 'READY_FOR_PICKUP'),
    dispatch: move('DELIVERY', 'DISPATCHED'),
    pickedUp: move('DONE', 'CONCLUDED'),
    delivered: move('DONE', 'CONCLUDED'),
    requestCancellation: move('CANCELLED', 'CANCELLED'),
  },
  PREPARING: {
    expire: same('PREPARING'),
    pay: same('PREPARING'),
    cancel: move('CANCELLED', 'CANCELLED'),
    confirm: move('ACCEPTED', undefined, true),
    startPreparation: same('PREPARING'),
    readyForPickup: move('READY', 'READY_FOR_PICKUP'),
    dispatch: move('DELIVERY', 'DISPATCHED'),
    pickedUp: move('DONE', 'CONCLUDED'),
    delivered: move('DONE', 'CONCLUDED'),
    requestCancellation: move('CANCELLED', 'CANCELLED'),
  },
  READY: {
    expire: same('READY'),
    pay: same('READY'),
    cancel: move('CANCELLED', 'CANCELLED'),
    confirm: move('ACCEPTED', undefined, true),
    startPreparation: move('PREPARING', undefined, true),
    readyForPickup: same('READY'),
    dispatch: move('DELIVERY', 'DISPATCHED'),
    pickedUp: move('DONE', 'CONCLUDED'),
    delivered: move('DONE', 'CONCLUDED'),
    requestCancellation: move('CANCELLED', 'CANCELLED'),
  },
  DELIVERY: {
    expire: same('DELIVERY'),
    pay: same('DELIVERY'),
    cancel: move('CANCELLED', 'CANCELLED'),
    confirm: move('ACCEPTED', undefined, true),
    startPreparation: move('PREPARING', undefined, true),
    readyForPickup: move('READY', undefined, true),
    dispatch: same('DELIVERY'),
    pickedUp: move('DONE', 'CONCLUDED'),
    delivered: move('DONE', 'CONCLUDED'),
    requestCancellation: move('CANCELLED', 'CANCELLED'),
  },
  DONE: {
    expire: same('DONE'),
    pay: same('DONE'),
    // SPEC's table: the panel or the customer cancels from any state; rule 4 is requestCancellation's
    cancel: move('CANCELLED', 'CANCELLED'),
    confirm: bad,
    startPreparation: bad,
    readyForPickup: bad,
    dispatch: bad,
    pickedUp: same('DONE'),
    delivered: same('DONE'),
    requestCancellation: bad,
  },
  CANCELLED: {
    expire: same('CANCELLED'),
    pay: bad,
    cancel: same('CANCELLED'),
    confirm: bad,
    startPreparation: bad,
    readyForPickup: bad,
    dispatch: bad,
    pickedUp: bad,
    delivered: bad,
    requestCancellation: same('CANCELLED'),
  },
};

function expected(type: OrderType, from: Situation, trigger: Trigger): unknown {
  if (type === 'INDOOR') {
    if (from === 'DELIVERY') return undefined; // an INDOOR order never reaches DELIVERY
    if (trigger === 'dispatch') return bad;
  }
  const e = DELIVERY[from][trigger] as { kind: string; event?: string };
  if (type === 'TAKEOUT' && trigger === 'dispatch' && e.kind === 'move' && e.event === 'DISPATCHED')
    return move('DELIVERY', 'READY_FOR_PICKUP');
  return e;
}

const TRIGGERS: Trigger[] = [...ORDER_ACTIONS, 'pay', 'cancel', 'expire'];

describe('state machine: every row of the table', () => {
  for (const type of ORDER_TYPES) {
    for (const from of SITUATIONS) {
      for (const trigger of TRIGGERS) {
        const want = expected(type, from, trigger);
        if (want === undefined) continue;
        it(`${type} ${from} --${trigger}-->`, () => {
          const got = decide(type, from, trigger) as Decision & { event?: string; backtrack?: boolean };
          const norm =
            got.kind === 'move'
              ? { kind: 'move', to: got.to, event: got.event, backtrack: got.backtrack }
              : got;
          expect(norm).toEqual(want);
        });
      }
    }
  }

  it('rules: TAKEOUT and INDOOR never emit DISPATCHED; requestCancellation cannot cancel DONE, the panel can; CANCELLED is final', () => {
    for (const from of SITUATIONS)
      for (const t of TRIGGERS) {
        for (const type of ['TAKEOUT', 'INDOOR'] as const) {
          const d = decide(type, from, t);
          if (d.kind === 'move') expect(d.event).not.toBe('DISPATCHED');
        }
        const c = decide('DELIVERY', 'CANCELLED', t);
        expect(c.kind === 'move').toBe(false);
      }
    expect(decide('DELIVERY', 'DONE', 'requestCancellation')).toEqual({ kind: 'invalid' });
    expect(decide('DELIVERY', 'DONE', 'cancel')).toMatchObject({
      kind: 'move',
      to: 'CANCELLED',
      event: 'CANCELLED',
    });
  });
});

describe('state machine: properties over random action sequences', () => {
  const typeArb = fc.constantFrom(...ORDER_TYPES);
  const triggersArb = fc.array(fc.constantFrom(...TRIGGERS), { maxLength: 40 });
  const startArb = fc.constantFrom<Situation>('PENDING_PAYMENT', 'PENDING');

  it('finals are final; forward moves emit exactly one event; backtracking and already_applied emit none', () => {
    fc.assert(
      fc.property(typeArb, startArb, triggersArb, (type, start, triggers) => {
        let s: Situation = start;
        for (const t of triggers) {
          const d = decide(type, s, t);
          // the one way out of DONE: the panel's or the customer's cancellation (SPEC: any state)
          if (FINAL.has(s) && !(s === 'DONE' && t === 'cancel')) expect(d.kind).not.toBe('move');
          if (d.kind === 'already_applied') expect(d.to).toBe(s);
          if (d.kind === 'move') {
            expect(d.to).not.toBe(s);
            if (d.backtrack) {
              expect(d.event).toBeUndefined();
              expect(['ACCEPTED', 'PREPARING', 'READY', 'DELIVERY']).toContain(s);
            } else if (!(s === 'PENDING_PAYMENT' && d.to === 'CANCELLED')) {
              expect(typeof d.event).toBe('string');
            }
            if (type === 'INDOOR') expect(d.to).not.toBe('DELIVERY');
            if (d.to === 'PENDING') expect(d.event).toBe('CREATED');
            s = d.to;
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('replaying the same action right after a move is already_applied (idempotent by state)', () => {
    fc.assert(
      fc.property(typeArb, triggersArb, (type, triggers) => {
        let s: Situation = 'PENDING';
        for (const t of triggers) {
          const d = decide(type, s, t);
          if (d.kind === 'move') {
            s = d.to;
            if (t !== 'pay') expect(decide(type, s, t).kind).toBe('already_applied');
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('an order that never left PENDING_PAYMENT emits nothing, whatever happens to it', () => {
    fc.assert(
      fc.property(
        typeArb,
        fc.array(fc.constantFrom<Trigger>(...ORDER_ACTIONS, 'cancel')),
        (type, triggers) => {
          let s: Situation = 'PENDING_PAYMENT';
          for (const t of triggers) {
            const d = decide(type, s, t);
            if (d.kind === 'move') {
              expect(d.event).toBeUndefined();
              s = d.to;
            }
          }
        },
      ),
    );
  });
});

describe('state machine: the Open Delivery cancellation handshake', () => {
  type H = import('./state-machine.ts').HandshakeTrigger;
  type P = import('@od/contracts').PendingCancellation;
  const req = (to: Situation, event: string, pending: P) => ({ kind: 'request', to, event, pending });
  const cancels = { kind: 'move', to: 'CANCELLED', event: 'CANCELLED', backtrack: false, pending: 'NONE' };
  /** expected[trigger][pending] on a live order in ACCEPTED, written out by hand */
  const LIVE: Record<H, Record<P, unknown>> = {
    merchantRequestsCancellation: {
      NONE: req('ACCEPTED', 'CANCELLATION_REQUESTED', 'MERCHANT'),
      MERCHANT: same('ACCEPTED'),
      ORDERING_APP: bad,
    },
    platformAcceptsCancellation: { NONE: bad, MERCHANT: cancels, ORDERING_APP: bad },
    platformDeniesCancellation: {
      NONE: bad,
      MERCHANT: req('ACCEPTED', 'CANCELLATION_REQUEST_DENIED', 'NONE'),
      ORDERING_APP: bad,
    },
    platformRequestsCancellation: {
      NONE: req('ACCEPTED', 'ORDER_CANCELLATION_REQUEST', 'ORDERING_APP'),
      MERCHANT: bad,
      ORDERING_APP: same('ACCEPTED'),
    },
    merchantAcceptsCancellation: { NONE: bad, MERCHANT: bad, ORDERING_APP: cancels },
    merchantDeniesCancellation: {
      NONE: bad,
      MERCHANT: bad,
      ORDERING_APP: req('ACCEPTED', 'CANCELLED_DENIED', 'NONE'),
    },
  };
  const ON_CANCELLED: Record<H, unknown> = {
    merchantRequestsCancellation: same('CANCELLED'),
    platformAcceptsCancellation: same('CANCELLED'),
    platformDeniesCancellation: bad,
    platformRequestsCancellation: same('CANCELLED'),
    merchantAcceptsCancellation: same('CANCELLED'),
    merchantDeniesCancellation: bad,
  };
  const triggers = Object.keys(LIVE) as H[];
  const pendings: P[] = ['NONE', 'MERCHANT', 'ORDERING_APP'];

  for (const t of triggers)
    for (const p of pendings)
      it(`ACCEPTED, pending ${p} --${t}-->`, () =>
        expect(decide('DELIVERY', 'ACCEPTED', t, p)).toEqual(LIVE[t][p]));

  it('every live situation and type behaves as ACCEPTED (the order stays where it is)', () => {
    for (const type of ORDER_TYPES)
      for (const from of ['PENDING', 'ACCEPTED', 'PREPARING', 'READY', 'DELIVERY'] as const)
        for (const t of triggers)
          for (const p of pendings) {
            const want = JSON.parse(JSON.stringify(LIVE[t][p]).replaceAll('"ACCEPTED"', `"${from}"`));
            expect(decide(type, from, t, p)).toEqual(want);
          }
  });

  it('CANCELLED: asking or accepting again is already_applied, denying is 422; DONE and unpaid: 422', () => {
    for (const t of triggers) {
      expect(decide('DELIVERY', 'CANCELLED', t)).toEqual(ON_CANCELLED[t]);
      expect(decide('DELIVERY', 'DONE', t)).toEqual(bad);
      expect(decide('DELIVERY', 'PENDING_PAYMENT', t)).toEqual(bad);
    }
  });

  it('a lifecycle move into a final state closes an open request; other moves leave it', () => {
    expect(decide('DELIVERY', 'DELIVERY', 'delivered', 'ORDERING_APP')).toMatchObject({
      kind: 'move',
      to: 'DONE',
      pending: 'NONE',
    });
    expect(decide('DELIVERY', 'ACCEPTED', 'requestCancellation', 'MERCHANT')).toMatchObject({
      to: 'CANCELLED',
      pending: 'NONE',
    });
    expect(decide('DELIVERY', 'ACCEPTED', 'dispatch', 'MERCHANT')).not.toHaveProperty('pending');
    // without a pending request the lifecycle decisions are exactly SPEC's (no `pending` key)
    expect(decide('DELIVERY', 'ACCEPTED', 'requestCancellation')).toEqual(move('CANCELLED', 'CANCELLED'));
  });
});

describe('nextActions: what a panel card offers', () => {
  it('the natural next step first, cancellation last; nothing on final or unpaid orders', () => {
    expect(nextActions('DELIVERY', 'PENDING')).toEqual(['confirm', 'requestCancellation']);
    expect(nextActions('DELIVERY', 'ACCEPTED')[0]).toBe('startPreparation');
    expect(nextActions('DELIVERY', 'READY')).toEqual([
      'dispatch',
      'delivered',
      'pickedUp',
      'requestCancellation',
    ]);
    expect(nextActions('TAKEOUT', 'READY')[0]).toBe('pickedUp');
    expect(nextActions('INDOOR', 'READY')).not.toContain('dispatch');
    expect(nextActions('DELIVERY', 'DELIVERY')).toEqual(['delivered', 'pickedUp', 'requestCancellation']);
    for (const s of ['DONE', 'CANCELLED', 'PENDING_PAYMENT'] as const)
      expect(nextActions('DELIVERY', s)).toEqual([]);
  });

  it('offers exactly the forward moves the state machine allows (every type and situation)', () => {
    for (const type of ORDER_TYPES)
      for (const s of SITUATIONS) {
        const offered = nextActions(type, s);
        for (const a of ORDER_ACTIONS) {
          const d = decide(type, s, a);
          expect(offered.includes(a), `${type} ${s} ${a}`).toBe(d.kind === 'move' && !d.backtrack);
        }
      }
  });
});
