SELECT doc_id, label, heading, level, ordinal, section_id, parent_id, page_start, page_end,
       char_start, char_end
FROM sections
WHERE tenant_id = %(tenant)s
  AND (%(doc_id)s::text IS NULL OR doc_id = %(doc_id)s)
ORDER BY doc_id, ordinal
