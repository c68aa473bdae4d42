/**
 * A batch of events split into the statements that store it (db/queries.ts): each round holds at
 * most one event per order, so an order's later event is stored by a later statement and sees its
 * predecessor; rounds keep the batch's order. A message delivered twice in one batch is kept once.
 */
export function storeRounds<E extends { eventId: string; orderId: string }>(events: E[]): E[][] {
  const rounds: E[][] = [];
  const seen = new Set<string>();
  const perOrder = new Map<string, number>();
  for (const e of events) {
    if (seen.has(e.eventId)) continue;
    seen.add(e.eventId);
    const k = perOrder.get(e.orderId) ?? 0;
    perOrder.set(e.orderId, k + 1);
    (rounds[k] ??= []).push(e);
  }
  return rounds;
}
