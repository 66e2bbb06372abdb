-- How many of the named documents' live chunks hold each word of a query (by its english
-- lexemes, as chunks.tsv: all of a word's lexemes, 'wind-down' -> down, wind, wind-down), and
-- how many chunks they have; a word without a lexeme (a stop word) is not listed. A named
-- document is small (rank_document_chunks reads all its chunks the same way).
WITH docs AS MATERIALIZED (
    SELECT c.tsv
    FROM chunks c
    WHERE c.tenant_id = %(tenant)s
      AND c.doc_id = ANY(%(doc_ids)s::text[])
      AND (c.live OR %(history)s)
    LIMIT %(cap)s + 1
), words AS (
    SELECT w.word, to_tsvector('english', w.word) AS lexemes
    FROM unnest(%(words)s::text[]) AS w(word)
)
SELECT w.word,
       (SELECT count(*) FROM docs d WHERE d.tsv @@ array_to_string(tsvector_to_array(w.lexemes), ' & ')::tsquery),
       (SELECT count(*) FROM docs)
FROM words w
WHERE length(w.lexemes) > 0
