-- Document versions. A changed file becomes a new version of its document; the version it
-- replaces is kept as `<doc_id>@v<n>` (version_of = the live doc_id) with its sections, chunks
-- and embeddings, out of live retrieval (chunks.live = false) but found by as-of-date search.
ALTER TABLE documents ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE documents ADD COLUMN version_of text;
ALTER TABLE chunks ADD COLUMN live boolean NOT NULL DEFAULT true;

-- Copies the live version of a document under its archived id, in the caller's transaction,
-- before the new version overwrites it. The copy is in force until the day before the new
-- version starts: its declared effective_from if that is later than the old one's, else
-- p_today. Section ids of the copy derive from the live ones: archiving twice is a no-op.
CREATE FUNCTION raag_archive_version(p_tenant text, p_doc_id text, p_declared date,
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
                           sectioned_hash, version, version_of)
    SELECT tenant_id, archived, source_name, format, title, doc_type, authority_level, tags,
           metadata, effective_from, coalesce(effective_to, starts - 1), supersedes, content_hash,
           page_count, raw_text, text, lines, sectioned_hash, version, doc_id
    FROM documents WHERE tenant_id = p_tenant AND doc_id = p_doc_id
    ON CONFLICT DO NOTHING;
    -- A version replaced before it was sectioned (a run stopped in between) has no sections of
    -- its own yet: the sections stage makes them from its copied text.
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

CREATE FUNCTION raag_version_section_id(p_section_id text, p_archived text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT left(encode(sha256(convert_to(p_section_id || '@' || p_archived, 'UTF8')), 'hex'), 20)
$$;

-- The tenant views were made with the old column lists; remake them with the new columns.
SELECT raag_add_tenant(tenant_id) FROM tenants;
