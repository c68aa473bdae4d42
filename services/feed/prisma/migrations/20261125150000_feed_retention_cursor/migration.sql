-- Where the retention sweep stopped: old events before (created_at, event_id) were all looked at
-- once, and those it left kept an entry (they go with their last entry or its revocation). The
-- sweep no longer walks retained events (never acknowledged, kept by SPEC) on every batch.
-- Expand only: a new table; the previous release neither reads nor writes it and its own purge
-- (under the same advisory lock) stays correct beside the new one during the rollout.
CREATE TABLE retention_cursor (
  name text PRIMARY KEY,
  created_at timestamptz(3) NOT NULL,
  event_id uuid NOT NULL
);
INSERT INTO retention_cursor (name, created_at, event_id)
VALUES ('events', '-infinity', '00000000-0000-0000-0000-000000000000');
