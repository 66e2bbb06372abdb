DELETE FROM skipped_files WHERE tenant_id = %(tenant)s
