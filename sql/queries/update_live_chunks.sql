-- Recount a tenant's live chunks (the N of full-text IDF) after a stage changed them.
UPDATE tenants
SET live_chunks = (SELECT count(*) FROM chunks WHERE tenant_id = %(tenant)s AND live)
WHERE tenant_id = %(tenant)s
