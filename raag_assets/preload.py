"""Imported once by the multiprocess executor's forkserver: every step process forks from a
process that has already imported the stages and loaded the embedding model and spaCy, so no
step pays for them again. Only weights are loaded here, no inference: torch's thread pool
must not exist before a fork."""

import os

import raag_assets.definitions  # noqa: F401  (the stages and their imports)
from resources.embedder import shared_embedder
from resources.nlp import load_pipeline

_embedder = shared_embedder(os.environ.get("RAAG_EMBED_MODEL", "all-MiniLM-L6-v2"), 32)
_embedder._model  # noqa: B018  (loads the weights)
_embedder.tokenizer  # noqa: B018
load_pipeline(os.environ.get("RAAG_SPACY_MODEL", "en_core_web_sm"))
