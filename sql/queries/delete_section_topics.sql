DELETE FROM section_topics WHERE tenant_id = %(tenant)s
