-- The section of each (doc_id, chunk_index) a caller's own search returned.
SELECT c.doc_id, c.chunk_index, c.section_id
FROM chunks c
WHERE c.tenant_id = %(tenant)s
  AND (c.doc_id, c.chunk_index) IN (SELECT * FROM unnest(%(doc_ids)s::text[], %(chunk_indexes)s::int[]))
