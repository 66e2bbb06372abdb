SELECT raag_add_tenant(%(tenant)s)
