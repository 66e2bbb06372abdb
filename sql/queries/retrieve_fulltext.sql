-- Full-text candidates: any of the query's lexemes (OR), ranked by cover density.
WITH q AS (
    SELECT to_tsquery('simple', coalesce(string_agg(quote_literal(lexeme), ' | ' ORDER BY lexeme), '')) AS query
    FROM unnest(tsvector_to_array(to_tsvector('english', %(query)s))) AS lexeme
)
SELECT doc_id, chunk_index, ts_rank_cd(tsv, q.query) AS rank
FROM chunks, q
WHERE tenant_id = %(tenant)s
  AND tsv @@ q.query
  AND (%(tags_any)s::text[] IS NULL OR tags && %(tags_any)s::text[])
  AND (%(tags_all)s::text[] IS NULL OR tags @> %(tags_all)s::text[])
  AND metadata @> %(metadata)s::jsonb
  AND (%(doc_ids)s::text[] IS NULL OR doc_id = ANY(%(doc_ids)s::text[]))
ORDER BY rank DESC, doc_id, chunk_index
LIMIT %(pool)s
