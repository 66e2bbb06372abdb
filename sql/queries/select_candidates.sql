-- The rows behind fused candidate keys, with their section.
SELECT c.doc_id, c.chunk_index, c.content, c.tags, c.metadata, c.section_id,
       s.label, s.heading, s.page_start, s.page_end, c.char_start, c.char_end
FROM chunks c
JOIN sections s ON s.tenant_id = c.tenant_id AND s.section_id = c.section_id
WHERE c.tenant_id = %(tenant)s
  AND (c.doc_id, c.chunk_index) IN (SELECT * FROM unnest(%(doc_ids)s::text[], %(chunk_indexes)s::int[]))
