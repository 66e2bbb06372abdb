-- Every chunk's embedding, compared with the conformance corpus's within a tolerance.
SELECT doc_id, chunk_index, embedding
FROM chunks
WHERE tenant_id = %(tenant)s
ORDER BY doc_id, chunk_index
