INSERT INTO stage_fingerprints (tenant_id, stage, fingerprint)
VALUES (%(tenant)s, %(stage)s, %(fingerprint)s)
ON CONFLICT (tenant_id, stage) DO UPDATE SET fingerprint = EXCLUDED.fingerprint
