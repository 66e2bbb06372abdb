-- The tenant's documents generation (migration 018), under which what names its documents is
-- cached.
SELECT t.documents_generation FROM tenants t WHERE t.tenant_id = %(tenant)s
