#!/bin/sh
# docker-compose.yml: creates the services' roles (roles.sql) at the database's first start, with the
# passwords the services connect with (DB_PASSWORD_<SERVICE>). The postgres image runs this file
# from /docker-entrypoint-initdb.d once, when the data volume is empty.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v auth_password="$DB_PASSWORD_AUTH" -v catalog_password="$DB_PASSWORD_CATALOG" \
  -v orders_password="$DB_PASSWORD_ORDERS" -v feed_password="$DB_PASSWORD_FEED" \
  -v webhook_password="$DB_PASSWORD_WEBHOOK" -v panel_password="$DB_PASSWORD_PANEL" \
  -f /opt/opendelivery/roles.sql
