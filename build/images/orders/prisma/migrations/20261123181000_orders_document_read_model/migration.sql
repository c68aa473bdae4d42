-- `document` is the order's only read model (GET forwards its bytes; admin reads it too). The eight
-- child tables and the columns copied from the document were written on every create and edit and
-- read by nothing: dropped (see services/orders/README.md, "Storage"). What stays on `orders` is what
-- a query filters or locks on.

DROP TABLE order_item_options;
DROP TABLE order_items;
DROP TABLE order_fees;
DROP TABLE order_discounts;
DROP TABLE order_payment_methods;
DROP TABLE order_deliveries;
DROP TABLE order_takeouts;
DROP TABLE order_indoors;

ALTER TABLE orders
  DROP COLUMN display_id,
  DROP COLUMN order_timing,
  DROP COLUMN test,
  DROP COLUMN preparation_start_date_time,
  DROP COLUMN scheduled_start,
  DROP COLUMN scheduled_end,
  DROP COLUMN merchant_name,
  DROP COLUMN customer_id,
  DROP COLUMN customer_name,
  DROP COLUMN customer_phone,
  DROP COLUMN customer_phone_extension,
  DROP COLUMN customer_document,
  DROP COLUMN customer_email,
  DROP COLUMN customer_orders_count,
  DROP COLUMN total_items,
  DROP COLUMN total_other_fees,
  DROP COLUMN total_discount,
  DROP COLUMN order_amount,
  DROP COLUMN prepaid,
  DROP COLUMN pending,
  DROP COLUMN extra_info;

-- Outbox: a row the relay cannot publish while others go through is retried a few times, then set
-- aside (kept, never pruned, logged and counted) so it does not block the rows behind it.
ALTER TABLE order_outbox
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN set_aside_at timestamptz(3),
  ADD COLUMN last_error text;
DROP INDEX order_outbox_unpublished_idx;
CREATE INDEX order_outbox_unpublished_idx ON order_outbox (id) WHERE published_at IS NULL AND set_aside_at IS NULL;

-- Idempotency-Key records: (scope, key) and the first answer, written in the transaction of the
-- action itself, so a retry after a crash or a Redis loss replays instead of executing again.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  status integer NOT NULL,
  headers jsonb NOT NULL,
  body text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
