-- What the conformance corpus pins of the section trees, in a stable order.
SELECT doc_id, ordinal, section_id, label, heading, level, parent_id
FROM sections
WHERE tenant_id = %(tenant)s
ORDER BY doc_id, ordinal
