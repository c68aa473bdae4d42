-- The board projection now runs on the @od/bus event consumer: order-event messages it sets aside
-- (unreadable, or still failing to store after bounded redelivery) are recorded here, as in feed
-- and webhook. Replay: libs/bus/README.md.
CREATE TABLE set_aside_events (id bigserial PRIMARY KEY, consumer text NOT NULL, stream_seq bigint NOT NULL,
  subject text NOT NULL, deliveries integer NOT NULL, reason text NOT NULL, payload bytea NOT NULL,
  set_aside_at timestamptz(3) NOT NULL DEFAULT now());
