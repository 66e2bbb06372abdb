DELETE FROM stage_fingerprints WHERE tenant_id = %(tenant)s AND stage = ANY(%(stages)s::text[])
