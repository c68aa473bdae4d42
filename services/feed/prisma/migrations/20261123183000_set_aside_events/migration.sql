-- Order-event messages the @od/bus event consumer set aside (unreadable, or still failing to store
-- after bounded redelivery): the record that nothing was dropped silently. Replay: libs/bus/README.md.
CREATE TABLE set_aside_events (id bigserial PRIMARY KEY, consumer text NOT NULL, stream_seq bigint NOT NULL,
  subject text NOT NULL, deliveries integer NOT NULL, reason text NOT NULL, payload bytea NOT NULL,
  set_aside_at timestamptz(3) NOT NULL DEFAULT now());
