-- Documents whose files are no longer landed; sections and chunks go with them (cascade).
DELETE FROM documents
WHERE tenant_id = %(tenant)s AND NOT (doc_id = ANY(%(doc_ids)s::text[]))
RETURNING doc_id
