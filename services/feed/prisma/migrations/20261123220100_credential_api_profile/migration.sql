-- The credential's API profile (SPEC | OPEN_DELIVERY), read by the recipient rule: the Open Delivery
-- handshake event types are stored only in OPEN_DELIVERY credentials' feeds. Rows mirrored before
-- this column existed are corrected by the next upsert of their record (every start replays them).
ALTER TABLE credentials ADD COLUMN api_profile text NOT NULL DEFAULT 'SPEC';
