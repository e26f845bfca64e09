-- The W3C traceparent of the request (or job) that committed the effect: the relay continues that trace
-- when it delivers, so one request can be followed to the sink. NULL for rows written outside a trace.
ALTER TABLE outbox ADD COLUMN trace_parent text;
