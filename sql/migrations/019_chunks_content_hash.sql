-- Chunks looked up by their text's hash within a tenant: the sections step gives a new chunk
-- the vector the tenant already holds for the same text (another document, an earlier
-- version filed under a new name) instead of the model's time (store.documents.replace_sections).
-- Built for every tenant's partition here, as 017 built the vector index: two locks per
-- tenant (its partition, its new index), so 0.3 s and well inside the server's lock table on
-- a store of 1,000 empty tenants.
CREATE INDEX chunks_content_hash ON chunks (tenant_id, content_hash);
