-- How many of the tenant's chunks contain each lexeme, counted only up to %(cap)s + 1: enough
-- to tell rare words from common ones.
SELECT l.lexeme,
       (SELECT count(*) FROM (
            SELECT 1 FROM chunks c
            WHERE c.tenant_id = %(tenant)s
              AND c.tsv @@ to_tsquery('simple', quote_literal(l.lexeme))
            LIMIT %(cap)s + 1) AS capped) AS matches
FROM unnest(%(lexemes)s::text[]) AS l(lexeme)
