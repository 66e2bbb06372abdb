-- Dropping a tenant took locks on every other tenant's partitions: detaching a partition that
-- holds a foreign key (edges__t -> documents) walks every partition of the referenced table,
-- and the function's one transaction kept each lock, about 27 per tenant in the store, so
-- near 1,000 tenants `raag drop-tenant` failed with "out of shared memory" (the server's lock
-- table). The partitions that reference documents are dropped instead, which touches only
-- them; the tenant's documents partition is then detached (a referenced partition cannot be
-- dropped in place) and dropped. The locks taken no longer depend on the number of tenants.
CREATE OR REPLACE FUNCTION raag_drop_tenant(p_tenant text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    part text;
    reader text := raag_reader_role(p_tenant);
BEGIN
    IF p_tenant IS NULL OR p_tenant !~ '^[a-z0-9][a-z0-9_-]{0,39}$' THEN
        RAISE EXCEPTION 'invalid tenant id: %', p_tenant USING ERRCODE = '22023';
    END IF;
    EXECUTE format('DROP SCHEMA IF EXISTS %I CASCADE', raag_reader_schema(p_tenant));
    FOREACH part IN ARRAY ARRAY['edges', 'terms', 'section_topics', 'unresolved_references',
                                'extraction_errors', 'chunks', 'sections', 'skipped_files'] LOOP
        EXECUTE format('DROP TABLE IF EXISTS %I', part || '__' || p_tenant);
    END LOOP;
    part := 'documents__' || p_tenant;
    IF to_regclass(format('%I', part)) IS NOT NULL THEN
        EXECUTE format('ALTER TABLE documents DETACH PARTITION %I', part);
        EXECUTE format('DROP TABLE %I', part);
    END IF;
    DELETE FROM tenants WHERE tenant_id = p_tenant;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = reader) THEN
        EXECUTE format('DROP OWNED BY %I', reader);
        EXECUTE format('DROP ROLE %I', reader);
    END IF;
END;
$$;
