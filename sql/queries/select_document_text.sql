-- A document's raw text (the text result offsets index), or a slice of it.
SELECT doc_id, format, source_name, page_count, length(raw_text) AS length,
       substr(raw_text, %(start)s::int + 1, %(count)s::int) AS text
FROM documents
WHERE tenant_id = %(tenant)s AND doc_id = %(doc_id)s
