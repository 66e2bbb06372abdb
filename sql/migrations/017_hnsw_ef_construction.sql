-- The vector index built with ef_construction 128 (pgvector's default 64; m stays 16). At a
-- million chunks in one tenant, 64 left whole clusters of similar passages with too few links
-- into them for a search to find: recall@10 against exact search 0.920 at ef_search 50 (300
-- query vectors; no ef_search up to 400 passed 0.941), 0.973 with 128. The index is as large
-- and as fast to search; building it takes ~1.8x as long (a million chunks: 450 s against
-- 252 s on two cores), and so does each insert.
-- Upgrading a store rebuilds the index of every tenant once, here: the new index is built
-- first (writes wait, searches go on through the old one), then the old one is dropped.
-- Seconds for ordinary stores; for a large one, a build's time at the server's
-- maintenance_work_mem (raag's embedded server: 1/16 of the memory, at most 2 GB).
CREATE INDEX chunks_embedding_hnsw_128 ON chunks
    USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 128);
DROP INDEX chunks_embedding_hnsw;
ALTER INDEX chunks_embedding_hnsw_128 RENAME TO chunks_embedding_hnsw;
