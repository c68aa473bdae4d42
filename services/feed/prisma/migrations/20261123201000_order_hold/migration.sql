-- Per-order ordering across feed replicas (docs/event-stream.md "Order of an order's events").
-- An event whose predecessor in its order (order_seq - 1) is not stored yet is HELD: stored, but
-- its feed entries are left out of polling until the predecessor arrives (or the hold times out).
-- order_seq NULL = the publisher sent none: never held.
ALTER TABLE events ADD COLUMN order_seq integer;
ALTER TABLE events ADD COLUMN held_since timestamptz(3);
ALTER TABLE feed_entries ADD COLUMN held boolean NOT NULL DEFAULT false;
CREATE INDEX "events_order_id_order_seq_idx" ON "events" ("order_id", "order_seq");
CREATE INDEX "events_held_since_idx" ON "events" ("held_since") WHERE "held_since" IS NOT NULL;
-- polling reads only entries that are pending AND not held
DROP INDEX "feed_entries_pending_idx";
CREATE INDEX "feed_entries_pending_idx" ON "feed_entries" ("credential_id", "event_created_at", "seq")
  WHERE "acked_at" IS NULL AND NOT "held";
