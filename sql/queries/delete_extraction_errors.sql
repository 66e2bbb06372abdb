DELETE FROM extraction_errors WHERE tenant_id = %(tenant)s AND stage = %(stage)s
