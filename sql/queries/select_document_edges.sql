-- Document-level edges (supersedes, amends, effective_on from metadata) among documents.
SELECT edge_id, edge_type, layer, src_doc_id, src_section_id, dst_doc_id, dst_section_id,
       term, scope, date_from, date_to, matched_text, normalized_target, confidence, condition,
       rule
FROM edges
WHERE tenant_id = %(tenant)s AND src_section_id IS NULL
  AND src_doc_id = ANY(%(doc_ids)s::text[])
ORDER BY edge_id
