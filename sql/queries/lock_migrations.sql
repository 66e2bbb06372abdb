-- One migrator at a time: held until the migrating transaction ends.
SELECT pg_advisory_xact_lock(%(key)s)
