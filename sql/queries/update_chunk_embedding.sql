UPDATE chunks SET embedding = %(embedding)s
WHERE tenant_id = %(tenant)s AND doc_id = %(doc_id)s AND chunk_index = %(chunk_index)s
