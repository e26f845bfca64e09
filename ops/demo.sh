#!/usr/bin/env bash
# Drives one checkout end to end: create an order, start checkout, "pay" on the simulator's hosted page,
# show the order PAID and the order_paid effect the outbox delivered to the simulator's recording sink.
# Exits non-zero when a step fails, so CI can run it.
#
#   development launcher (./mvnw spring-boot:test-run):  ops/demo.sh
#   the same against the simulator's Stripe surface (PSP_PROVIDER=stripe ./mvnw spring-boot:test-run): ops/demo.sh
#     (the session's hosted page takes the same "pay" click; its events reach /webhooks/stripe)
#   docker compose stack:  SHOP_KEY=local-shop-key SIM_ADMIN_TOKEN=local-sim-admin ops/demo.sh
#
# Every key and URL is overridable from the environment:
#   SERVICE_URL (http://localhost:8080)   the service, or the load balancer in front of it
#   SIMULATOR_URL (http://localhost:8090) the PSP simulator
#   SHOP_KEY (dev-shop-key)               one of SHOP_API_KEYS
#   SIM_ADMIN_TOKEN (sim-admin-token)     the simulator's PSPSIM_ADMIN_TOKEN
#   DEMO_TIMEOUT (30)                     seconds to wait for PAID and for the sink delivery
set -euo pipefail
S=${SERVICE_URL:-http://localhost:8080}
SIM=${SIMULATOR_URL:-http://localhost:8090}
SHOP_KEY=${SHOP_KEY:-dev-shop-key}
SIM_ADMIN=${SIM_ADMIN_TOKEN:-sim-admin-token}
WAIT=${DEMO_TIMEOUT:-30}
REF="demo-$(date +%s)"
json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

echo "1. create order $REF"
ORDER=$(curl -sf --max-time 30 -X POST "$S/api/orders" -H "Authorization: Bearer $SHOP_KEY" -H 'Content-Type: application/json' \
  -d "{\"orderRef\":\"$REF\",\"amount\":\"10.01\",\"currency\":\"EUR\",\"customer\":{\"referenceId\":\"cust-1\",\"email\":\"demo@example.com\"}}")
echo "   $ORDER"
TOKEN=$(echo "$ORDER" | json "['clientToken']")

echo "2. checkout (as the shop's frontend, with the order's client token)"
CHECKOUT=$(curl -sf --max-time 60 -X POST "$S/api/orders/$REF/checkout" -H "Authorization: Bearer $TOKEN")
echo "   $CHECKOUT"
REDIRECT=$(echo "$CHECKOUT" | json "['redirectUrl']")

echo "3. the customer clicks \"pay\" on the hosted page $REDIRECT"
curl -s --max-time 30 -o /dev/null -w "   hosted page answered %{http_code}, back to %{redirect_url}\n" -X POST "$REDIRECT/pay"

echo "4. the customer returns: the service polls the PSP and applies the result"
STATUS=
for _ in $(seq 1 "$WAIT"); do
  VIEW=$(curl -sf --max-time 30 "$S/api/orders/$REF/return" -H "Authorization: Bearer $TOKEN")
  STATUS=$(echo "$VIEW" | json "['status']")
  [ "$STATUS" = "PAID" ] && break
  sleep 1
done
echo "   $VIEW"
if [ "$STATUS" != "PAID" ]; then
  echo "   order $REF is $STATUS, not PAID, after ${WAIT}s" >&2
  exit 1
fi

echo "5. the fulfilment effect reaches the sink (outbox relay, Idempotency-Key <paymentId>:order_paid)"
for _ in $(seq 1 "$WAIT"); do
  SINK=$(curl -sf --max-time 10 "$SIM/sim/sink" -H "Authorization: Bearer $SIM_ADMIN" || true)
  if echo "$SINK" | grep -q "$REF"; then
    echo "$SINK" | python3 -c "
import json,sys
for r in json.load(sys.stdin):
    if '$REF' in json.dumps(r): print('   ', json.dumps(r))"
    exit 0
  fi
  sleep 1
done
echo "   no order_paid delivery seen yet (is the outbox relay configured? FULFILMENT_SINK_URL)" >&2
exit 1
