-- Revoke now, or (a rotation's grace period) let the key expire at %(expires_at)s; a key
-- already revoked keeps its first revocation time.
UPDATE api_keys
SET revoked_at = CASE WHEN %(expires_at)s::timestamptz IS NULL
                      THEN coalesce(revoked_at, now()) ELSE revoked_at END,
    expires_at = CASE WHEN %(expires_at)s::timestamptz IS NULL THEN expires_at
                      ELSE least(coalesce(expires_at, %(expires_at)s), %(expires_at)s) END,
    replaced_by = coalesce(%(replaced_by)s, replaced_by)
WHERE key_id = %(key_id)s
