-- Sections of earlier versions of changed documents: only linked to the version after them.
SELECT s.section_id, s.doc_id, s.ordinal, s.label, s.heading, s.level, s.parent_id, s.text
FROM sections s
JOIN documents d ON d.tenant_id = s.tenant_id AND d.doc_id = s.doc_id
WHERE s.tenant_id = %(tenant)s AND d.version_of IS NOT NULL
ORDER BY s.doc_id, s.ordinal
