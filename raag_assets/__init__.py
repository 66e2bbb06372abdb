"""raag: relationship-aware retrieval over a Dagster-built document graph in PostgreSQL.

The packages, in the order the data flows (ARCHITECTURE.md): core, store, graph, ingest,
pipeline, retrieval, quality, interfaces. The retrieval library's entry points are importable
from here."""

from typing import Any

_RETRIEVAL = {"Candidate", "RetrievalPlan", "retrieve", "rrf_fuse", "search"}


def __getattr__(name: str) -> Any:
    # Looked up on first use: importing raag_assets.core must not load the retrieval library.
    if name in _RETRIEVAL:
        from raag_assets import retrieval

        return getattr(retrieval, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
