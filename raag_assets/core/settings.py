"""Settings from the environment, read in one place."""

import os
from pathlib import Path

DEFAULT_MAX_FILE_MB = 50
HNSW_EF_SEARCH = 40  # pgvector's own default


def raag_home() -> Path:
    """RAAG_HOME (default ./.raag): embedded Postgres data, landing folders, Dagster home."""
    return Path(os.environ.get("RAAG_HOME", ".raag")).expanduser().resolve()


def dagster_home(home: Path | None = None) -> Path:
    return Path(os.environ.get("DAGSTER_HOME") or (home or raag_home()) / "dagster")


DEFAULT_MAX_REQUEST_KB = 1024


def max_request_bytes() -> int:
    """RAAG_MAX_REQUEST_KB (default 1024): the largest request body the REST service reads;
    a larger one is refused with 413 before any of it is parsed or its key checked."""
    return int(os.environ.get("RAAG_MAX_REQUEST_KB", DEFAULT_MAX_REQUEST_KB)) * 1024


def hnsw_ef_search() -> int:
    """RAAG_HNSW_EF_SEARCH: how much of the HNSW graph a vector query searches at least (the
    candidate pool, 50 by default, when larger). More finds more of the exact nearest
    neighbours and costs more; `make bench-latency` prints recall@10 and latency by value."""
    value = os.environ.get("RAAG_HNSW_EF_SEARCH", "").strip()
    ef = int(value) if value else HNSW_EF_SEARCH
    if not 1 <= ef <= 1000:
        raise ValueError(f"RAAG_HNSW_EF_SEARCH must be between 1 and 1000, got {ef}")
    return ef
