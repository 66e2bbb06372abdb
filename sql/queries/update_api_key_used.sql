UPDATE api_keys SET last_used_at = now() WHERE key_id = %(key_id)s
