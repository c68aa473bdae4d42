-- Webhook delivery: events seen, deliveries with their retry schedule, attempt log, endpoint health.

CREATE TABLE event (
  event_id    uuid PRIMARY KEY,
  merchant_id uuid NOT NULL,
  channel     text NOT NULL,
  event_type  text NOT NULL,
  body        text NOT NULL,
  created_at  timestamptz(3) NOT NULL,
  received_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX event_merchant_id_created_at_idx ON event (merchant_id, created_at);

CREATE TABLE delivery (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id         uuid NOT NULL,
  client_id        text NOT NULL,
  merchant_id      uuid NOT NULL,
  event_type       text NOT NULL,
  status           text NOT NULL,
  skip_reason      text,
  round            integer NOT NULL DEFAULT 1,
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz(3),
  last_status_code integer,
  last_error       text,
  created_at       timestamptz(3) NOT NULL DEFAULT now(),
  updated_at       timestamptz(3) NOT NULL DEFAULT now(),
  delivered_at     timestamptz(3)
);
CREATE UNIQUE INDEX delivery_event_id_client_id_key ON delivery (event_id, client_id);
CREATE INDEX delivery_client_id_created_at_idx ON delivery (client_id, created_at);
-- the scheduler's scan: only PENDING rows, by due time
CREATE INDEX delivery_due_idx ON delivery (next_attempt_at) WHERE status = 'PENDING';

CREATE TABLE attempt (
  id          bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL,
  event_id    uuid NOT NULL,
  client_id   text NOT NULL,
  event_type  text NOT NULL,
  round       integer NOT NULL,
  attempt     integer NOT NULL,
  url         text NOT NULL,
  started_at  timestamptz(3) NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error       text,
  success     boolean NOT NULL
);
CREATE INDEX attempt_client_id_id_idx ON attempt (client_id, id);

CREATE TABLE endpoint (
  client_id            text PRIMARY KEY,
  consecutive_failures integer NOT NULL DEFAULT 0,
  deactivated_at       timestamptz(3),
  updated_at           timestamptz(3) NOT NULL DEFAULT now()
);
