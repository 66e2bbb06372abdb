-- The n of chunks.embedding vector(n), as declared in the schema.
SELECT atttypmod FROM pg_attribute
WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'
