-- One row per document and earlier version: the file it was read from (source, its name as
-- given), dates, version, and the document-level relations the graph holds (supersedes /
-- amends, both ways). Versions of one document list together, in numeric order (v2 before
-- v10), the live one last. The subqueries name the tenant itself, not d.tenant_id: a
-- correlated tenant cannot prune, and each would plan every tenant's partition.
SELECT d.doc_id, d.source_name AS source,
       coalesce(d.title, (SELECT s.heading FROM sections s
                          WHERE s.tenant_id = %(tenant)s AND s.doc_id = d.doc_id
                          ORDER BY s.ordinal LIMIT 1)) AS title,
       d.format, d.page_count AS pages, d.effective_from, d.effective_to AS in_force_to,
       d.effective_evidence, d.version, d.version_of,
       rel.supersedes, rel.superseded_by, rel.amends, rel.amended_by,
       d.tags, d.metadata
FROM documents d
CROSS JOIN LATERAL (
    -- one pass over the document's supersedes / amends edges, each direction its own list
    SELECT coalesce(array_agg(DISTINCT e.dst_doc_id ORDER BY e.dst_doc_id) FILTER (
               WHERE e.edge_type = 'supersedes' AND e.src_doc_id = d.doc_id), '{}') AS supersedes,
           coalesce(array_agg(DISTINCT e.src_doc_id ORDER BY e.src_doc_id) FILTER (
               WHERE e.edge_type = 'supersedes' AND e.dst_doc_id = d.doc_id), '{}')
               AS superseded_by,
           coalesce(array_agg(DISTINCT e.dst_doc_id ORDER BY e.dst_doc_id) FILTER (
               WHERE e.edge_type = 'amends' AND e.src_doc_id = d.doc_id), '{}') AS amends,
           coalesce(array_agg(DISTINCT e.src_doc_id ORDER BY e.src_doc_id) FILTER (
               WHERE e.edge_type = 'amends' AND e.dst_doc_id = d.doc_id), '{}') AS amended_by
    FROM edges e
    WHERE e.tenant_id = %(tenant)s AND e.edge_type IN ('supersedes', 'amends')
      AND (e.src_doc_id = d.doc_id OR e.dst_doc_id = d.doc_id)
      AND e.dst_doc_id IS NOT NULL AND e.src_doc_id <> e.dst_doc_id
) rel
WHERE d.tenant_id = %(tenant)s
ORDER BY coalesce(d.version_of, d.doc_id), d.version_of IS NULL, d.version, d.doc_id
