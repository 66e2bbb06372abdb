"""The README's path from before the layout: the library is raag_assets.retrieval."""

from raag_assets.retrieval.search import DEFAULT_K, default_embed, default_embedder, search

__all__ = ["DEFAULT_K", "default_embed", "default_embedder", "search"]
