-- The query's lexemes (english stemming, as chunks.tsv) and how many of the tenant's chunks
-- contain each, counted only up to %(cap)s + 1: enough to tell rare words from common ones.
SELECT l.lexeme,
       (SELECT count(*) FROM (
            SELECT 1 FROM chunks c
            WHERE c.tenant_id = %(tenant)s
              AND c.tsv @@ to_tsquery('simple', quote_literal(l.lexeme))
            LIMIT %(cap)s + 1) AS capped) AS matches
FROM unnest(tsvector_to_array(to_tsvector('english', %(query)s))) AS l(lexeme)
ORDER BY l.lexeme
