-- New chunks (no vector yet) of the texts given take the vector a chunk of the same text in the
-- tenant already has: one per text, the first by document and position, so the same rows give
-- the same vectors.
UPDATE chunks AS c
SET embedding = s.embedding
FROM (
    SELECT DISTINCT ON (content_hash) content_hash, embedding
    FROM chunks
    WHERE tenant_id = %(tenant)s AND content_hash = ANY(%(hashes)s) AND embedding IS NOT NULL
    ORDER BY content_hash, doc_id, chunk_index
) AS s
WHERE c.tenant_id = %(tenant)s
  AND c.content_hash = s.content_hash
  AND c.embedding IS NULL
