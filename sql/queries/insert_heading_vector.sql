INSERT INTO heading_vectors (tenant_id, model, content_hash, embedding)
VALUES (%(tenant)s, %(model)s, %(hash)s, %(embedding)s)
ON CONFLICT (tenant_id, model, content_hash) DO UPDATE SET embedding = EXCLUDED.embedding
