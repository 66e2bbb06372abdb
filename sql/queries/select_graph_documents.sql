-- Documents for the graph; an earlier version names the version after it by the dates they
-- state (the last earlier version is followed by the live one).
SELECT d.doc_id, d.source_name, d.title, d.doc_type, d.authority_level, d.effective_from,
       d.effective_to, d.supersedes, d.metadata,
       CASE WHEN d.version_of IS NULL THEN NULL
            ELSE lead(d.doc_id) OVER (PARTITION BY coalesce(d.version_of, d.doc_id)
                                      ORDER BY d.effective_from NULLS FIRST, d.version)
       END AS superseded_by,
       d.effective_evidence
FROM documents d
WHERE d.tenant_id = %(tenant)s AND (d.version_of IS NULL OR %(history)s)
ORDER BY d.doc_id
