-- What each graph stage last computed from: a stage whose inputs and code are unchanged
-- keeps its rows instead of recomputing them (re-ingesting unchanged files is cheap).
CREATE TABLE stage_fingerprints (
    tenant_id   text NOT NULL REFERENCES tenants (tenant_id) ON DELETE CASCADE,
    stage       text NOT NULL,
    fingerprint text NOT NULL,
    PRIMARY KEY (tenant_id, stage)
);
