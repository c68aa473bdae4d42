-- The write path asks whether the order it changes has an unpublished event (outbox/relay.ts "fast
-- path"): answered from the few unpublished rows of that order, also when a bus outage left many.
CREATE INDEX order_outbox_unpublished_order_idx ON order_outbox (order_id)
  WHERE published_at IS NULL AND set_aside_at IS NULL;
