-- A webhook receipt whose payment holds a value we cannot book (issue 21 item 1) is kept open for the
-- replay job with the fault's kind (PaymentPayloadFault.Kind slug, e.g. 'currency', 'id_too_long').
-- Expand only: a nullable column without a default, no rewrite, no scan; old code never reads it.
SET LOCAL lock_timeout = '5s';

ALTER TABLE psp_webhook_event ADD COLUMN fault text;
