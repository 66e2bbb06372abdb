SELECT doc_id, content_hash FROM documents WHERE tenant_id = %(tenant)s ORDER BY doc_id
