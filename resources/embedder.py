"""The embedder resource: the process's shared model (ingest.embedding) as Dagster config."""

import dagster as dg
from pydantic import Field, PrivateAttr

from raag_assets.ingest.chunking import ChunkPolicy
from raag_assets.ingest.embedding import DEFAULT_MODEL, Embedder, shared_embedder


class EmbedderResource(dg.ConfigurableResource):
    """The sentence-transformers model (offline) and the chunk size it dictates."""

    model: str = Field(default=DEFAULT_MODEL, description="model name or local path")
    batch_size: int = Field(default=32, ge=1, le=1024)
    device: str = Field(
        default="", description="auto, cpu or cuda[:N]; empty = RAAG_EMBED_DEVICE, else auto"
    )
    max_chunk_tokens: int = Field(
        default=200, ge=32, description="chunk size; at most the model's window"
    )
    _embedder: Embedder = PrivateAttr()

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        self._embedder = shared_embedder(self.model, self.batch_size, self.device or None)
        if self.max_chunk_tokens > self._embedder.max_tokens:
            raise ValueError(
                f"max_chunk_tokens={self.max_chunk_tokens} exceeds the window of {self.model} "
                f"({self._embedder.max_tokens} tokens)"
            )
        # A run in a process without the weights (a fresh `raag ingest`, a run the daemon
        # launched): they load in a worker process while the stages before embeddings run.
        self._embedder.start_worker()

    def teardown_after_execution(self, context: dg.InitResourceContext) -> None:
        # vectors prefetched for an embeddings step that did not come (it failed, or the run
        # was cancelled) are not kept past the run
        self._embedder.drop_prefetched()

    @property
    def embedder(self) -> Embedder:
        return self._embedder

    @property
    def chunk_policy(self) -> ChunkPolicy:
        return ChunkPolicy(max_tokens=self.max_chunk_tokens)
