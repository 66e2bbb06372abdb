-- API keys that can be listed, revoked, rotated and given an expiry. A key is named by
-- key_id, the first 12 hex digits of its hash (nothing of the key itself); a revoked key
-- keeps its row, so `raag api-key list` shows when it was revoked and last used.
ALTER TABLE api_keys
    ADD COLUMN key_id text GENERATED ALWAYS AS (left(key_hash, 12)) STORED,
    ADD COLUMN expires_at timestamptz,
    ADD COLUMN revoked_at timestamptz,
    ADD COLUMN last_used_at timestamptz,
    ADD COLUMN replaced_by text;  -- the key_id of the key a rotation made
CREATE UNIQUE INDEX api_keys_key_id ON api_keys (key_id);
