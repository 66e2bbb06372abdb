-- Vector candidates: cosine distance through the HNSW index, filters applied in the scan.
SELECT doc_id, chunk_index, embedding <=> %(embedding)s AS distance
FROM chunks
WHERE tenant_id = %(tenant)s
  AND embedding IS NOT NULL
  AND (live OR %(history)s)
  AND (%(tags_any)s::text[] IS NULL OR tags && %(tags_any)s::text[])
  AND (%(tags_all)s::text[] IS NULL OR tags @> %(tags_all)s::text[])
  AND metadata @> %(metadata)s::jsonb
  AND (%(doc_ids)s::text[] IS NULL OR doc_id = ANY(%(doc_ids)s::text[]))
ORDER BY embedding <=> %(embedding)s
LIMIT %(pool)s
