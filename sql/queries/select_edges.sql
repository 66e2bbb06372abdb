-- Every edge of a tenant with its endpoints' labels, in the graph's deterministic order.
SELECT e.edge_id, e.edge_type, e.layer, e.src_doc_id, src.label AS src_label,
       e.dst_doc_id, dst.label AS dst_label, e.term, e.date_from, e.date_to, e.scope,
       e.matched_text, e.normalized_target, e.raw_target, e.confidence, e.condition, e.stage,
       e.src_section_id, e.dst_section_id, e.rule
FROM edges e
LEFT JOIN sections src ON src.tenant_id = e.tenant_id AND src.section_id = e.src_section_id
LEFT JOIN sections dst ON dst.tenant_id = e.tenant_id AND dst.section_id = e.dst_section_id
WHERE e.tenant_id = %(tenant)s
  AND (%(edge_type)s::text IS NULL OR e.edge_type = %(edge_type)s)
  AND (%(section_id)s::text IS NULL OR e.src_section_id = %(section_id)s
       OR e.dst_section_id = %(section_id)s)
ORDER BY CASE e.stage WHEN 'edges' THEN 0 WHEN 'term_uses' THEN 1 WHEN 'topic_links' THEN 2
         ELSE 3 END, e.ordinal
LIMIT %(limit)s
