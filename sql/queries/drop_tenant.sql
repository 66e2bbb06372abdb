SELECT raag_drop_tenant(%(tenant)s)
