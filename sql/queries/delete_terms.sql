DELETE FROM terms WHERE tenant_id = %(tenant)s
