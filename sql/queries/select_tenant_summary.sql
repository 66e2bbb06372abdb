SELECT (SELECT count(*) FROM documents WHERE tenant_id = %(tenant)s) AS documents,
       (SELECT count(*) FROM sections WHERE tenant_id = %(tenant)s) AS sections,
       (SELECT count(*) FROM chunks WHERE tenant_id = %(tenant)s) AS chunks,
       (SELECT count(*) FROM chunks WHERE tenant_id = %(tenant)s AND embedding IS NOT NULL) AS embedded
