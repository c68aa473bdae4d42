-- GET /v1/orders (extension): a store's orders newest first, keyset-paged on (created_at, id). One
-- backward range scan of this index serves every page. Additive (rolling-deploy safe): the previous
-- release never reads it. The build holds a write lock on `orders` for its duration (seconds per
-- million rows); orders_merchant_created_idx stays until a later contract step drops it.
CREATE INDEX IF NOT EXISTS orders_merchant_created_id_idx ON orders (merchant_id, created_at, id);
