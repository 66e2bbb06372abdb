-- Every live chunk of the documents a query names (at most %(cap)s + 1 rows; the caller falls
-- back to the index search beyond %(cap)s), each with its cosine distance to the query (NULL
-- without an embedding, or in full-text mode) and its
-- BM25 (k1 = 1.2, b = 0.75) over the query's lexemes, as retrieve_fulltext scores it (N and
-- the document frequencies %(df)s are the tenant's). A named document is small, so reading
-- all its chunks ranks every one, exactly, where the pooled index search ranks only those it
-- reached: the answer is inside the document, and the in-document order decides.
WITH docs AS MATERIALIZED (
    SELECT c.doc_id, c.chunk_index, c.tsv, length(c.tsv) AS len,
           c.embedding <=> %(embedding)s::vector AS distance
    FROM chunks c
    WHERE c.tenant_id = %(tenant)s
      AND c.doc_id = ANY(%(doc_ids)s::text[])
      AND (c.live OR %(history)s)
      AND (%(tags_any)s::text[] IS NULL OR c.tags && %(tags_any)s::text[])
      AND (%(tags_all)s::text[] IS NULL OR c.tags @> %(tags_all)s::text[])
      AND c.metadata @> %(metadata)s::jsonb
    LIMIT %(cap)s + 1
), total AS (
    SELECT greatest(max(x.live_chunks)::float8, max(t.df) + 1, 1) AS n
    FROM unnest(%(df)s::int[]) AS t(df), tenants x
    WHERE x.tenant_id = %(tenant)s
), terms AS (
    SELECT t.lexeme, ln(1 + (total.n - t.df + 0.5) / (t.df + 0.5)) AS idf
    FROM unnest(%(rank)s::text[], %(df)s::int[]) AS t(lexeme, df), total
    WHERE t.df > 0
), stats AS (
    SELECT greatest(avg(len), 1)::float8 AS avglen FROM docs
)
SELECT d.doc_id, d.chunk_index, d.distance,
       coalesce((SELECT sum(t.idf * cardinality(v.positions)::float8 * 2.2
                            / (cardinality(v.positions) + 1.2 * (0.25 + 0.75 * d.len / s.avglen)))
                 FROM unnest(ts_filter(setweight(d.tsv, 'A', %(rank)s::text[]), '{a}')) AS v
                 JOIN terms t ON t.lexeme = v.lexeme), 0) AS bm25
FROM docs d CROSS JOIN stats s
