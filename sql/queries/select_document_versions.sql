-- Every version of one document, live and earlier, in the order of the dates they state.
SELECT doc_id, version, content_hash, effective_from, version_of IS NULL AS live
FROM documents
WHERE tenant_id = %(tenant)s AND (doc_id = %(doc_id)s OR version_of = %(doc_id)s)
ORDER BY effective_from NULLS FIRST, version
