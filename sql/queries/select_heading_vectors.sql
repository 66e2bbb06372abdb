SELECT content_hash, embedding
FROM heading_vectors
WHERE tenant_id = %(tenant)s AND model = %(model)s AND content_hash = ANY(%(hashes)s)
