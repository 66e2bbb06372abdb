"""The retrieval library, no Dagster: `retrieve` (hybrid candidates fused by RRF) and
`search`, which runs its stages in order, each a module: query (analysis) -> candidates ->
expand (graph expansion) -> scoring (and conflicts) -> passages -> assemble (the result);
plus the optional blocks rerank, compress and context_pack."""

from raag_assets.retrieval.candidates import Candidate, RetrievalPlan, retrieve, rrf_fuse
from raag_assets.retrieval.passages import compress, context_pack
from raag_assets.retrieval.rerank import rerank
from raag_assets.retrieval.search import search

__all__ = [
    "Candidate",
    "RetrievalPlan",
    "compress",
    "context_pack",
    "rerank",
    "retrieve",
    "rrf_fuse",
    "search",
]
