-- Documents for the graph; an earlier version names the version that replaced it.
SELECT d.doc_id, d.source_name, d.title, d.doc_type, d.authority_level, d.effective_from,
       d.effective_to, d.supersedes, d.metadata,
       CASE WHEN d.version_of IS NULL THEN NULL
            WHEN EXISTS (SELECT 1 FROM documents n WHERE n.tenant_id = d.tenant_id
                         AND n.doc_id = d.version_of || '@v' || (d.version + 1))
            THEN d.version_of || '@v' || (d.version + 1)
            ELSE d.version_of END AS superseded_by
FROM documents d
WHERE d.tenant_id = %(tenant)s AND (d.version_of IS NULL OR %(history)s)
ORDER BY d.doc_id
