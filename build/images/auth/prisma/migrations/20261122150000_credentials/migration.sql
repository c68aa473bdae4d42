-- Credentials of stores (auth service). Secrets: client secret only as scrypt hash.
CREATE TABLE "credential" (
    "client_id" TEXT NOT NULL,
    "merchant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "scopes" TEXT[] NOT NULL,
    "delivery_mode" TEXT NOT NULL,
    "webhook_url" TEXT,
    "include_marketplace_orders" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "secret_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credential_pkey" PRIMARY KEY ("client_id"),
    CONSTRAINT "credential_status_check" CHECK ("status" IN ('ACTIVE', 'PAUSED', 'REVOKED')),
    CONSTRAINT "credential_delivery_mode_check" CHECK ("delivery_mode" IN ('POLLING', 'WEBHOOK', 'BOTH'))
);

CREATE INDEX "credential_merchant_id_idx" ON "credential"("merchant_id");

CREATE TABLE "webhook_secret" (
    "id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_secret_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_secret_client_id_idx" ON "webhook_secret"("client_id");

ALTER TABLE "webhook_secret" ADD CONSTRAINT "webhook_secret_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "credential"("client_id") ON DELETE CASCADE ON UPDATE CASCADE;
