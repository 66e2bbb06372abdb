-- A per-tenant counter that every statement changing a tenant's documents moves on, as
-- chunks_generation (012) does for its chunks: search() keeps what names each document (the
-- words of its id, title, file name, metadata and opening, query.NameIndex) under it. Built
-- per query, that index cost ~0.3 s at 5,000 documents (SciFact), more than the rest of the
-- search together; cached, a query naming a document pays for a look-up per naming word.
-- Both counters now draw from one sequence, so a tenant dropped and created again never
-- shows a generation it had before (a process may still hold values cached under it).
CREATE SEQUENCE raag_generation;
SELECT setval('raag_generation', greatest(1, (SELECT max(chunks_generation) FROM tenants)));
ALTER TABLE tenants ALTER COLUMN chunks_generation SET DEFAULT nextval('raag_generation');
ALTER TABLE tenants ADD COLUMN documents_generation bigint NOT NULL
    DEFAULT nextval('raag_generation');

CREATE OR REPLACE FUNCTION raag_bump_chunks_generation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tenants SET chunks_generation = nextval('raag_generation')
    WHERE tenant_id IN (SELECT DISTINCT tenant_id FROM changed);
    RETURN NULL;
END
$$;

CREATE FUNCTION raag_bump_documents_generation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tenants SET documents_generation = nextval('raag_generation')
    WHERE tenant_id IN (SELECT DISTINCT tenant_id FROM changed);
    RETURN NULL;
END
$$;

CREATE TRIGGER documents_generation_insert AFTER INSERT ON documents
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION raag_bump_documents_generation();
CREATE TRIGGER documents_generation_update AFTER UPDATE ON documents
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION raag_bump_documents_generation();
CREATE TRIGGER documents_generation_delete AFTER DELETE ON documents
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION raag_bump_documents_generation();

SELECT raag_add_tenant(tenant_id) FROM tenants;
