-- Open Delivery Merchant module (the menu lives in the point of sale): where a store's software
-- service serves its `GET /v1/merchant` (registered by `PUT /v1/merchantOnboarding`) and how the
-- last read went (`GET /v1/merchantStatus`). `api_key` is sealed (AES-256-GCM, libs/crypto,
-- `<keyId>.<base64url>`, bound to the store id), `api_key_key_id` names the key.
CREATE TABLE "od_merchant_source" (
    "merchant_id" UUID NOT NULL,
    "od_merchant_id" TEXT NOT NULL,
    "get_merchant_url" TEXT NOT NULL,
    "api_key" TEXT,
    "api_key_key_id" TEXT,
    "orders_webhook_url" TEXT,
    "read_status" TEXT,
    "last_read" TIMESTAMPTZ(3),
    "more_info" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "od_merchant_source_pkey" PRIMARY KEY ("merchant_id"),
    CONSTRAINT "od_merchant_source_read_status_check" CHECK ("read_status" IN ('SUCCESS', 'PROCESSING', 'FAIL')),
    CONSTRAINT "od_merchant_source_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
