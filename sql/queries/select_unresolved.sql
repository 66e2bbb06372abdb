SELECT ordinal, src_doc_id, src_section_id, kind, matched_text, normalized_target, target_doc,
       target_label, reason, status, candidates
FROM unresolved_references
WHERE tenant_id = %(tenant)s
ORDER BY ordinal
