SELECT doc_id, content_hash FROM documents WHERE tenant_id = %(tenant)s AND version_of IS NULL ORDER BY doc_id
