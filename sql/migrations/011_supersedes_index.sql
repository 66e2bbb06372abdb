-- search() asks for a tenant's superseded documents on every query; without an index that
-- is a scan of all the tenant's edges (10 ms at 50k edges). Supersedes edges are few, so a
-- partial index answers it from a handful of entries.
CREATE INDEX IF NOT EXISTS edges_supersedes ON edges (tenant_id, dst_doc_id)
    WHERE edge_type = 'supersedes';
