"""The Dagster side: the assets (one module per stage, named for the table it writes), their
checks, the tenant partitions, the landing sensor and schedules, the pure stage entries over
frames (stages), and the ingest run the CLI and API start (run). Thin: the logic it calls
lives in ingest, graph and store."""
