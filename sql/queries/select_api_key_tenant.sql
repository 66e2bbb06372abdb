SELECT tenant_id FROM api_keys WHERE key_hash = %(key_hash)s
