SELECT stage, fingerprint FROM stage_fingerprints WHERE tenant_id = %(tenant)s ORDER BY stage
