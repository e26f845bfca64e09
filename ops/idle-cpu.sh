#!/usr/bin/env bash
# Idle CPU of the shipped jar (docs/benchmarks.md): production settings, every job at its
# default interval, the outbox relay on, a fresh empty database, no PSP reachable, no traffic.
# Reads utime + stime of every thread from /proc/<pid>/task/*/stat over a window that starts
# SETTLE seconds after the instance is healthy, and prints % of one core and the busiest threads.
#
#   ops/idle-cpu.sh [jar] [settle-seconds=480] [window-seconds=180]
# Needs a local PostgreSQL (PGHOST/PGUSER, default 127.0.0.1/postgres) it may create a database on.
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=${1:-$(ls target/payments-*.jar | grep -v -e original -e pspsim | head -1)}
SETTLE=${2:-480}
WINDOW=${3:-180}
PGHOST=${PGHOST:-127.0.0.1}
PGUSER=${PGUSER:-postgres}
DB="idle_$(date +%s)"
PORT=${IDLE_PORT:-18080}
MGMT=${IDLE_MGMT_PORT:-18081}
psql -h "$PGHOST" -U "$PGUSER" -d postgres -qc "CREATE DATABASE $DB"
LOG=$(mktemp /tmp/idle-cpu.XXXX.log)
SPRING_DATASOURCE_URL="jdbc:postgresql://$PGHOST:5432/$DB" SPRING_DATASOURCE_USERNAME="$PGUSER" \
SPRING_DATASOURCE_PASSWORD="${PGPASSWORD:-postgres}" \
PSP_API_URL=http://127.0.0.1:9 PSP_API_KEY=idle-key PSP_SIGNING_KEY=idle-signing-key \
SHOP_API_KEYS=idle-shop-key ADMIN_API_KEYS=idle-admin-key APP_PUBLIC_URL=https://payments.example.com \
SHOP_RETURN_URL=https://shop.example.com/return SERVER_PORT=$PORT MANAGEMENT_SERVER_PORT=$MGMT \
  java -Xmx512m -jar "$JAR" >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; psql -h "$PGHOST" -U "$PGUSER" -d postgres -qc "DROP DATABASE IF EXISTS $DB" || true' EXIT
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$MGMT/actuator/health" >/dev/null 2>&1 && break
  sleep 1
done
curl -fs "http://127.0.0.1:$MGMT/actuator/health" >/dev/null || { echo "not healthy, log: $LOG"; exit 1; }
echo "healthy at $(date -u +%H:%M:%S); settling ${SETTLE}s, then measuring ${WINDOW}s"
sleep "$SETTLE"
ticks() { for f in /proc/$PID/task/*/stat; do
  # comm may contain spaces: fields after the closing parenthesis
  awk -v f="$f" '{ s=$0; sub(/^.*\) /, "", s); split(s, a, " "); print a[12] + a[13], f }' "$f" 2>/dev/null
done; }
names() { for t in /proc/$PID/task/*; do echo "$(basename "$t") $(cat "$t/comm" 2>/dev/null)"; done; }
before=$(ticks); load0=$(cut -d' ' -f1-3 /proc/loadavg); threads0=$(ls /proc/$PID/task | wc -l)
sleep "$WINDOW"
after=$(ticks); load1=$(cut -d' ' -f1-3 /proc/loadavg); threads1=$(ls /proc/$PID/task | wc -l)
hz=$(getconf CLK_TCK)
join -1 2 -2 2 <(echo "$before" | sort -k2) <(echo "$after" | sort -k2) \
  | awk '{ d=$3-$2; if (d>0) { split($1, p, "/"); print d, p[5] } }' | sort -k2 >/tmp/idle-delta.$$
total=$(awk '{ t+=$1 } END { print t+0 }' /tmp/idle-delta.$$)
echo "window: ${WINDOW}s from $(( SETTLE ))s after healthy; load $load0 -> $load1; threads $threads0 -> $threads1"
awk -v t="$total" -v w="$WINDOW" -v hz="$hz" 'BEGIN { printf "idle: %d ticks = %.2f %% of one core\n", t, 100*t/(w*hz) }'
echo "busiest threads (ticks, name):"
join -1 2 -2 1 <(sort -k2 /tmp/idle-delta.$$) <(names | sort -k1) | awk '{ print $2, $3 }' | sort -rn | head -12
rm -f /tmp/idle-delta.$$
