from pathlib import Path

import dagster as dg
from pydantic import Field

from raag_assets.parsing import is_sidecar
from raag_assets.settings import DEFAULT_MAX_FILE_MB, raag_home


class LandingResource(dg.ConfigurableResource):
    """Where each tenant's files land (`<root>/<tenant>/`), and the per-file size limit."""

    root: str = Field(default="", description="landing root; empty = RAAG_HOME/landing")
    max_file_mb: float = Field(default=DEFAULT_MAX_FILE_MB, gt=0)

    def tenant_dir(self, tenant: str) -> Path:
        return (Path(self.root) if self.root else raag_home() / "landing") / tenant

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
