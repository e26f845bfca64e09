-- The rows one measured run works on, numbered g = :base + client * 1000000 + n (n = 1..:per, clients
-- 0..:clients-1), as the scripts number them:
--   checkout: order '<g>' AWAITING_PAYMENT with an e-mail, as POST /api/orders leaves it (the applied
--             webhook then finds the READY attempt the checkout left, payment id '9<g>');
--   sweep:    order 's<g>' AWAITING_PAYMENT and its UNKNOWN attempt 'chk_s<g>', aged past the lease; ids
--             consecutive, so the scripts compute them ((order|attempt) id = first id + position).
-- psql -v base=1000000000 -v clients=2 -v per=3000 -f seed-targets.sql
INSERT INTO orders (order_ref, status, amount, currency, customer_ref, customer_email, client_token_hash)
SELECT g::text, 'AWAITING_PAYMENT', 10.00, 'EUR', 'c-' || g, 'a@b.test', sha256(convert_to(g::text, 'UTF8'))
  FROM (SELECT :base + c * 1000000 + n AS g FROM generate_series(0, :clients - 1) c, generate_series(1, :per) n) t
 ORDER BY g;
INSERT INTO orders (order_ref, status, amount, currency, customer_ref, customer_email, client_token_hash)
SELECT 's' || g, 'AWAITING_PAYMENT', 10.00, 'EUR', 'c-' || g, 'a@b.test', sha256(convert_to('s' || g, 'UTF8'))
  FROM (SELECT :base + c * 1000000 + n AS g FROM generate_series(0, :clients - 1) c, generate_series(1, :per) n) t
 ORDER BY g;
INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, updated_at)
SELECT id, 'chk_' || order_ref, 'UNKNOWN', 10.00, 'EUR', 'https://shop.test/r', now() - interval '1 hour'
  FROM orders WHERE order_ref LIKE 's%' AND substr(order_ref, 2)::bigint BETWEEN :base AND :base + :clients * 1000000
 ORDER BY id;
ANALYZE orders;
ANALYZE psp_attempt;
