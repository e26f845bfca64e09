-- The abandoned-attempt watch (chaos finding, issue 13): an operator abandons an UNKNOWN attempt the
-- PSP did not show; its payment may still appear later, and if its webhook is lost nothing else would
-- learn it. For payments.duplicates.abandoned-watch after the abandon the PSP is asked again by the
-- attempt's reference. last_polled_at is the watch's lease (database clock); watch_closed_at is set once
-- the PSP showed the attempt's payment in a final state (applied: a COMPLETED one is a second charge).
ALTER TABLE psp_attempt
    ADD COLUMN last_polled_at  timestamptz,
    ADD COLUMN watch_closed_at timestamptz;

CREATE INDEX psp_attempt_abandoned_watch ON psp_attempt (abandoned_at)
    WHERE failure_reason = 'abandoned' AND watch_closed_at IS NULL;
