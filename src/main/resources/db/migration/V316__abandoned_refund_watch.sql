-- The refund straggler poll also asks about refunds an operator abandoned, for
-- payments.refunds.abandoned-watch after the abandon: a refund the PSP made after all is booked again even
-- when its webhook is lost. Few rows (operator actions), found by this partial index.
CREATE INDEX psp_refund_abandoned_watch ON psp_refund_attempt (abandoned_at)
    WHERE state = 'FAILED' AND error_code = 'abandoned' AND psp_payment_id IS NULL;
