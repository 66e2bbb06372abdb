SELECT doc_id, label, heading, level, page_start, page_end
FROM sections
WHERE tenant_id = %(tenant)s
ORDER BY doc_id, ordinal
LIMIT 10
