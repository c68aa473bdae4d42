-- Stores (merchants) and their single menu. public_json columns hold the rendered public JSON,
-- rebuilt on every edit, so the read routes are one primary-key lookup returning text.
CREATE TABLE "merchants" (
    "id" UUID NOT NULL,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "document" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'AVAILABLE',
    "contact_emails" TEXT[] NOT NULL DEFAULT '{}',
    "contact_phones" TEXT[] NOT NULL DEFAULT '{}',
    "address" JSONB NOT NULL,
    "services" JSONB NOT NULL,
    "menu_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "last_update" TIMESTAMPTZ(3) NOT NULL,
    "public_json" TEXT NOT NULL,
    CONSTRAINT "merchants_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "menus" (
    "merchant_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "source" JSONB NOT NULL,
    "public_json" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "menus_pkey" PRIMARY KEY ("merchant_id"),
    CONSTRAINT "menus_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
