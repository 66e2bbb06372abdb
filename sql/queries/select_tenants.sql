SELECT tenant_id FROM tenants ORDER BY tenant_id
