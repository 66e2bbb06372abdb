INSERT INTO api_keys (key_hash, tenant_id, label, expires_at)
VALUES (%(key_hash)s, %(tenant)s, %(label)s, %(expires_at)s)
RETURNING key_id
