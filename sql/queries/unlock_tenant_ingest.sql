SELECT pg_advisory_unlock(hashtextextended('raag ingest ' || %(tenant)s, 0))
