-- API keys for the REST and MCP adapters: one or more per tenant, stored as SHA-256 hashes
-- (the key itself is shown once, when it is created).
CREATE TABLE api_keys (
    key_hash   text PRIMARY KEY,
    tenant_id  text NOT NULL REFERENCES tenants (tenant_id) ON DELETE CASCADE,
    label      text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id);
