-- Removes a tenant: its partitions of every table, its registration and stage fingerprints.
-- Validated like raag_add_tenant, and every name is quoted with %I.
CREATE FUNCTION raag_drop_tenant(p_tenant text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    parent text;
BEGIN
    IF p_tenant IS NULL OR p_tenant !~ '^[a-z0-9][a-z0-9_-]{0,39}$' THEN
        RAISE EXCEPTION 'invalid tenant id: %', p_tenant USING ERRCODE = '22023';
    END IF;
    -- children first: their foreign keys point at documents
    FOREACH parent IN ARRAY ARRAY['edges', 'terms', 'section_topics', 'unresolved_references',
                                  'extraction_errors', 'chunks', 'sections', 'skipped_files',
                                  'documents'] LOOP
        IF to_regclass(format('%I', parent || '__' || p_tenant)) IS NOT NULL THEN
            -- detached first: a partition other tables' foreign keys point at cannot be dropped
            EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', parent, parent || '__' || p_tenant);
            EXECUTE format('DROP TABLE %I', parent || '__' || p_tenant);
        END IF;
    END LOOP;
    DELETE FROM tenants WHERE tenant_id = p_tenant;
END;
$$;
