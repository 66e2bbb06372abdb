-- A per-tenant counter that every statement changing a tenant's chunks moves on, so values
-- derived from them can be cached under it: retrieve() keeps the full-text lexeme counts of
-- (tenant, generation, lexeme), which a common word otherwise costs ~10 ms per query to count.
-- Statement-level triggers with transition tables: one UPDATE of tenants per statement and
-- tenant, however many rows a COPY writes. The tenant views are remade to show the column.
ALTER TABLE tenants ADD COLUMN chunks_generation bigint NOT NULL DEFAULT 0;

CREATE FUNCTION raag_bump_chunks_generation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tenants SET chunks_generation = chunks_generation + 1
    WHERE tenant_id IN (SELECT DISTINCT tenant_id FROM changed);
    RETURN NULL;
END
$$;

CREATE TRIGGER chunks_generation_insert AFTER INSERT ON chunks
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION raag_bump_chunks_generation();
CREATE TRIGGER chunks_generation_update AFTER UPDATE ON chunks
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION raag_bump_chunks_generation();
CREATE TRIGGER chunks_generation_delete AFTER DELETE ON chunks
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT
    EXECUTE FUNCTION raag_bump_chunks_generation();

SELECT raag_add_tenant(tenant_id) FROM tenants;
