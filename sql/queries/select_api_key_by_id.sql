SELECT key_id, tenant_id, label, created_at, expires_at, revoked_at
FROM api_keys
WHERE key_id = %(key_id)s
FOR UPDATE
