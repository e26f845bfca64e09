#!/usr/bin/env bash
# A scratch database of the service's schema: every Flyway migration in version order through psql
# (autocommit per statement, as the .conf files ask for the CONCURRENTLY ones). Usage: schema.sh DB
set -euo pipefail
db=$1
here=$(cd "$(dirname "$0")" && pwd)
migrations=$here/../../main/resources/db/migration
psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
for f in $(ls "$migrations"/V*.sql | sort -V); do
  psql -h 127.0.0.1 -U postgres -d "$db" -q -v ON_ERROR_STOP=1 -f "$f" >/dev/null 2>&1 || { echo "failed: $f" >&2; exit 1; }
done
