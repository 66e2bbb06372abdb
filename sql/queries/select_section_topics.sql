SELECT section_id, topics FROM section_topics WHERE tenant_id = %(tenant)s ORDER BY section_id
