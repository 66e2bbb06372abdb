-- raag schema v1: per-tenant LIST partitions, pgvector HNSW, full-text GIN.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE tenants (
    tenant_id  text PRIMARY KEY CHECK (tenant_id ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One row: the embedding model and dimension fixed for this store (ragd: per collection).
CREATE TABLE collection (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    embed_model text NOT NULL,
    embed_dims  integer NOT NULL
);

CREATE TABLE documents (
    tenant_id       text NOT NULL,
    doc_id          text NOT NULL,
    source_name     text NOT NULL,
    format          text NOT NULL CHECK (format IN ('pdf', 'markdown', 'text')),
    title           text,
    doc_type        text,
    authority_level integer,
    tags            text[] NOT NULL DEFAULT '{}',
    metadata        jsonb NOT NULL DEFAULT '{}',
    effective_from  date,
    effective_to    date,
    supersedes      text,
    content_hash    text NOT NULL,
    page_count      integer,
    raw_text        text NOT NULL,
    text            text NOT NULL,
    lines           jsonb NOT NULL,          -- layout lines: [text, page, font size, bold]
    sectioned_hash  text,                    -- content_hash + sectioner version last sectioned
    PRIMARY KEY (tenant_id, doc_id)
) PARTITION BY LIST (tenant_id);

CREATE TABLE sections (
    tenant_id  text NOT NULL,
    section_id text NOT NULL,
    doc_id     text NOT NULL,
    ordinal    integer NOT NULL,
    label      text NOT NULL,
    heading    text NOT NULL,
    level      integer NOT NULL,
    parent_id  text,
    page_start integer,
    page_end   integer,
    text       text NOT NULL,
    PRIMARY KEY (tenant_id, section_id),
    FOREIGN KEY (tenant_id, doc_id) REFERENCES documents (tenant_id, doc_id) ON DELETE CASCADE
) PARTITION BY LIST (tenant_id);
CREATE INDEX sections_doc ON sections (tenant_id, doc_id, ordinal);

CREATE TABLE chunks (
    tenant_id    text NOT NULL,
    doc_id       text NOT NULL,
    chunk_index  integer NOT NULL,
    section_id   text NOT NULL,
    content      text NOT NULL,
    content_hash text NOT NULL,
    token_count  integer NOT NULL,
    tags         text[] NOT NULL DEFAULT '{}',
    metadata     jsonb NOT NULL DEFAULT '{}',
    embedding    vector(384),
    tsv          tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
    PRIMARY KEY (tenant_id, doc_id, chunk_index),
    FOREIGN KEY (tenant_id, doc_id) REFERENCES documents (tenant_id, doc_id) ON DELETE CASCADE
) PARTITION BY LIST (tenant_id);
CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX chunks_tsv_gin ON chunks USING gin (tsv);
CREATE INDEX chunks_tags_gin ON chunks USING gin (tags);
CREATE INDEX chunks_metadata_gin ON chunks USING gin (metadata jsonb_path_ops);

-- Files the last documents run could not ingest, with the one-line reason.
CREATE TABLE skipped_files (
    tenant_id text NOT NULL,
    file_name text NOT NULL,
    reason    text NOT NULL,
    PRIMARY KEY (tenant_id, file_name)
) PARTITION BY LIST (tenant_id);

-- Registers a tenant and creates its partitions. The id is checked here too, so nothing
-- unvalidated is ever formatted into DDL; %I and %L quote what is.
CREATE FUNCTION raag_add_tenant(p_tenant text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    parent text;
BEGIN
    IF p_tenant IS NULL OR p_tenant !~ '^[a-z0-9][a-z0-9_-]{0,39}$' THEN
        RAISE EXCEPTION 'invalid tenant id: %', p_tenant USING ERRCODE = '22023';
    END IF;
    INSERT INTO tenants (tenant_id) VALUES (p_tenant) ON CONFLICT DO NOTHING;
    FOREACH parent IN ARRAY ARRAY['documents', 'sections', 'chunks', 'skipped_files'] LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES IN (%L)',
                       parent || '__' || p_tenant, parent, p_tenant);
    END LOOP;
END;
$$;
