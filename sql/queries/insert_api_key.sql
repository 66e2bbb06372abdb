INSERT INTO api_keys (key_hash, tenant_id, label) VALUES (%(key_hash)s, %(tenant)s, %(label)s)
