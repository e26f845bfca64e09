-- Late truths are watched for a month (issue 21): an abandoned checkout attempt or refund is asked about
-- again for payments.duplicates.abandoned-watch / payments.refunds.abandoned-watch (30d) after the abandon,
-- at gaps that grow with its age, so a month of watching costs about 37 look-ups a row, not 2,880.
-- One definition of "due" for both claims (AttemptStore.CLAIM_ABANDONED, RefundStore.CLAIM_NOT_FINAL):
-- never asked yet: due at once; else due when as long has passed since the last look-up as had passed
-- between the abandon and that look-up (the gap doubles: grace, 2x, 4x, ...), never sooner than grace
-- and never later than 24 hours after it (at most one look-up a day once a row is a day old).
-- Database clock, like the lease it replaces. Only the claims' WHERE reads it; the rows it filters are the
-- watch window's, found by the partial indexes on abandoned_at (V315, V316). Additive: old code ignores it.
CREATE FUNCTION late_truth_due(abandoned_at timestamptz, last_polled_at timestamptz, grace interval)
    RETURNS timestamptz
    LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN last_polled_at IS NULL THEN abandoned_at
                ELSE last_polled_at + least(interval '24 hours', greatest(grace, last_polled_at - abandoned_at))
           END
$$;
