-- The checkout's shape with nothing in it: one read, then two transactions of two statements each, every
-- statement a prepared SELECT of one parameter. What the protocol, the transactions and the statements
-- themselves cost before any table is touched.
\set n :n + 1
SELECT :n;
BEGIN;
SELECT :n;
SELECT :n;
COMMIT;
BEGIN;
SELECT :n;
SELECT :n;
COMMIT;
