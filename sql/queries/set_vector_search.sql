-- For the vector candidates of this transaction: search enough of the HNSW graph to fill the
-- pool, and with filters go on (iteratively, in exact distance order) until it is full.
SELECT set_config('hnsw.ef_search', %(ef_search)s, true),
       set_config('hnsw.iterative_scan', 'strict_order', true)
