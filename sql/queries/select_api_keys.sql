-- Every key (of one tenant, or all), newest first, with its state now.
SELECT key_id,
       tenant_id AS tenant,
       label,
       created_at,
       expires_at,
       revoked_at,
       last_used_at,
       replaced_by,
       CASE
           WHEN revoked_at IS NOT NULL THEN 'revoked'
           WHEN expires_at IS NOT NULL AND expires_at <= now() THEN 'expired'
           ELSE 'active'
       END AS state
FROM api_keys
WHERE %(tenant)s::text IS NULL OR tenant_id = %(tenant)s
ORDER BY created_at DESC, key_id
