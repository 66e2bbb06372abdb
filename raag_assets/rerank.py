"""The README's path from before the layout: the block is raag_assets.retrieval.rerank."""

from raag_assets.retrieval.rerank import rerank

__all__ = ["rerank"]
