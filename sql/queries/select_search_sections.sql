-- Sections with what search scores them by: their document's authority and dates, topics;
-- and where they lie in the document's raw text, with the raw text of their body (passages).
SELECT s.section_id, s.doc_id, s.ordinal, s.label, s.heading, s.text, s.page_start,
       s.page_end, s.parent_id, d.title, d.authority_level, d.effective_from, d.effective_to,
       coalesce(t.topics, '{}') AS topics, s.char_start, s.char_end, s.text_start,
       CASE WHEN s.text_start IS NOT NULL AND s.char_end IS NOT NULL
            THEN substr(d.raw_text, s.text_start + 1, s.char_end - s.text_start) END AS body_raw
FROM sections s
JOIN documents d ON d.tenant_id = s.tenant_id AND d.doc_id = s.doc_id
LEFT JOIN section_topics t ON t.tenant_id = s.tenant_id AND t.section_id = s.section_id
WHERE s.tenant_id = %(tenant)s AND s.section_id = ANY(%(ids)s::text[])
  AND (d.version_of IS NULL OR %(history)s)
ORDER BY s.doc_id, s.ordinal
