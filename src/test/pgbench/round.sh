#!/usr/bin/env bash
# One measured round of every path on a fresh copy of a seeded template, with an optional variant (SQL run
# on the copy first). Usage: round.sh TEMPLATE VARIANT.sql|- NAME [CLIENTS PER_CLIENT]
# Prints one line per path (pgcpu.py), PostgreSQL CPU ms per operation first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
template=$1 variant=$2 name=$3 clients=${4:-2} per=${5:-3000}
db=pg25_r_$$
base=$(( ($(date +%s) % 1000) * 10000000 + 1000000000 ))
P=(psql -h 127.0.0.1 -U postgres -q -v ON_ERROR_STOP=1)
"${P[@]}" -c "CREATE DATABASE $db TEMPLATE $template"
trap '"${P[@]}" -c "DROP DATABASE IF EXISTS $db" >/dev/null' EXIT
[ "$variant" = - ] || "${P[@]}" -d $db -f "$variant" >/dev/null
"${P[@]}" -d $db -v base=$base -v clients=$clients -v per=$per -f seed-targets.sql >/dev/null
D=(-D base=$base -D per=$per); while IFS= read -r l; do D+=(-D "$l"); done < defines.txt
afirst=$("${P[@]}" -d $db -Atc "SELECT min(a.id) FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = 's$((base + 1))'")
ofirst=$("${P[@]}" -d $db -Atc "SELECT id FROM orders WHERE order_ref = 's$((base + 1))'")
echo "== $name ($(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
for s in checkout webhook billing; do ./pgcpu.py $db $s.sql $clients $per "${D[@]}" | sed "s/^/$name /"; done
./pgcpu.py $db sweep-claim.sql 1 $(( clients * per / 100 )) "${D[@]}" | sed "s/^/$name /"
./pgcpu.py $db sweep-attempt.sql $clients $per -D afirst=$afirst -D ofirst=$ofirst "${D[@]}" | sed "s/^/$name /"
./pgcpu.py $db sweep-claim.sql 1 300 "${D[@]}" | sed "s/^/$name idle-pass /"
"${P[@]}" -d $db -Atc "SELECT 'check', (SELECT count(*) FROM orders WHERE status = 'PAID'), (SELECT count(*) FROM psp_attempt WHERE state = 'UNKNOWN'), (SELECT count(*) FROM billing_grant)"
