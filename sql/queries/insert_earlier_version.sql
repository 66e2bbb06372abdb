-- A file that arrives after a later-dated version of its document: kept as an earlier version
-- (`<doc_id>@v<n>`, out of live retrieval); the sections stage sections it like any other.
INSERT INTO documents (tenant_id, doc_id, source_name, format, title, doc_type, authority_level,
                       tags, metadata, effective_from, effective_to, supersedes, content_hash,
                       page_count, raw_text, text, lines, effective_evidence, version, version_of)
VALUES (%(tenant)s, %(doc_id)s || '@v' || %(version)s, %(source_name)s, %(format)s, %(title)s,
        %(doc_type)s, %(authority_level)s, %(tags)s, %(metadata)s, %(effective_from)s,
        %(effective_to)s, %(supersedes)s, %(content_hash)s, %(page_count)s, %(raw_text)s,
        %(text)s, %(lines)s, %(effective_evidence)s, %(version)s, %(doc_id)s)
RETURNING doc_id
