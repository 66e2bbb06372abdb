DELETE FROM heading_vectors
WHERE tenant_id = %(tenant)s AND NOT (model = %(model)s AND content_hash = ANY(%(hashes)s))
