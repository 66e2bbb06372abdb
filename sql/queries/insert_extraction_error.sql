INSERT INTO extraction_errors (tenant_id, stage, doc_id, reason)
VALUES (%(tenant)s, %(stage)s, %(doc_id)s, %(reason)s)
