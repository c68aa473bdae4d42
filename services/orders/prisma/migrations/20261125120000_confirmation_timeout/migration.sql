-- No order waits forever (docs/decisions.md "A store's day"). `confirm_timeout_seconds`: the store's
-- confirmation timeout taken at intake (an unpaid order starts its time at payment). The schedule
-- is its own small table: one row per order waiting for a confirmation, written by the same
-- statement that moves the order into PENDING and deleted by the one that moves it out (or by the
-- sweep, for a row an earlier release left behind). Every orders replica sweeps the due rows
-- (FOR UPDATE SKIP LOCKED on the order) and cancels the orders still PENDING.
-- Rolling-deploy safe: a nullable column on orders, a new table (its index is built empty); an
-- order taken by the previous release has no deadline.
ALTER TABLE "orders" ADD COLUMN "confirm_timeout_seconds" INTEGER;

-- Retention: a row lives while its order is PENDING (minutes); the order's deletion takes it along.
CREATE TABLE "order_deadlines" (
    "order_id" UUID NOT NULL,
    "confirm_by" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "order_deadlines_pkey" PRIMARY KEY ("order_id"),
    CONSTRAINT "order_deadlines_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "order_deadlines_confirm_by_idx" ON "order_deadlines" ("confirm_by");
