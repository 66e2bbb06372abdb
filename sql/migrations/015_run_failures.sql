-- Failed Dagster runs, one row each, written by the record_run_failures sensor (the daemon
-- runs it for runs from the UI, a sensor or a schedule) and by `raag ingest` for its own;
-- `raag failures` lists them. Not per tenant: a run may have no tenant partition.
CREATE TABLE run_failures (
    run_id    text PRIMARY KEY,
    job_name  text NOT NULL,
    tenant_id text,
    failed_at timestamptz NOT NULL,
    steps     text[] NOT NULL DEFAULT '{}',  -- the steps that failed
    error     text NOT NULL                  -- the first line of the root cause
);
CREATE INDEX run_failures_recent ON run_failures (failed_at DESC);
