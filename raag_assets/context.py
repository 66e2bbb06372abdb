"""The README's path from before the layout: the blocks are in raag_assets.retrieval.passages."""

from raag_assets.retrieval.passages import compress, context_pack

__all__ = ["compress", "context_pack"]
