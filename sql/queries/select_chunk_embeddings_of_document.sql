-- Embeddings already computed for a document, by content hash, so re-sectioning reuses them.
SELECT DISTINCT ON (content_hash) content_hash, embedding
FROM chunks
WHERE tenant_id = %(tenant)s AND doc_id = %(doc_id)s AND embedding IS NOT NULL
ORDER BY content_hash, chunk_index
