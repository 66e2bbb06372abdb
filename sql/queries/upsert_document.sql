INSERT INTO documents (tenant_id, doc_id, source_name, format, title, doc_type, authority_level,
                       tags, metadata, effective_from, effective_to, supersedes, content_hash,
                       page_count, raw_text, text, lines, effective_evidence, version)
VALUES (%(tenant)s, %(doc_id)s, %(source_name)s, %(format)s, %(title)s, %(doc_type)s,
        %(authority_level)s, %(tags)s, %(metadata)s, %(effective_from)s, %(effective_to)s,
        %(supersedes)s, %(content_hash)s, %(page_count)s, %(raw_text)s, %(text)s, %(lines)s,
        %(effective_evidence)s, %(version)s)
ON CONFLICT (tenant_id, doc_id) DO UPDATE SET
    source_name = EXCLUDED.source_name, format = EXCLUDED.format, title = EXCLUDED.title,
    doc_type = EXCLUDED.doc_type, authority_level = EXCLUDED.authority_level,
    tags = EXCLUDED.tags, metadata = EXCLUDED.metadata, effective_from = EXCLUDED.effective_from,
    effective_to = EXCLUDED.effective_to, supersedes = EXCLUDED.supersedes,
    content_hash = EXCLUDED.content_hash, page_count = EXCLUDED.page_count,
    raw_text = EXCLUDED.raw_text, text = EXCLUDED.text, lines = EXCLUDED.lines,
    effective_evidence = EXCLUDED.effective_evidence, sectioned_hash = NULL,
    version = EXCLUDED.version
