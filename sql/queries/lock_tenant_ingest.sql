-- One ingest of a tenant at a time: a session-level lock, held by a connection of its own for
-- the whole run and released by unlock_tenant_ingest, or by the server when the connection
-- ends (a killed process releases it too).
SELECT pg_advisory_lock(hashtextextended('raag ingest ' || %(tenant)s, 0))
