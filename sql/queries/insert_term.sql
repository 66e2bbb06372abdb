INSERT INTO terms (tenant_id, doc_id, term_key, term, section_id)
VALUES (%(tenant)s, %(doc_id)s, %(term_key)s, %(term)s, %(section_id)s)
