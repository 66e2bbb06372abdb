-- Chunks without an embedding of the store's dimension (should be none after a run).
SELECT count(*)
FROM chunks
WHERE tenant_id = %(tenant)s AND (embedding IS NULL OR vector_dims(embedding) <> %(dims)s)
