-- Full-text candidates ranked by cover density, with bounded work: rows are matched on the
-- query's selective lexemes (%(match)s, joined by %(op)s), at most %(cap)s of them are ranked,
-- and ranking uses every lexeme of the query (OR).
WITH q AS (
    SELECT to_tsquery('simple', array_to_string(
               ARRAY(SELECT quote_literal(x) FROM unnest(%(match)s::text[]) AS x), %(op)s)) AS match,
           to_tsquery('simple', array_to_string(
               ARRAY(SELECT quote_literal(x) FROM unnest(%(rank)s::text[]) AS x), ' | ')) AS rank
), candidates AS MATERIALIZED (
    SELECT c.doc_id, c.chunk_index, c.tsv
    FROM chunks c, q
    WHERE c.tenant_id = %(tenant)s
      AND c.tsv @@ q.match
      AND (c.live OR %(history)s)
      AND (%(tags_any)s::text[] IS NULL OR c.tags && %(tags_any)s::text[])
      AND (%(tags_all)s::text[] IS NULL OR c.tags @> %(tags_all)s::text[])
      AND c.metadata @> %(metadata)s::jsonb
      AND (%(doc_ids)s::text[] IS NULL OR c.doc_id = ANY(%(doc_ids)s::text[]))
    LIMIT %(cap)s
)
SELECT doc_id, chunk_index, ts_rank_cd(tsv, q.rank) AS rank
FROM candidates, q
ORDER BY rank DESC, doc_id, chunk_index
LIMIT %(pool)s
