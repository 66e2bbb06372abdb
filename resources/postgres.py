from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import psycopg
from pydantic import Field

from raag_assets.store import db


class PostgresResource(dg.ConfigurableResource):
    """PostgreSQL + pgvector: `database_url` if set, else the embedded server under `home`."""

    database_url: str = Field(
        default="", description="postgresql:// URL; empty = RAAG_DATABASE_URL, else embedded"
    )
    home: str = Field(default="", description="RAAG_HOME for the embedded server; empty = env")

    @contextmanager
    def connect(self) -> Iterator[psycopg.Connection]:
        conn = db.connect(self.database_url or None, Path(self.home) if self.home else None)
        try:
            yield conn
        finally:
            conn.close()
