-- raag schema v2: the relationship graph. Each table is LIST-partitioned by tenant like v1.

-- Every edge with its provenance. `stage` is the asset that wrote it (each asset replaces
-- only its own rows); `ordinal` is the deterministic order within (tenant, stage).
CREATE TABLE edges (
    tenant_id         text NOT NULL,
    edge_id           text NOT NULL,
    stage             text NOT NULL CHECK (stage IN ('edges', 'term_uses', 'topic_links', 'resolved_references')),
    ordinal           integer NOT NULL,
    edge_type         text NOT NULL CHECK (edge_type IN ('references', 'overrides', 'supersedes',
                          'amends', 'defines', 'uses_term', 'depends_on', 'precedes', 'applies_to',
                          'effective_on', 'topically_related', 'applies_to_scope')),
    layer             smallint NOT NULL CHECK (layer IN (1, 2, 3)),
    src_doc_id        text NOT NULL,
    src_section_id    text,               -- NULL: the whole document is the source
    dst_doc_id        text,
    dst_section_id    text,
    term              text,
    date_from         date,
    date_to           date,
    scope             text,
    matched_text      text NOT NULL,
    normalized_target text NOT NULL,
    raw_target        text,               -- as written, when the target was corrected
    confidence        real NOT NULL CHECK (confidence > 0 AND confidence <= 1),
    condition         text,
    PRIMARY KEY (tenant_id, edge_id),
    FOREIGN KEY (tenant_id, src_doc_id) REFERENCES documents (tenant_id, doc_id) ON DELETE CASCADE
) PARTITION BY LIST (tenant_id);
CREATE INDEX edges_src ON edges (tenant_id, src_section_id);
CREATE INDEX edges_dst ON edges (tenant_id, dst_section_id);
CREATE INDEX edges_order ON edges (tenant_id, stage, ordinal);

-- Defined terms: where each is defined (first definition per document).
CREATE TABLE terms (
    tenant_id  text NOT NULL,
    doc_id     text NOT NULL,
    term_key   text NOT NULL,
    term       text NOT NULL,
    section_id text NOT NULL,
    PRIMARY KEY (tenant_id, doc_id, term_key),
    FOREIGN KEY (tenant_id, doc_id) REFERENCES documents (tenant_id, doc_id) ON DELETE CASCADE
) PARTITION BY LIST (tenant_id);

-- Topics per section (spaCy noun phrases by frequency), for topically_related and search.
CREATE TABLE section_topics (
    tenant_id  text NOT NULL,
    section_id text NOT NULL,
    doc_id     text NOT NULL,
    topics     text[] NOT NULL,
    PRIMARY KEY (tenant_id, section_id),
    FOREIGN KEY (tenant_id, doc_id) REFERENCES documents (tenant_id, doc_id) ON DELETE CASCADE
) PARTITION BY LIST (tenant_id);

-- References no layer has resolved yet, with the reason; retried on every run.
CREATE TABLE unresolved_references (
    tenant_id         text NOT NULL,
    ordinal           integer NOT NULL,
    src_doc_id        text NOT NULL,
    src_section_id    text NOT NULL,
    kind              text NOT NULL,
    matched_text      text NOT NULL,
    normalized_target text NOT NULL,
    target_doc        text,
    target_label      text,
    reason            text NOT NULL,
    status            text NOT NULL CHECK (status IN ('parked', 'resolved')),
    candidates        jsonb NOT NULL DEFAULT '[]',
    PRIMARY KEY (tenant_id, ordinal),
    FOREIGN KEY (tenant_id, src_doc_id) REFERENCES documents (tenant_id, doc_id) ON DELETE CASCADE
) PARTITION BY LIST (tenant_id);

-- Documents whose extraction failed in a stage, with the reason.
CREATE TABLE extraction_errors (
    tenant_id text NOT NULL,
    stage     text NOT NULL,
    doc_id    text NOT NULL,
    reason    text NOT NULL,
    PRIMARY KEY (tenant_id, stage, doc_id)
) PARTITION BY LIST (tenant_id);

CREATE OR REPLACE FUNCTION raag_add_tenant(p_tenant text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    parent text;
BEGIN
    IF p_tenant IS NULL OR p_tenant !~ '^[a-z0-9][a-z0-9_-]{0,39}$' THEN
        RAISE EXCEPTION 'invalid tenant id: %', p_tenant USING ERRCODE = '22023';
    END IF;
    INSERT INTO tenants (tenant_id) VALUES (p_tenant) ON CONFLICT DO NOTHING;
    FOREACH parent IN ARRAY ARRAY['documents', 'sections', 'chunks', 'skipped_files', 'edges',
                                  'terms', 'section_topics', 'unresolved_references',
                                  'extraction_errors'] LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES IN (%L)',
                       parent || '__' || p_tenant, parent, p_tenant);
    END LOOP;
END;
$$;

-- Tenants registered under v1 get their graph partitions now.
SELECT raag_add_tenant(tenant_id) FROM tenants;
