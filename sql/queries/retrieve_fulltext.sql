-- Full-text candidates ranked by BM25 (k1 = 1.2, b = 0.75) over the query's lexemes, with
-- bounded work: rows are matched on the query's rarest lexemes (%(match)s, joined by
-- %(op)s), at most %(cap)s of them are scored, and every lexeme of the query scores (its
-- document frequency %(df)s counted up to the cap, so a very common word's weight is an upper
-- bound). Term frequency is the lexeme's position count in chunks.tsv; a chunk's length is its
-- number of positions, against the mean of the scored chunks.
WITH q AS (
    SELECT to_tsquery('simple', array_to_string(
               ARRAY(SELECT quote_literal(x) FROM unnest(%(match)s::text[]) AS x), %(op)s)) AS match
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
), total AS (
    SELECT greatest(count(*), 1)::float8 AS n FROM chunks
    WHERE tenant_id = %(tenant)s AND (live OR %(history)s)
), terms AS (
    SELECT t.lexeme, ln(1 + (total.n - t.df + 0.5) / (t.df + 0.5)) AS idf
    FROM unnest(%(rank)s::text[], %(df)s::int[]) AS t(lexeme, df), total
), sized AS (
    SELECT c.doc_id, c.chunk_index, c.tsv,
           (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(c.tsv) AS u) AS len
    FROM candidates c
), stats AS (
    SELECT greatest(avg(len), 1)::float8 AS avglen FROM sized
)
SELECT s.doc_id, s.chunk_index,
       sum(t.idf * u.tf * 2.2 / (u.tf + 1.2 * (0.25 + 0.75 * s.len / stats.avglen))) AS rank
FROM sized s
CROSS JOIN stats
CROSS JOIN LATERAL (SELECT v.lexeme, cardinality(v.positions)::float8 AS tf
                    FROM unnest(s.tsv) AS v) AS u
JOIN terms t ON t.lexeme = u.lexeme
GROUP BY s.doc_id, s.chunk_index
ORDER BY rank DESC, s.doc_id, s.chunk_index
LIMIT %(pool)s
