-- Dagster's storage (runs, event logs, schedules) in a database of its own on raag's server;
-- raag's tables are in `raag` (POSTGRES_DB), created by `raag migrate`.
CREATE DATABASE dagster;
