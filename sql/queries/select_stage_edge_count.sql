-- The edges one graph stage wrote for a tenant (its asset's row count).
SELECT count(*) FROM edges WHERE tenant_id = %(tenant)s AND stage = %(stage)s
