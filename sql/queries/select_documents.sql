-- One row per document and earlier version: dates, version, and the document-level relations
-- the graph holds (supersedes / amends, both ways). Versions of one document list together,
-- in numeric order (v2 before v10), the live one last.
SELECT d.doc_id,
       coalesce(d.title, (SELECT s.heading FROM sections s
                          WHERE s.tenant_id = d.tenant_id AND s.doc_id = d.doc_id
                          ORDER BY s.ordinal LIMIT 1)) AS title,
       d.format, d.page_count AS pages, d.effective_from, d.effective_to AS in_force_to,
       d.effective_evidence, d.version, d.version_of,
       ARRAY(SELECT DISTINCT e.dst_doc_id FROM edges e
             WHERE e.tenant_id = d.tenant_id AND e.edge_type = 'supersedes'
               AND e.src_doc_id = d.doc_id AND e.dst_doc_id IS NOT NULL
               AND e.dst_doc_id <> d.doc_id ORDER BY 1) AS supersedes,
       ARRAY(SELECT DISTINCT e.src_doc_id FROM edges e
             WHERE e.tenant_id = d.tenant_id AND e.edge_type = 'supersedes'
               AND e.dst_doc_id = d.doc_id AND e.src_doc_id <> d.doc_id ORDER BY 1)
           AS superseded_by,
       ARRAY(SELECT DISTINCT e.dst_doc_id FROM edges e
             WHERE e.tenant_id = d.tenant_id AND e.edge_type = 'amends'
               AND e.src_doc_id = d.doc_id AND e.dst_doc_id IS NOT NULL
               AND e.dst_doc_id <> d.doc_id ORDER BY 1) AS amends,
       ARRAY(SELECT DISTINCT e.src_doc_id FROM edges e
             WHERE e.tenant_id = d.tenant_id AND e.edge_type = 'amends'
               AND e.dst_doc_id = d.doc_id AND e.src_doc_id <> d.doc_id ORDER BY 1)
           AS amended_by,
       d.tags, d.metadata
FROM documents d
WHERE d.tenant_id = %(tenant)s
ORDER BY coalesce(d.version_of, d.doc_id), d.version_of IS NULL, d.version, d.doc_id
