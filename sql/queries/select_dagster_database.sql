-- A row if the server already has the `dagster` database (Dagster's run and event storage).
SELECT 1 FROM pg_database WHERE datname = 'dagster'
