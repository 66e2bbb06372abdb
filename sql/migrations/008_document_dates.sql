-- A document's effective date is declared in its metadata or stated in its text; the phrase
-- that states it ("dated as of September 30, 2019") is kept as evidence for its effective_on
-- edge. Versions of a document are ordered by the dates they state: archiving copies the
-- evidence too.
ALTER TABLE documents ADD COLUMN effective_evidence text;

CREATE OR REPLACE FUNCTION raag_archive_version(p_tenant text, p_doc_id text, p_declared date,
                                                p_today date)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    archived text;
    starts date;
BEGIN
    SELECT doc_id || '@v' || version,
           CASE WHEN p_declared > coalesce(effective_from, '-infinity'::date) THEN p_declared
                ELSE p_today END
    INTO archived, starts
    FROM documents WHERE tenant_id = p_tenant AND doc_id = p_doc_id AND version_of IS NULL;
    IF archived IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO documents (tenant_id, doc_id, source_name, format, title, doc_type,
                           authority_level, tags, metadata, effective_from, effective_to,
                           supersedes, content_hash, page_count, raw_text, text, lines,
                           sectioned_hash, version, version_of, effective_evidence)
    SELECT tenant_id, archived, source_name, format, title, doc_type, authority_level, tags,
           metadata, effective_from, coalesce(effective_to, starts - 1), supersedes, content_hash,
           page_count, raw_text, text, lines, sectioned_hash, version, doc_id, effective_evidence
    FROM documents WHERE tenant_id = p_tenant AND doc_id = p_doc_id
    ON CONFLICT DO NOTHING;
    IF NOT EXISTS (SELECT 1 FROM documents WHERE tenant_id = p_tenant AND doc_id = p_doc_id
                   AND sectioned_hash IS NOT NULL) THEN
        RETURN archived;
    END IF;
    INSERT INTO sections (tenant_id, section_id, doc_id, ordinal, label, heading, level,
                          parent_id, page_start, page_end, text)
    SELECT tenant_id, raag_version_section_id(section_id, archived), archived, ordinal, label,
           heading, level, raag_version_section_id(parent_id, archived), page_start, page_end,
           text
    FROM sections WHERE tenant_id = p_tenant AND doc_id = p_doc_id
    ON CONFLICT DO NOTHING;
    INSERT INTO chunks (tenant_id, doc_id, chunk_index, section_id, content, content_hash,
                        token_count, tags, metadata, embedding, live)
    SELECT tenant_id, archived, chunk_index, raag_version_section_id(section_id, archived),
           content, content_hash, token_count, tags, metadata, embedding, false
    FROM chunks WHERE tenant_id = p_tenant AND doc_id = p_doc_id
    ON CONFLICT DO NOTHING;
    RETURN archived;
END;
$$;

-- The tenant views were made with the old column lists; remake them with the new column.
SELECT raag_add_tenant(tenant_id) FROM tenants;
