-- For the full-text candidates of an all-common-word query, in this transaction: with
-- bitmapscan off the rows are read in table order (a sequential scan that stops at the cap)
-- rather than through the GIN index; with syncscan off that scan starts at the first page,
-- not where a concurrent scan of the table is, so it finds the rows the index would (the
-- first matches in table order). Returns the settings before, to put back afterwards.
SELECT current_setting('enable_bitmapscan'), current_setting('synchronize_seqscans'),
       set_config('enable_bitmapscan', %(bitmapscan)s, true),
       set_config('synchronize_seqscans', %(syncscan)s, true)
