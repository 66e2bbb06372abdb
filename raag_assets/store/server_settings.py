"""Memory settings of the embedded PostgreSQL, sized from the machine's memory.

Postgres ships toy defaults (shared_buffers 128MB, work_mem 4MB, effective_cache_size 4GB):
at a million chunks one tenant's HNSW index is ~2 GB and its heap ~1 GB, so with 128MB of
buffers every vector query and every full-text heap read went through the kernel for most of
its pages. The embedded server raag starts gets the usual sizing instead: a quarter of the
memory for shared_buffers, three quarters as effective_cache_size. RAAG_PG_MEMORY (e.g.
`4GB`) sets the memory to size from, for a machine that runs other things; a server reached
through RAAG_DATABASE_URL is its operator's to tune. `ALTER SYSTEM` still overrides these
(postgresql.auto.conf is read after the file written here). A change applies at the server's
next start.
"""

import os
import re
from pathlib import Path

import psutil

SETTINGS_FILE = "raag.conf"  # in pgdata, included from postgresql.conf
INCLUDE = f"include_if_exists = '{SETTINGS_FILE}'"
_UNITS = {"kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40}
MB = 1 << 20


def parse_size(text: str) -> int:
    """Bytes in a size written as Postgres writes them: `512MB`, `4GB`, `1.5 GB`, `2048kB`."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]b)\s*", text.lower())
    if m is None:
        raise ValueError(f"RAAG_PG_MEMORY must be a size such as 512MB or 4GB, got {text!r}")
    return int(float(m.group(1)) * _UNITS[m.group(2)])


def memory_budget() -> int:
    """RAAG_PG_MEMORY if set, else the machine's memory (a container's cgroup limit if lower)."""
    value = os.environ.get("RAAG_PG_MEMORY", "").strip()
    if value:
        return parse_size(value)
    total = psutil.virtual_memory().total
    for limit in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(limit).read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            total = min(total, int(text))
    return total


def server_settings(memory: int) -> dict[str, str]:
    """Postgres memory settings for `memory` bytes (in MB, the unit Postgres reads)."""
    mb = max(memory // MB, 512)
    return {
        "shared_buffers": f"{max(128, mb // 4)}MB",
        "effective_cache_size": f"{max(512, mb * 3 // 4)}MB",
        # per sort or hash of a query: full-text ranking sorts a few thousand rows, and a
        # bitmap of common words that outgrows work_mem turns lossy (whole pages rechecked)
        "work_mem": f"{min(64, max(4, mb // 256))}MB",
        "maintenance_work_mem": f"{min(2048, max(64, mb // 16))}MB",  # index builds, vacuum
    }


def settings_text(settings: dict[str, str]) -> str:
    lines = [f"{name} = '{value}'" for name, value in sorted(settings.items())]
    return "# written by raag at each start of its embedded server (RAAG_PG_MEMORY)\n" + (
        "\n".join(lines) + "\n"
    )


def write_settings(pgdata: Path, settings: dict[str, str]) -> None:
    """Write `settings` to pgdata's raag.conf, and include it from postgresql.conf once."""
    (pgdata / SETTINGS_FILE).write_text(settings_text(settings))
    conf = pgdata / "postgresql.conf"
    if INCLUDE not in conf.read_text():
        with conf.open("a") as out:
            out.write(f"\n{INCLUDE}  # memory sized by raag\n")
