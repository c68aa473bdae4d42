-- The scheduler walks credentials with pending deliveries (loose index scan) and takes each one's
-- earliest due rows: cost grows with the number of credentials, not with the number of pending rows.
CREATE INDEX delivery_pending_client_idx ON delivery (client_id, next_attempt_at) WHERE status = 'PENDING';
