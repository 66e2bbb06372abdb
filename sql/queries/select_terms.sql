SELECT term_key, term, doc_id, section_id
FROM terms
WHERE tenant_id = %(tenant)s
ORDER BY term_key, doc_id
