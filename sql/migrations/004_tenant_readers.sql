-- Tenant isolation the database enforces. Each tenant gets a schema of views over its own
-- partitions and a role that may read only that schema. Retrieval reads as the tenant's role
-- with the schema first on its search_path, so the same SQL sees one tenant's rows; a query
-- that names another tenant's partition, or a shared table, is refused by Postgres.
-- (Row-level security was measured first: with its security barrier, the non-leakproof
-- operators of full-text and JSON filters can no longer use the GIN and HNSW indexes.)

CREATE FUNCTION raag_reader_role(p_tenant text) RETURNS text LANGUAGE sql STABLE AS $$
    -- roles are cluster-wide: the database's hash keeps two stores on one server apart
    SELECT 'raag_' || left(md5(current_database()), 8) || '_' || p_tenant
$$;

CREATE FUNCTION raag_reader_schema(p_tenant text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT 'tenant_' || p_tenant
$$;

CREATE OR REPLACE FUNCTION raag_add_tenant(p_tenant text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    parent text;
    reader text := raag_reader_role(p_tenant);
    space text := raag_reader_schema(p_tenant);
BEGIN
    IF p_tenant IS NULL OR p_tenant !~ '^[a-z0-9][a-z0-9_-]{0,39}$' THEN
        RAISE EXCEPTION 'invalid tenant id: %', p_tenant USING ERRCODE = '22023';
    END IF;
    INSERT INTO tenants (tenant_id) VALUES (p_tenant) ON CONFLICT DO NOTHING;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = reader) THEN
        EXECUTE format('CREATE ROLE %I NOLOGIN', reader);
        EXECUTE format('GRANT %I TO CURRENT_USER', reader);
    END IF;
    EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I', space);
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', space, reader);
    EXECUTE format('CREATE OR REPLACE VIEW %I.tenants AS SELECT * FROM public.tenants '
                   'WHERE tenant_id = %L', space, p_tenant);
    FOREACH parent IN ARRAY ARRAY['documents', 'sections', 'chunks', 'skipped_files', 'edges',
                                  'terms', 'section_topics', 'unresolved_references',
                                  'extraction_errors'] LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES IN (%L)',
                       parent || '__' || p_tenant, parent, p_tenant);
        EXECUTE format('CREATE OR REPLACE VIEW %I.%I AS SELECT * FROM public.%I',
                       space, parent, parent || '__' || p_tenant);
    END LOOP;
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO %I', space, reader);
END;
$$;

CREATE OR REPLACE FUNCTION raag_drop_tenant(p_tenant text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    parent text;
    reader text := raag_reader_role(p_tenant);
BEGIN
    IF p_tenant IS NULL OR p_tenant !~ '^[a-z0-9][a-z0-9_-]{0,39}$' THEN
        RAISE EXCEPTION 'invalid tenant id: %', p_tenant USING ERRCODE = '22023';
    END IF;
    EXECUTE format('DROP SCHEMA IF EXISTS %I CASCADE', raag_reader_schema(p_tenant));
    FOREACH parent IN ARRAY ARRAY['edges', 'terms', 'section_topics', 'unresolved_references',
                                  'extraction_errors', 'chunks', 'sections', 'skipped_files',
                                  'documents'] LOOP
        IF to_regclass(format('%I', parent || '__' || p_tenant)) IS NOT NULL THEN
            EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', parent, parent || '__' || p_tenant);
            EXECUTE format('DROP TABLE %I', parent || '__' || p_tenant);
        END IF;
    END LOOP;
    DELETE FROM tenants WHERE tenant_id = p_tenant;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = reader) THEN
        EXECUTE format('DROP OWNED BY %I', reader);
        EXECUTE format('DROP ROLE %I', reader);
    END IF;
END;
$$;

SELECT raag_add_tenant(tenant_id) FROM tenants;
