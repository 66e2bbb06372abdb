-- Edges (of one stage, or all) whose source or target is missing (should be none). The
-- subqueries name the tenant itself, not e.tenant_id: a correlated tenant cannot prune, and
-- each would plan (and lock) every tenant's partition.
SELECT count(*)
FROM edges e
WHERE e.tenant_id = %(tenant)s
  AND (%(stage)s::text IS NULL OR e.stage = %(stage)s)
  AND ((e.src_section_id IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM sections s WHERE s.tenant_id = %(tenant)s AND s.section_id = e.src_section_id))
    OR (e.dst_section_id IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM sections s WHERE s.tenant_id = %(tenant)s AND s.section_id = e.dst_section_id))
    OR (e.dst_doc_id IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM documents d WHERE d.tenant_id = %(tenant)s AND d.doc_id = e.dst_doc_id)))
