SELECT raag_reader_role(%(tenant)s), raag_reader_schema(%(tenant)s)
