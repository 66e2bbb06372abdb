-- Documents whose files are no longer landed, with their earlier versions; sections and
-- chunks go with them (cascade).
DELETE FROM documents
WHERE tenant_id = %(tenant)s AND NOT (coalesce(version_of, doc_id) = ANY(%(doc_ids)s::text[]))
RETURNING doc_id
