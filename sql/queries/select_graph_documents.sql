SELECT doc_id, source_name, title, doc_type, authority_level, effective_from, effective_to,
       supersedes, metadata
FROM documents
WHERE tenant_id = %(tenant)s
ORDER BY doc_id
