SELECT doc_id, chunk_index, content
FROM chunks
WHERE tenant_id = %(tenant)s AND embedding IS NULL
ORDER BY doc_id, chunk_index
