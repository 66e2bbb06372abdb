-- Embeddings the tenant already holds for a document's chunks, by content hash, so that
-- re-sectioning it reuses them: the document's own unchanged chunks first, else another chunk
-- of the same text (another document, an earlier version filed under a new name, a contract
-- from the same template); among those, the first by document and position, so the same rows
-- give the same vectors.
SELECT DISTINCT ON (content_hash) content_hash, embedding, doc_id = %(doc_id)s AS own
FROM chunks
WHERE tenant_id = %(tenant)s AND content_hash = ANY(%(hashes)s) AND embedding IS NOT NULL
ORDER BY content_hash, doc_id <> %(doc_id)s, doc_id, chunk_index
