SELECT (SELECT count(*) FROM documents WHERE tenant_id = %(tenant)s AND version_of IS NULL) AS documents,
       (SELECT count(*) FROM documents WHERE tenant_id = %(tenant)s AND version_of IS NOT NULL) AS earlier_versions,
       (SELECT count(*) FROM sections WHERE tenant_id = %(tenant)s) AS sections,
       (SELECT count(*) FROM chunks WHERE tenant_id = %(tenant)s) AS chunks,
       (SELECT count(*) FROM chunks WHERE tenant_id = %(tenant)s AND embedding IS NOT NULL) AS embedded
