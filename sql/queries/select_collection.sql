SELECT embed_model, embed_dims FROM collection
