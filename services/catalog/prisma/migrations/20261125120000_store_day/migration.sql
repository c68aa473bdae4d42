-- A store's day (docs/decisions.md "A store's day"): the time zone of its opening hours, the weekly
-- hours with special days (Open Delivery ServiceHours shape, null = no hours), a timed pause of the
-- whole store (service pauses live in "services"), and the confirmation timeout of its orders.
-- Rolling-deploy safe: nullable columns or constant defaults only; the previous release ignores them.
ALTER TABLE "merchants"
    ADD COLUMN "time_zone" TEXT NOT NULL DEFAULT 'America/Sao_Paulo',
    ADD COLUMN "service_hours" JSONB,
    ADD COLUMN "paused_until" TIMESTAMPTZ(3),
    ADD COLUMN "pause_reason" TEXT,
    ADD COLUMN "confirmation_timeout_seconds" INTEGER NOT NULL DEFAULT 480;
