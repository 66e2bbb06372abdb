-- The documents another replaces: superseded by any rule but a numbered version's name
-- ('GPL-2' -> 'GPL-3'), whose versions may both stay in force (search prefers the later one
-- only when a query names neither).
SELECT DISTINCT dst_doc_id
FROM edges
WHERE tenant_id = %(tenant)s AND edge_type = 'supersedes' AND dst_doc_id IS NOT NULL
  AND dst_section_id IS NULL AND coalesce(rule, '') <> 'supersedes.file_name_version'
ORDER BY dst_doc_id
