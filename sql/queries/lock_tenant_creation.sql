-- One creator of a tenant at a time, held until the creating transaction ends: the GRANTs,
-- CREATE ROLE and CREATE SCHEMA of raag_add_tenant fail (`tuple concurrently updated`, a
-- duplicate key) when two sessions run them for the same tenant at once. A key space of its
-- own ('raag add_tenant'), apart from the per-tenant ingest lock a session may hold meanwhile.
SELECT pg_advisory_xact_lock(hashtextextended('raag add_tenant ' || %(tenant)s, 0))
