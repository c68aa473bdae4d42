-- One PostgreSQL role per service, each owning only its own schema (docs: deploy/postgres/README.md).
-- Run once per database as a superuser (or the database owner), with psql, before the services start:
--   psql "$ADMIN_DATABASE_URL" -v ON_ERROR_STOP=1 \
--     -v auth_password=... -v catalog_password=... -v orders_password=... \
--     -v feed_password=... -v webhook_password=... -v panel_password=... -f deploy/postgres/roles.sql
-- Each service then connects as its role (DATABASE_URL=postgresql://od_auth:...@host/db) and runs its
-- own migrations at start: the tables are created by, and belong to, that role.
-- Idempotent: re-running it sets the passwords again.

SELECT current_database() AS db \gset

-- nobody but the owner may create objects in public, nor connect by default
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;

SELECT format('CREATE ROLE %I LOGIN', r) FROM unnest(ARRAY['od_auth', 'od_catalog', 'od_orders', 'od_feed', 'od_webhook', 'od_panel']) AS r
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) \gexec

ALTER ROLE od_auth PASSWORD :'auth_password';
ALTER ROLE od_catalog PASSWORD :'catalog_password';
ALTER ROLE od_orders PASSWORD :'orders_password';
ALTER ROLE od_feed PASSWORD :'feed_password';
ALTER ROLE od_webhook PASSWORD :'webhook_password';
ALTER ROLE od_panel PASSWORD :'panel_password';

-- schema = service name, owned by its role; no role gets anything on another's schema
CREATE SCHEMA IF NOT EXISTS auth AUTHORIZATION od_auth;
CREATE SCHEMA IF NOT EXISTS catalog AUTHORIZATION od_catalog;
CREATE SCHEMA IF NOT EXISTS orders AUTHORIZATION od_orders;
CREATE SCHEMA IF NOT EXISTS feed AUTHORIZATION od_feed;
CREATE SCHEMA IF NOT EXISTS webhook AUTHORIZATION od_webhook;
CREATE SCHEMA IF NOT EXISTS panel AUTHORIZATION od_panel;
ALTER SCHEMA auth OWNER TO od_auth;
ALTER SCHEMA catalog OWNER TO od_catalog;
ALTER SCHEMA orders OWNER TO od_orders;
ALTER SCHEMA feed OWNER TO od_feed;
ALTER SCHEMA webhook OWNER TO od_webhook;
ALTER SCHEMA panel OWNER TO od_panel;

GRANT CONNECT ON DATABASE :"db" TO od_auth, od_catalog, od_orders, od_feed, od_webhook, od_panel;
ALTER ROLE od_auth SET search_path = auth;
ALTER ROLE od_catalog SET search_path = catalog;
ALTER ROLE od_orders SET search_path = orders;
ALTER ROLE od_feed SET search_path = feed;
ALTER ROLE od_webhook SET search_path = webhook;
ALTER ROLE od_panel SET search_path = panel;
