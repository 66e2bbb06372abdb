-- How near each chunk of the given sections lies to the query's embedding (cosine
-- similarity), with its span in the raw text: where inside a long section the query's meaning
-- is (passages). The documents narrow the scan to their rows of the chunks' primary key.
SELECT section_id, char_start, char_end, 1 - (embedding <=> %(embedding)s) AS similarity
FROM chunks
WHERE tenant_id = %(tenant)s
  AND doc_id = ANY(%(doc_ids)s::text[])
  AND section_id = ANY(%(ids)s::text[])
  AND embedding IS NOT NULL
  AND char_start IS NOT NULL
ORDER BY section_id, chunk_index
