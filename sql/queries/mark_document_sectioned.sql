UPDATE documents SET sectioned_hash = content_hash || ':' || %(version)s
WHERE tenant_id = %(tenant)s AND doc_id = %(doc_id)s
