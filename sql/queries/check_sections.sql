-- Counts that must agree between documents, sections and chunks: documents without a
-- section, chunks whose section is missing (both should be none).
SELECT (SELECT count(*) FROM documents d
        WHERE d.tenant_id = %(tenant)s
          AND NOT EXISTS (SELECT 1 FROM sections s
                          WHERE s.tenant_id = d.tenant_id AND s.doc_id = d.doc_id)),
       (SELECT count(*) FROM chunks c
        WHERE c.tenant_id = %(tenant)s
          AND NOT EXISTS (SELECT 1 FROM sections s
                          WHERE s.tenant_id = c.tenant_id AND s.section_id = c.section_id))
