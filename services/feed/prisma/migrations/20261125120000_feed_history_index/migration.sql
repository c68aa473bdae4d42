-- GET /v1/events (extension): a credential's entries, acknowledged or not, by event time, keyset-paged
-- on (event_created_at, event_id). Additive: the previous release never reads it.
-- migration-check: allow index-lock feed_entries: bounded by retention (acknowledged entries deleted after 30 days; the build blocks feed_entries writes for its seconds)
CREATE INDEX IF NOT EXISTS feed_entries_history_idx ON feed_entries (credential_id, event_created_at, event_id);
