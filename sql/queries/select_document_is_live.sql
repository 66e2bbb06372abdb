SELECT version_of IS NULL FROM documents WHERE tenant_id = %(tenant)s AND doc_id = %(doc_id)s
