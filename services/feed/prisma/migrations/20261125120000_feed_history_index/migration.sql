-- GET /v1/events (extension): a credential's entries, acknowledged or not, by event time, keyset-paged
-- on (event_created_at, event_id). Additive (rolling-deploy safe): the previous release never reads it.
-- Retention keeps the table bounded (acknowledged entries go after 30 days).
CREATE INDEX IF NOT EXISTS feed_entries_history_idx ON feed_entries (credential_id, event_created_at, event_id);
