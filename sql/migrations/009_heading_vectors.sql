-- Layer 3's heading vectors, kept by the hash of the text embedded: a re-run embeds only the
-- headings that are new or changed. Per tenant (dropped with it) and per model.
CREATE TABLE heading_vectors (
    tenant_id    text NOT NULL REFERENCES tenants (tenant_id) ON DELETE CASCADE,
    model        text NOT NULL,
    content_hash text NOT NULL,
    embedding    vector NOT NULL,
    PRIMARY KEY (tenant_id, model, content_hash)
);
