"""Settings from the environment, read in one place."""

import os
from pathlib import Path

DEFAULT_MAX_FILE_MB = 50


def raag_home() -> Path:
    """RAAG_HOME (default ./.raag): embedded Postgres data, landing folders, Dagster home."""
    return Path(os.environ.get("RAAG_HOME", ".raag")).expanduser().resolve()


def dagster_home(home: Path | None = None) -> Path:
    return Path(os.environ.get("DAGSTER_HOME") or (home or raag_home()) / "dagster")
