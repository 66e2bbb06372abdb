"""Imported once by the multiprocess executor's forkserver: every step process forks from a
process that has already imported the stages and loaded the embedding model, so no step pays
for them again. Only weights are loaded here, no inference: torch's thread pool must not exist
before a fork. spaCy is left to the one step that parses (edges): its loading (about 1.3 s)
then delays that step only, not every step while the forkserver starts; where the graph
branch runs beside the embeddings it is off the critical path (`make bench` prints the
run's timeline)."""

import os

# `raag ingest` shows its own lines and progress bar: step processes write their console
# output to this file instead (the run's event log in Dagster keeps every event either way).
if os.environ.get("RAAG_STEP_LOG"):
    _log = os.open(os.environ["RAAG_STEP_LOG"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(_log, 1)
    os.dup2(_log, 2)

import raag_assets.definitions  # noqa: F401  (the stages and their imports)
from raag_assets.ingest.embedding import shared_embedder

_embedder = shared_embedder(os.environ.get("RAAG_EMBED_MODEL", "all-MiniLM-L6-v2"), 32)
_embedder._model  # noqa: B018  (loads the weights)
_embedder.tokenizer  # noqa: B018
