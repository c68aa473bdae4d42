-- The panel's overview shows each credential's last poll. Nullable, no default: the previous
-- release neither reads nor writes it (expand only).
ALTER TABLE credentials ADD COLUMN last_polled_at timestamptz(3);
