"""Settings from the environment, read in one place."""

import os
from pathlib import Path

DEFAULT_MAX_FILE_MB = 50
# How much of the HNSW graph a vector query searches (pgvector's own default is 40). At a
# million chunks (`make bench-latency SIZE=1000000`, stop 36) recall@10 against exact search
# was 0.945 at 50 (the candidate pool) and 0.965 at 100, the vector query 1-4 ms slower.
HNSW_EF_SEARCH = 100


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
    candidate pool, 50 by default, when larger; 100 unset). More finds more of the exact
    nearest neighbours and costs more; `make bench-latency` prints recall@10 and latency by
    value."""
    value = os.environ.get("RAAG_HNSW_EF_SEARCH", "").strip()
    ef = int(value) if value else HNSW_EF_SEARCH
    if not 1 <= ef <= 1000:
        raise ValueError(f"RAAG_HNSW_EF_SEARCH must be between 1 and 1000, got {ef}")
    return ef


def step_concurrency() -> int:
    """How many steps of a run go at once: RAAG_STEP_CONCURRENCY, else 1 on two cores or fewer.
    torch embeds on every core; a spaCy step beside it makes both wait on each other (its
    OpenMP threads stall whenever one is descheduled). Measured by `make bench` on 2 loaded
    cores: embeddings 95 s beside the graph branch against 39 s for the model alone. With more
    cores the graph branch runs beside the embeddings, as the asset graph allows."""
    value = os.environ.get("RAAG_STEP_CONCURRENCY", "").strip()
    if value:
        return max(1, int(value))
    return 1 if (os.cpu_count() or 1) <= 2 else 2


def executor_for(requested: str | None, concurrency: int) -> str:
    """`in_process` or `multiprocess`: RAAG_EXECUTOR when set, else step processes only where
    steps can run at once. One at a time, a process per step buys nothing and costs its start
    and a forkserver loading both models before the first step: on two idle cores `make bench`
    measured 30.1 s with step processes against 26.8-28.4 s without."""
    if requested:
        if requested not in ("in_process", "multiprocess"):
            raise ValueError(f"RAAG_EXECUTOR must be in_process or multiprocess, not {requested!r}")
        return requested
    return "multiprocess" if concurrency > 1 else "in_process"


def run_executor() -> str:
    """The executor a run gets here: `executor_for` with RAAG_EXECUTOR and `step_concurrency`."""
    return executor_for(os.environ.get("RAAG_EXECUTOR"), step_concurrency())
