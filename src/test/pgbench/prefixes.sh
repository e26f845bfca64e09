#!/usr/bin/env bash
# Per statement: each prefix of one path's script (prefix.py) on a fresh copy of the template, after what
# the path needs (the checkout before the webhook, the claim before a swept attempt).
# Usage: prefixes.sh TEMPLATE VARIANT.sql|- PATH(checkout|webhook|billing|sweep-attempt) [CLIENTS PER]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
template=$1 variant=$2 path=$3 clients=${4:-2} per=${5:-1500}
P=(psql -h 127.0.0.1 -U postgres -q -v ON_ERROR_STOP=1)
K=$(./prefix.py $path.sql | wc -l)
echo "== $path by prefix ($(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
for k in $(seq 1 $K); do
  db=pg25_p_$$_$k
  base=$(( ($(date +%s) % 1000) * 10000000 + 1000000000 + k * 100000 ))
  "${P[@]}" -c "CREATE DATABASE $db TEMPLATE $template"
  [ "$variant" = - ] || "${P[@]}" -d $db -f "$variant" >/dev/null
  "${P[@]}" -d $db -v base=$base -v clients=$clients -v per=$per -f seed-targets.sql >/dev/null
  D=(-D base=$base -D per=$per); while IFS= read -r l; do D+=(-D "$l"); done < defines.txt
  case $path in
    webhook) ./pgcpu.py $db checkout.sql $clients $per "${D[@]}" >/dev/null ;;
    sweep-attempt) ./pgcpu.py $db sweep-claim.sql 1 $(( clients * per / 100 )) "${D[@]}" >/dev/null
      D+=(-D afirst=$("${P[@]}" -d $db -Atc "SELECT min(a.id) FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = 's$((base + 1))'"))
      D+=(-D ofirst=$("${P[@]}" -d $db -Atc "SELECT id FROM orders WHERE order_ref = 's$((base + 1))'")) ;;
  esac
  ./prefix.py $path.sql $k /tmp/pg25-prefix-$$.sql
  ./pgcpu.py $db /tmp/pg25-prefix-$$.sql $clients $per "${D[@]}" | sed "s/^[^ ]*/$path 1..$k/"
  "${P[@]}" -c "DROP DATABASE $db"
done
