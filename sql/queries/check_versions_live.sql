-- Chunks whose liveness disagrees with their document: a chunk of an earlier version that
-- retrieval would find, or a chunk of a live version that it would not (should be none).
SELECT count(*)
FROM chunks c
JOIN documents d ON d.tenant_id = c.tenant_id AND d.doc_id = c.doc_id
WHERE c.tenant_id = %(tenant)s AND c.live <> (d.version_of IS NULL)
