-- Recorded run failures, the latest first; of one tenant when %(tenant)s is not null.
SELECT run_id, job_name, tenant_id, failed_at, steps, error
FROM run_failures
WHERE %(tenant)s::text IS NULL OR tenant_id = %(tenant)s
ORDER BY failed_at DESC, run_id
LIMIT %(limit)s
