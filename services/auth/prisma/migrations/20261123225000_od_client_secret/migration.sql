-- OPEN_DELIVERY credentials sign the standard's webhook (`X-App-Signature`, HMAC-SHA256 keyed with
-- the client secret), so their client secret is kept encrypted besides its hash: `client_secret` =
-- `<keyId>.<base64url(iv | ciphertext | tag)>` (AES-256-GCM, libs/crypto, bound to the client id),
-- `client_secret_key_id` the key. NULL for SPEC credentials (only the hash is kept) and for
-- OPEN_DELIVERY credentials created before this migration (their secret was never stored).
ALTER TABLE "credential"
  ADD COLUMN "client_secret" TEXT,
  ADD COLUMN "client_secret_key_id" TEXT;
