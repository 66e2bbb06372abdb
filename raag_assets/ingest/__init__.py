"""From a landed file to chunks: parsing (PDF, Markdown, text), normalising, sectioning,
chunking and the embedding model. Pure functions over core.model records; no Dagster, no
database.

`raag_assets.ingest.ingest` and `local_instance`, the README's paths from before the layout,
still resolve: they are the pipeline's ingest run (pipeline.run), looked up on first use so
this package does not import the layer above it."""

from typing import Any

_RUN_NAMES = {"ingest", "local_instance", "delete_document", "drop_tenant", "IngestSummary"}


def __getattr__(name: str) -> Any:
    if name in _RUN_NAMES:
        from raag_assets.pipeline import run

        return getattr(run, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
