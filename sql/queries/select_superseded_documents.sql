SELECT DISTINCT dst_doc_id
FROM edges
WHERE tenant_id = %(tenant)s AND edge_type = 'supersedes' AND dst_doc_id IS NOT NULL
ORDER BY dst_doc_id
