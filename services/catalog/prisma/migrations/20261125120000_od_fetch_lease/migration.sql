-- Bounded reads of a point of sale (issue 22): `fetch_until` is the store's read lease. While a
-- read runs it holds the read's time budget; after it, the cooldown. A `POST /v1/menuUpdated` that
-- finds it in the future is answered 429 with Retry-After; one that finds it past (or null) takes it
-- with one conditional UPDATE, so at most one read per store runs across every catalog replica.
-- Rolling deploy: a nullable column without default (no rewrite); the previous release ignores it.
ALTER TABLE "od_merchant_source" ADD COLUMN "fetch_until" TIMESTAMPTZ(3);
