-- Every stored document (earlier versions too) with the file it was read from.
SELECT doc_id, source_name FROM documents WHERE tenant_id = %(tenant)s
