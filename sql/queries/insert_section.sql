INSERT INTO sections (tenant_id, section_id, doc_id, ordinal, label, heading, level, parent_id,
                      page_start, page_end, text, char_start, char_end, text_start)
VALUES (%(tenant)s, %(section_id)s, %(doc_id)s, %(ordinal)s, %(label)s, %(heading)s, %(level)s,
        %(parent_id)s, %(page_start)s, %(page_end)s, %(text)s, %(char_start)s, %(char_end)s,
        %(text_start)s)
