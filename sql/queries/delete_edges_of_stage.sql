DELETE FROM edges WHERE tenant_id = %(tenant)s AND stage = %(stage)s
