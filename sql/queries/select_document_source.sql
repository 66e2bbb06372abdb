SELECT source_name FROM documents WHERE tenant_id = %(tenant)s AND doc_id = %(doc_id)s
  AND version_of IS NULL
