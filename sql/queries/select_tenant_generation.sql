-- The tenant's generation (migrations 012 and 018: moved on by every write to its chunks or
-- documents), under which values derived from them are kept in a process.
SELECT t.chunks_generation FROM tenants t WHERE t.tenant_id = %(tenant)s
