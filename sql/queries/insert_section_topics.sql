INSERT INTO section_topics (tenant_id, section_id, doc_id, topics)
VALUES (%(tenant)s, %(section_id)s, %(doc_id)s, %(topics)s)
