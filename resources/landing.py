from pathlib import Path

import dagster as dg
from pydantic import Field

from raag_assets.core.identity import TENANT_RE, sha256_hex
from raag_assets.core.settings import DEFAULT_MAX_FILE_MB, raag_home
from raag_assets.ingest.parsing import is_sidecar


class LandingResource(dg.ConfigurableResource):
    """Where each tenant's files land (`<root>/<tenant>/`), and the per-file size limit."""

    root: str = Field(default="", description="landing root; empty = RAAG_HOME/landing")
    max_file_mb: float = Field(default=DEFAULT_MAX_FILE_MB, gt=0)

    @property
    def root_dir(self) -> Path:
        return Path(self.root) if self.root else raag_home() / "landing"

    def tenant_dir(self, tenant: str) -> Path:
        return self.root_dir / tenant

    def fingerprints(self) -> dict[str, str]:
        """Per tenant folder with a valid tenant name: a hash of its files' names, sizes and
        modification times (sidecars included), so the sensor sees additions, changes and
        removals without reading file contents."""
        out: dict[str, str] = {}
        if not self.root_dir.is_dir():
            return out
        for folder in sorted(p for p in self.root_dir.iterdir() if p.is_dir()):
            if TENANT_RE.match(folder.name):
                out[folder.name] = self.fingerprint(folder.name)
        return out

    def fingerprint(self, tenant: str) -> str:
        """One tenant folder's fingerprint (see `fingerprints`); the documents stage records
        the one it read, so the sensor does not run a state a materialisation covered."""
        folder = self.tenant_dir(tenant)
        stats = (
            [
                f"{p.name}\t{p.stat().st_size}\t{p.stat().st_mtime_ns}"
                for p in sorted(folder.iterdir())
                if p.is_file() and not p.name.startswith(".")
            ]
            if folder.is_dir()
            else []
        )
        return sha256_hex(*stats)[:16]

    def files(self, tenant: str) -> list[Path]:
        """The tenant's document files in name order (sidecars and hidden files excluded)."""
        folder = self.tenant_dir(tenant)
        if not folder.is_dir():
            return []
        return sorted(
            p
            for p in folder.iterdir()
            if p.is_file() and not p.name.startswith(".") and not is_sidecar(p)
        )

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1_000_000)
