-- The row-by-row insert that binary COPY replaced; benchmarks/bench_copy.py measures both.
INSERT INTO edges (tenant_id, edge_id, stage, ordinal, edge_type, layer, src_doc_id,
                   src_section_id, dst_doc_id, dst_section_id, term, date_from, date_to, scope,
                   matched_text, normalized_target, raw_target, confidence, condition, rule)
VALUES (%(tenant)s, %(edge_id)s, %(stage)s, %(ordinal)s, %(edge_type)s, %(layer)s,
        %(src_doc_id)s, %(src_section_id)s, %(dst_doc_id)s, %(dst_section_id)s, %(term)s,
        %(date_from)s, %(date_to)s, %(scope)s, %(matched_text)s, %(normalized_target)s,
        %(raw_target)s, %(confidence)s, %(condition)s, %(rule)s)
