SELECT doc_id, format, lines, tags, metadata, content_hash
FROM documents
WHERE tenant_id = %(tenant)s AND sectioned_hash IS DISTINCT FROM content_hash || ':' || %(version)s
ORDER BY doc_id
