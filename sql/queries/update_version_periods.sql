-- Each version of a document is in force until the day before the next one (by the dates they
-- state, then by arrival) starts, unless its metadata declares its own end.
WITH ordered AS (
    SELECT doc_id, lead(effective_from) OVER (ORDER BY effective_from NULLS FIRST, version)
           AS next_start
    FROM documents
    WHERE tenant_id = %(tenant)s AND (doc_id = %(doc_id)s OR version_of = %(doc_id)s)
)
UPDATE documents d
SET effective_to = coalesce((d.metadata ->> 'effective_to')::date, o.next_start - 1)
FROM ordered o
WHERE d.tenant_id = %(tenant)s AND d.doc_id = o.doc_id
  AND d.effective_to IS DISTINCT FROM coalesce((d.metadata ->> 'effective_to')::date,
                                               o.next_start - 1)
