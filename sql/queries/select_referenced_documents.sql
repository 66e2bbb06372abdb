-- Which documents each document cites (references edges of any layer).
SELECT DISTINCT src_doc_id, dst_doc_id
FROM edges
WHERE tenant_id = %(tenant)s AND edge_type = 'references' AND dst_doc_id IS NOT NULL
  AND dst_doc_id <> src_doc_id
ORDER BY src_doc_id, dst_doc_id
