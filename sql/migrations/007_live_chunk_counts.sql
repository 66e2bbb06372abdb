-- Each tenant's number of live chunks, kept by the documents and sections stages: full-text
-- ranking needs it for IDF, and counting a 100k-chunk partition per query costs ~45 ms. The
-- tenant views are remade so each reader sees its own count.
ALTER TABLE tenants ADD COLUMN live_chunks bigint NOT NULL DEFAULT 0;
UPDATE tenants t SET live_chunks = (SELECT count(*) FROM chunks c
                                    WHERE c.tenant_id = t.tenant_id AND c.live);
SELECT raag_add_tenant(tenant_id) FROM tenants;
