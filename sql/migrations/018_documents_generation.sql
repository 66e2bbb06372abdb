-- Writes to a tenant's documents move its generation on too (the counter of 012, which every
-- write to its chunks moves on): search() keeps what names each document (the words of its id,
-- title, file name, metadata and opening, query.NameIndex) and the documents "in document X"
-- looks in under it. Built per query, they cost ~0.3 s and ~70 ms at 5,000 documents
-- (SciFact), more than the rest of the search together. The column keeps its name, so no
-- tenant's views are remade (near a few hundred tenants, remaking them all in one migration
-- runs out of the server's lock table). The counter now draws from a sequence, so a tenant
-- dropped and created again never shows a generation it had before, which a process may still
-- hold values under.
CREATE SEQUENCE raag_generation;
SELECT setval('raag_generation', greatest(1, (SELECT max(chunks_generation) FROM tenants)));
ALTER TABLE tenants ALTER COLUMN chunks_generation SET DEFAULT nextval('raag_generation');

CREATE OR REPLACE FUNCTION raag_bump_chunks_generation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tenants SET chunks_generation = nextval('raag_generation')
    WHERE tenant_id IN (SELECT DISTINCT tenant_id FROM changed);
    RETURN NULL;
END
$$;

CREATE TRIGGER documents_generation_insert AFTER INSERT ON documents
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION raag_bump_chunks_generation();
CREATE TRIGGER documents_generation_update AFTER UPDATE ON documents
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION raag_bump_chunks_generation();
CREATE TRIGGER documents_generation_delete AFTER DELETE ON documents
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION raag_bump_chunks_generation();
