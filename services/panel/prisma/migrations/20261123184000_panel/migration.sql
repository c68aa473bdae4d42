-- Merchant panel: users, their store memberships, server-side sessions, invite setup tokens, and
-- the orders board's projection of the order-event stream.
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

CREATE TABLE "memberships" (
    "user_id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "memberships_pkey" PRIMARY KEY ("user_id", "merchant_id"),
    CONSTRAINT "memberships_role_check" CHECK ("role" IN ('OWNER', 'STAFF')),
    CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "memberships_merchant_id_idx" ON "memberships"("merchant_id");

CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

CREATE TABLE "setup_tokens" (
    "token_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "setup_tokens_pkey" PRIMARY KEY ("token_hash"),
    CONSTRAINT "setup_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "setup_tokens_user_id_idx" ON "setup_tokens"("user_id");

CREATE TABLE "store_orders" (
    "order_id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "last_event_type" TEXT NOT NULL,
    "order_seq" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "store_orders_pkey" PRIMARY KEY ("order_id")
);
CREATE INDEX "store_orders_merchant_id_updated_at_idx" ON "store_orders"("merchant_id", "updated_at");
