-- lock_tenant_ingest without waiting: true when this session now holds the tenant's lock.
SELECT pg_try_advisory_lock(hashtextextended('raag ingest ' || %(tenant)s, 0))
