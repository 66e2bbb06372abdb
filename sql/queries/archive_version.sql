SELECT raag_archive_version(%(tenant)s, %(doc_id)s, %(declared)s, %(today)s)
