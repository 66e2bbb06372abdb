UPDATE unresolved_references
SET status = %(status)s, reason = %(reason)s, candidates = %(candidates)s
WHERE tenant_id = %(tenant)s AND ordinal = %(ordinal)s
