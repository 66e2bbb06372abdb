SELECT file_name, reason FROM skipped_files WHERE tenant_id = %(tenant)s ORDER BY file_name
