-- The tenant's sections and chunks, after the sections stage wrote them.
SELECT (SELECT count(*) FROM sections WHERE tenant_id = %(tenant)s) AS sections,
       (SELECT count(*) FROM chunks WHERE tenant_id = %(tenant)s) AS chunks
