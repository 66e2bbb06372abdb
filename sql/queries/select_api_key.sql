-- The key a request presents: its tenant, whether it may be used now and why not, and whether
-- its last use is old enough to record again (at most once a minute: no write per request).
SELECT tenant_id,
       key_id,
       revoked_at,
       expires_at,
       expires_at IS NOT NULL AND expires_at <= now() AS expired,
       last_used_at IS NULL OR last_used_at < now() - interval '1 minute' AS stale_use
FROM api_keys
WHERE key_hash = %(key_hash)s
