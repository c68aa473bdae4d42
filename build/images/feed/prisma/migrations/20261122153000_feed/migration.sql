-- Feed service: events stored once, one feed entry per (credential, event).

-- Mirror of the credentials KV view (non-secret facts the fan-out needs).
CREATE TABLE "credentials" (
  "client_id" TEXT NOT NULL PRIMARY KEY,
  "merchant_id" UUID NOT NULL,
  "status" TEXT NOT NULL,
  "include_marketplace_orders" BOOLEAN NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "credentials_merchant_id_idx" ON "credentials" ("merchant_id");

-- Every order event once, its public envelope as the exact JSON text that is served.
CREATE TABLE "events" (
  "event_id" UUID NOT NULL PRIMARY KEY,
  "merchant_id" UUID NOT NULL,
  "channel" TEXT NOT NULL,
  "event_type" TEXT NOT NULL,
  "order_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "envelope" TEXT NOT NULL,
  "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "events_merchant_id_created_at_idx" ON "events" ("merchant_id", "created_at");
CREATE INDEX "events_created_at_idx" ON "events" ("created_at");

-- One row per event per credential. Polling reads only the partial index of pending entries,
-- so its cost does not grow with acknowledged entries.
CREATE TABLE "feed_entries" (
  "seq" BIGSERIAL NOT NULL PRIMARY KEY,
  "credential_id" TEXT NOT NULL,
  "event_id" UUID NOT NULL,
  "event_created_at" TIMESTAMPTZ(3) NOT NULL,
  "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "acked_at" TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "feed_entries_credential_id_event_id_key" ON "feed_entries" ("credential_id", "event_id");
CREATE INDEX "feed_entries_pending_idx" ON "feed_entries" ("credential_id", "event_created_at", "seq") WHERE "acked_at" IS NULL;
CREATE INDEX "feed_entries_acked_at_idx" ON "feed_entries" ("acked_at") WHERE "acked_at" IS NOT NULL;
CREATE INDEX "feed_entries_event_id_idx" ON "feed_entries" ("event_id");
