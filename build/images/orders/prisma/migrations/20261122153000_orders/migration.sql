-- Orders service: normalized order rows, the rendered public document, history and outbox.

CREATE SEQUENCE display_id_seq START 1000;

CREATE TABLE orders (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL,
  display_id text NOT NULL,
  type text NOT NULL CHECK (type IN ('DELIVERY', 'TAKEOUT', 'INDOOR')),
  order_timing text NOT NULL CHECK (order_timing IN ('INSTANT', 'SCHEDULED')),
  channel text NOT NULL,
  situation text NOT NULL,
  test boolean NOT NULL DEFAULT false,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  preparation_start_date_time timestamptz(3) NOT NULL,
  scheduled_start timestamptz(3),
  scheduled_end timestamptz(3),
  merchant_name text NOT NULL,
  customer_id uuid NOT NULL,
  customer_name text NOT NULL,
  customer_phone text NOT NULL,
  customer_phone_extension text,
  customer_document text,
  customer_email text,
  customer_orders_count integer,
  total_items numeric(14, 2) NOT NULL,
  total_other_fees numeric(14, 2) NOT NULL,
  total_discount numeric(14, 2) NOT NULL,
  order_amount numeric(14, 2) NOT NULL,
  prepaid numeric(14, 2) NOT NULL,
  pending numeric(14, 2) NOT NULL,
  extra_info text,
  event_seq integer NOT NULL DEFAULT 0,
  -- the public Order JSON, rewritten in the same transaction as the rows above (hot GET path)
  document json NOT NULL
);
CREATE INDEX orders_merchant_created_idx ON orders (merchant_id, created_at);

CREATE TABLE order_items (
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  idx integer NOT NULL,
  item_id text NOT NULL,
  name text NOT NULL,
  external_code text NOT NULL,
  unit text,
  ean text,
  quantity numeric(14, 3) NOT NULL,
  special_instructions text,
  unit_price numeric(14, 2) NOT NULL,
  options_price numeric(14, 2) NOT NULL,
  total_price numeric(14, 2) NOT NULL,
  PRIMARY KEY (order_id, idx)
);

CREATE TABLE order_item_options (
  order_id uuid NOT NULL,
  item_idx integer NOT NULL,
  idx integer NOT NULL,
  option_id text NOT NULL,
  name text NOT NULL,
  external_code text NOT NULL,
  quantity numeric(14, 3) NOT NULL,
  unit text,
  unit_price numeric(14, 2) NOT NULL,
  price numeric(14, 2) NOT NULL,
  group_name text,
  PRIMARY KEY (order_id, item_idx, idx),
  FOREIGN KEY (order_id, item_idx) REFERENCES order_items (order_id, idx) ON DELETE CASCADE
);

CREATE TABLE order_fees (
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  idx integer NOT NULL,
  name text NOT NULL,
  type text NOT NULL,
  received_by text NOT NULL,
  price numeric(14, 2) NOT NULL,
  PRIMARY KEY (order_id, idx)
);

CREATE TABLE order_discounts (
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  idx integer NOT NULL,
  amount numeric(14, 2) NOT NULL,
  target text NOT NULL,
  target_id text,
  sponsorship_values jsonb NOT NULL,
  PRIMARY KEY (order_id, idx)
);

CREATE TABLE order_payment_methods (
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  idx integer NOT NULL,
  value numeric(14, 2) NOT NULL,
  method text NOT NULL,
  method_info text NOT NULL,
  type text NOT NULL,
  change_for numeric(14, 2),
  brand text,
  transaction jsonb,
  PRIMARY KEY (order_id, idx)
);

CREATE TABLE order_deliveries (
  order_id uuid PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  delivered_by text NOT NULL,
  estimated_delivery_date_time timestamptz(3),
  delivery_date_time timestamptz(3),
  country text NOT NULL,
  state text NOT NULL,
  city text NOT NULL,
  district text NOT NULL,
  street text NOT NULL,
  number text NOT NULL,
  postal_code text NOT NULL,
  complement text,
  reference text,
  formatted_address text,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL
);

CREATE TABLE order_takeouts (
  order_id uuid PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  mode text NOT NULL,
  takeout_date_time timestamptz(3) NOT NULL
);

CREATE TABLE order_indoors (
  order_id uuid PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  mode text NOT NULL,
  indoor_date_time timestamptz(3) NOT NULL,
  place text,
  tab text
);

-- append-only: every transition (and every event-producing edit) with its actor and time
CREATE TABLE order_history (
  id bigserial PRIMARY KEY,
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  trigger text NOT NULL,
  from_situation text,
  to_situation text NOT NULL,
  actor_kind text NOT NULL,
  actor_client_id text,
  event_id uuid,
  event_type text,
  detail jsonb,
  created_at timestamptz(3) NOT NULL
);
CREATE INDEX order_history_order_idx ON order_history (order_id, id);

-- transactional outbox: one row per event, published to JetStream by the relay leader
CREATE TABLE order_outbox (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  order_id uuid NOT NULL,
  merchant_id uuid NOT NULL,
  order_seq integer NOT NULL,
  event_type text NOT NULL,
  -- OrderEventMessage JSON exactly as published
  message text NOT NULL,
  created_at timestamptz(3) NOT NULL,
  published_at timestamptz(3)
);
CREATE INDEX order_outbox_unpublished_idx ON order_outbox (id) WHERE published_at IS NULL;
