-- A document's effective date is declared in its metadata or stated in its text; the phrase
-- that states it ("dated as of September 30, 2019") is kept as evidence for its effective_on
-- edge. Versions of a document are ordered by the dates they state; archiving copies the
-- evidence too (raag_archive_version, replaced once for this and the offsets in 010).
ALTER TABLE documents ADD COLUMN effective_evidence text;

-- The tenant views were made with the old column lists; remake them with the new column.
SELECT raag_add_tenant(tenant_id) FROM tenants;
