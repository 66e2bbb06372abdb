INSERT INTO collection (embed_model, embed_dims) VALUES (%(model)s, %(dims)s) ON CONFLICT DO NOTHING
