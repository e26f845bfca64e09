-- Upper bound, not a proposal: every index of orders and psp_attempt that no statement of the measured
-- paths reads (nor an ON CONFLICT arbiter) dropped, constraints' unique indexes included.
ALTER TABLE orders DROP CONSTRAINT orders_client_token_hash_key;
DROP INDEX orders_customer_email_held, orders_psp_payment, orders_stragglers;
ALTER TABLE psp_attempt DROP CONSTRAINT psp_attempt_reference_id_key;
DROP INDEX psp_attempt_abandoned_watch;
