DELETE FROM unresolved_references WHERE tenant_id = %(tenant)s
