-- One section with its text and its document's title (the adapters' "get section").
SELECT s.section_id, s.doc_id, d.title, s.label, s.heading, s.level, s.parent_id, s.ordinal,
       s.page_start, s.page_end, s.text, d.version_of IS NOT NULL AS earlier_version
FROM sections s
JOIN documents d ON d.tenant_id = s.tenant_id AND d.doc_id = s.doc_id
WHERE s.tenant_id = %(tenant)s AND s.section_id = %(section_id)s
