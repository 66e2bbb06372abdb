SELECT section_id, doc_id, ordinal, label, heading, level, parent_id, text
FROM sections
WHERE tenant_id = %(tenant)s
ORDER BY doc_id, ordinal
