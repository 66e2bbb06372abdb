-- The tenant's reader role and schema; no row if the tenant is not registered.
SELECT raag_reader_role(tenant_id), raag_reader_schema(tenant_id)
FROM tenants
WHERE tenant_id = %(tenant)s
