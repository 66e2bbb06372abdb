-- A failed run, once (the sensor may see a run again after a daemon restart).
INSERT INTO run_failures (run_id, job_name, tenant_id, failed_at, steps, error)
VALUES (%(run_id)s, %(job_name)s, %(tenant)s, %(failed_at)s, %(steps)s, %(error)s)
ON CONFLICT (run_id) DO NOTHING
