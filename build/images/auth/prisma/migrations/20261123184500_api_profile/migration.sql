-- A credential's API profile: SPEC (the platform's documented shapes, default) or OPEN_DELIVERY
-- (the official Open Delivery 1.4.0 contract). Fixed at creation.
ALTER TABLE "credential"
  ADD COLUMN "api_profile" TEXT NOT NULL DEFAULT 'SPEC'
  CONSTRAINT "credential_api_profile_check" CHECK ("api_profile" IN ('SPEC', 'OPEN_DELIVERY'));
