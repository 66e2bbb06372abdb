-- Full-text candidates ranked by BM25 (k1 = 1.2, b = 0.75) over the query's lexemes, with
-- bounded work: rows are matched on the query's rarest lexemes (OR while their matches fit
-- the cap, else all lexemes by AND), at most %(cap)s of them are scored, and every lexeme of
-- the query scores (its document frequency %(df)s counted up to the cap, so a very common
-- word's weight is an upper bound; N is tenants.live_chunks, kept by the ingest stages).
-- Scoring is in two passes: all matched rows with each lexeme counted once (cheap: tsvector
-- @@), then the best %(rescore)s again with true term frequencies (position counts, which
-- need the tsvector unpacked).
-- A chunk's length is its number of distinct lexemes, against the mean of the matched rows.
-- %(match)s is the matching tsquery's text, built by the caller: as a constant the planner
-- folds it and reads the lexemes' frequencies from the column statistics, so for common words
-- that rarely meet it takes the GIN index rather than filtering the whole tenant in key order.
WITH candidates AS MATERIALIZED (
    SELECT c.doc_id, c.chunk_index, c.tsv, length(c.tsv) AS len
    FROM chunks c
    WHERE c.tenant_id = %(tenant)s
      AND c.tsv @@ to_tsquery('simple', %(match)s::text)
      AND (c.live OR %(history)s)
      AND (%(tags_any)s::text[] IS NULL OR c.tags && %(tags_any)s::text[])
      AND (%(tags_all)s::text[] IS NULL OR c.tags @> %(tags_all)s::text[])
      AND c.metadata @> %(metadata)s::jsonb
      AND (%(doc_ids)s::text[] IS NULL OR c.doc_id = ANY(%(doc_ids)s::text[]))
    LIMIT %(cap)s
), total AS (
    SELECT greatest(max(x.live_chunks)::float8, max(t.df) + 1, 1) AS n
    FROM unnest(%(df)s::int[]) AS t(df), tenants x
    WHERE x.tenant_id = %(tenant)s
), terms AS (
    SELECT t.lexeme, to_tsquery('simple', quote_literal(t.lexeme)) AS query,
           ln(1 + (total.n - t.df + 0.5) / (t.df + 0.5)) AS idf
    FROM unnest(%(rank)s::text[], %(df)s::int[]) AS t(lexeme, df), total
    WHERE t.df > 0
), stats AS (
    SELECT greatest(avg(len), 1)::float8 AS avglen FROM candidates
), coarse AS MATERIALIZED (
    SELECT c.doc_id, c.chunk_index,
           sum(t.idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * c.len / stats.avglen))) AS rank
    FROM candidates c
    CROSS JOIN stats
    JOIN terms t ON c.tsv @@ t.query
    GROUP BY c.doc_id, c.chunk_index
    ORDER BY rank DESC, c.doc_id, c.chunk_index
    LIMIT %(rescore)s
)
SELECT c.doc_id, c.chunk_index,
       sum(t.idf * u.tf * 2.2 / (u.tf + 1.2 * (0.25 + 0.75 * c.len / stats.avglen))) AS rank
FROM coarse k
JOIN candidates c ON c.doc_id = k.doc_id AND c.chunk_index = k.chunk_index
CROSS JOIN stats
-- Only the query's lexemes are unpacked, once per row: setweight marks them (chunks.tsv has
-- no weights of its own) and ts_filter keeps them, both in C; unnesting the whole tsvector
-- beside every term cost half the query at 100k chunks.
CROSS JOIN LATERAL (SELECT v.lexeme, cardinality(v.positions)::float8 AS tf
                    FROM unnest(ts_filter(setweight(c.tsv, 'A', %(rank)s::text[]), '{a}'))
                         AS v) AS u
JOIN terms t ON t.lexeme = u.lexeme
GROUP BY c.doc_id, c.chunk_index
ORDER BY rank DESC, c.doc_id, c.chunk_index
LIMIT %(pool)s
