"""raag: relationship-aware retrieval over a Dagster-built document graph in PostgreSQL."""

from raag_assets.retrieval import Candidate, RetrievalPlan, retrieve, rrf_fuse

__all__ = ["Candidate", "RetrievalPlan", "retrieve", "rrf_fuse"]
