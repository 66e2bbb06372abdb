INSERT INTO chunks (tenant_id, doc_id, chunk_index, section_id, content, content_hash,
                    token_count, tags, metadata, embedding)
VALUES (%(tenant)s, %(doc_id)s, %(chunk_index)s, %(section_id)s, %(content)s, %(content_hash)s,
        %(token_count)s, %(tags)s, %(metadata)s, %(embedding)s)
