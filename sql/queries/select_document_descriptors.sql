-- What each live document can be named by in a query: id, title, file name, metadata values
-- and the opening of its text (title block, parties, date); its title apart. A document with
-- no stated title is called by its first heading, as `raag documents` lists it ("Acme 4.2
-- Release Notes"): the heading, not the opening, carries its own name and version.
SELECT d.doc_id,
       concat_ws(' ', d.doc_id, d.title, d.source_name,
                 (SELECT string_agg(v, ' ') FROM jsonb_each_text(d.metadata) AS m(k, v)),
                 substr(d.text, 1, %(opening)s)) AS names,
       coalesce(d.title, (SELECT s.heading FROM sections s
                          WHERE s.tenant_id = %(tenant)s AND s.doc_id = d.doc_id
                          ORDER BY s.ordinal LIMIT 1), '') AS title
FROM documents d
WHERE d.tenant_id = %(tenant)s AND d.version_of IS NULL
ORDER BY d.doc_id
