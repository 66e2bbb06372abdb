INSERT INTO unresolved_references (tenant_id, ordinal, src_doc_id, src_section_id, kind,
                                   matched_text, normalized_target, target_doc, target_label,
                                   reason, status, candidates)
VALUES (%(tenant)s, %(ordinal)s, %(src_doc_id)s, %(src_section_id)s, %(kind)s,
        %(matched_text)s, %(normalized_target)s, %(target_doc)s, %(target_label)s, %(reason)s,
        %(status)s, %(candidates)s)
