SELECT fingerprint FROM stage_fingerprints WHERE tenant_id = %(tenant)s AND stage = %(stage)s
