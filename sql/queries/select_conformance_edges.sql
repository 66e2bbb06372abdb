-- What the conformance corpus pins of the edges, in graph order.
SELECT edge_id, edge_type, layer, src_doc_id, src_section_id, dst_doc_id, dst_section_id, term,
       matched_text
FROM edges
WHERE tenant_id = %(tenant)s
ORDER BY stage, ordinal
