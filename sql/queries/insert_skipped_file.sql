INSERT INTO skipped_files (tenant_id, file_name, reason) VALUES (%(tenant)s, %(file_name)s, %(reason)s)
