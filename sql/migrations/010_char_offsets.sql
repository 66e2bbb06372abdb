-- Character offsets of sections and chunks into their document's raw text (documents.raw_text:
-- for text and Markdown the file as open() reads it, front matter included; for PDFs the
-- extracted text, pages joined by form feeds), so a result can cite the exact span.
-- text_start is where the section's body text begins (after its heading line).
ALTER TABLE sections ADD COLUMN char_start integer, ADD COLUMN char_end integer,
                     ADD COLUMN text_start integer;
ALTER TABLE chunks ADD COLUMN char_start integer, ADD COLUMN char_end integer;

-- An archived version keeps the offsets of the text it was sectioned from (and, since 008,
-- its effective-date evidence).
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
    -- A version replaced before it was sectioned (a run stopped in between) has no sections of
    -- its own yet: the sections stage makes them from its copied text.
    IF NOT EXISTS (SELECT 1 FROM documents WHERE tenant_id = p_tenant AND doc_id = p_doc_id
                   AND sectioned_hash IS NOT NULL) THEN
        RETURN archived;
    END IF;
    INSERT INTO sections (tenant_id, section_id, doc_id, ordinal, label, heading, level,
                          parent_id, page_start, page_end, text, char_start, char_end,
                          text_start)
    SELECT tenant_id, raag_version_section_id(section_id, archived), archived, ordinal, label,
           heading, level, raag_version_section_id(parent_id, archived), page_start, page_end,
           text, char_start, char_end, text_start
    FROM sections WHERE tenant_id = p_tenant AND doc_id = p_doc_id
    ON CONFLICT DO NOTHING;
    INSERT INTO chunks (tenant_id, doc_id, chunk_index, section_id, content, content_hash,
                        token_count, tags, metadata, embedding, live, char_start, char_end)
    SELECT tenant_id, archived, chunk_index, raag_version_section_id(section_id, archived),
           content, content_hash, token_count, tags, metadata, embedding, false, char_start,
           char_end
    FROM chunks WHERE tenant_id = p_tenant AND doc_id = p_doc_id
    ON CONFLICT DO NOTHING;
    RETURN archived;
END;
$$;

-- The tenant views were made with the old column lists; remake them with the new columns.
SELECT raag_add_tenant(tenant_id) FROM tenants;
