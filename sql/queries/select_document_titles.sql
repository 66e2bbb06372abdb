SELECT doc_id, title FROM documents WHERE tenant_id = %(tenant)s ORDER BY doc_id
