-- What the conformance corpus pins of the chunks, in a stable order.
SELECT doc_id, chunk_index, section_id, content_hash, token_count
FROM chunks
WHERE tenant_id = %(tenant)s
ORDER BY doc_id, chunk_index
