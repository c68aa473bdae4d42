-- The write path asks whether the order it changes has an unpublished event (outbox/relay.ts "fast
-- path"): answered from the few unpublished rows of that order, also when a bus outage left many.
-- migration-check: allow index-lock order_outbox: bounded by ORDER_OUTBOX_RETENTION (one day of events by
-- default, ~200,000 rows at bench:scale's platform size): the build blocks outbox writes for well under a second
CREATE INDEX order_outbox_unpublished_order_idx ON order_outbox (order_id)
  WHERE published_at IS NULL AND set_aside_at IS NULL;
