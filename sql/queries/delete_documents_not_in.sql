-- Documents whose files are no longer landed, with their earlier versions; sections and
-- chunks go with them (cascade). A document read from a file that is still landed but was
-- refused this time (%(sources)s) stays, whatever id its metadata gave it.
DELETE FROM documents
WHERE tenant_id = %(tenant)s AND NOT (coalesce(version_of, doc_id) = ANY(%(doc_ids)s::text[]))
  AND coalesce(version_of, doc_id) NOT IN (
      SELECT k.doc_id FROM documents k
      WHERE k.tenant_id = %(tenant)s AND k.source_name = ANY(%(sources)s::text[]))
RETURNING doc_id
