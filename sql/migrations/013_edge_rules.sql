-- The extraction rule that made each edge (graph/rules.py ids, "references.section_label"),
-- so an edge can be traced to its rule and the graph evaluated per rule. Edges written
-- before this migration have none until their stage runs again (its code version moved).
ALTER TABLE edges ADD COLUMN rule text;

-- The tenant views are SELECT * views: remade so they show the column.
SELECT raag_add_tenant(tenant_id) FROM tenants;
