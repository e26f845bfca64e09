-- The applied webhook's shape with nothing in it: one statement alone, then a transaction of five.
\set n :n + 1
SELECT :n;
BEGIN;
SELECT :n;
SELECT :n;
SELECT :n;
SELECT :n;
SELECT :n;
COMMIT;
