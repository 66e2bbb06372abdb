-- The query's lexemes (english stemming, as chunks.tsv), in the order the counts were always
-- listed, the tenant's chunks generation, under which their counts are cached, and its live
-- chunk count.
SELECT t.chunks_generation,
       ARRAY(SELECT l FROM unnest(tsvector_to_array(to_tsvector('english', %(query)s))) AS l
             ORDER BY l),
       t.live_chunks
FROM tenants t
WHERE t.tenant_id = %(tenant)s
