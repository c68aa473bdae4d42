-- Webhook secrets at rest: `secret` holds `<keyId>.<base64url(iv | ciphertext | tag)>` (AES-256-GCM,
-- libs/crypto) and `key_id` names the key. Rows written before this migration keep their plaintext
-- with key_id NULL until auth encrypts them: every auth start seals the NULL rows under the active key
-- (SQL cannot: the key lives only in the services' environment), and `odctl secrets rotate-key`
-- re-encrypts every row under the active key.
ALTER TABLE "webhook_secret" ADD COLUMN "key_id" TEXT;
