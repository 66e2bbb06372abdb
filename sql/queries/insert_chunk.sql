-- A chunk is live (found by retrieval) when its document is the live version.
INSERT INTO chunks (tenant_id, doc_id, chunk_index, section_id, content, content_hash,
                    token_count, tags, metadata, embedding, live, char_start, char_end)
VALUES (%(tenant)s, %(doc_id)s, %(chunk_index)s, %(section_id)s, %(content)s, %(content_hash)s,
        %(token_count)s, %(tags)s, %(metadata)s, %(embedding)s,
        (SELECT d.version_of IS NULL FROM documents d
         WHERE d.tenant_id = %(tenant)s AND d.doc_id = %(doc_id)s),
        %(char_start)s, %(char_end)s)
