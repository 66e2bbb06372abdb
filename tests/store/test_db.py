"""store.db: migrations (their own named queries) and the row helpers."""

import pytest

from raag_assets.core.errors import TenantNotFound
from raag_assets.store import db
from tests.conftest import at_once


def test_migrate_records_each_migration_once(new_database):
    with db.connect(new_database()) as conn:
        applied = [r[0] for r in conn.execute(db.load_sql("select_schema_migrations"))]
        stems = sorted(p.stem for p in (db.sql_dir() / "migrations").glob("[0-9][0-9][0-9]_*.sql"))
        assert sorted(applied) == stems
        assert db.migrate(conn) == []  # nothing left to apply


def test_one_columns_records(new_database):
    with db.connect(new_database()) as conn:
        assert db.one(conn.execute("SELECT 1 AS a, 'x' AS b")) == (1, "x")
        cur = conn.execute("SELECT n, n * 2 AS twice FROM generate_series(1, 2) AS n")
        assert db.columns(cur) == ["n", "twice"]
        assert db.records(cur) == [{"n": 1, "twice": 2}, {"n": 2, "twice": 4}]
        with pytest.raises(RuntimeError, match="no row"):
            db.one(conn.execute("SELECT 1 WHERE false"))
        with pytest.raises(RuntimeError, match="no result"):
            db.columns(conn.execute("SET search_path = public"))


def test_tenant_reader_sets_role_and_schema(new_database):
    with db.connect(new_database()) as conn:
        db.add_tenant(conn, "acme")
        role, schema = db.one(conn.execute(db.load_sql("select_reader"), {"tenant": "acme"}))
        with db.tenant_reader(conn, "acme") as reader:
            assert db.one(reader.execute("SELECT current_user"))[0] == role
            assert schema in db.one(reader.execute("SHOW search_path"))[0]
        with pytest.raises(TenantNotFound), db.tenant_reader(conn, "nobody"):
            pass


def _add(url: str, tenant: str) -> None:
    with db.connect(url) as conn:
        db.add_tenant(conn, tenant)


def test_tenant_creation_is_idempotent_under_concurrency(new_database):
    """Several connections add the same new tenant at once (as two ingests of a new tenant
    do): every call succeeds, one tenant with its partitions results. Without the lock, the
    GRANTs inside raag_add_tenant failed with `tuple concurrently updated`."""
    url = new_database()
    with db.connect(url):
        pass  # migrated once, before the race
    for round_ in range(5):
        tenant = f"race-{round_}"
        results = at_once([lambda t=tenant: _add(url, t)] * 4)
        assert results == [None] * 4, results
        with db.connect(url) as conn:
            assert tenant in db.tenants(conn)
            (parts,) = db.one(
                conn.execute(
                    "SELECT count(*) FROM pg_class WHERE relname LIKE %s", [f"%\\_\\_{tenant}"]
                )
            )
            assert parts == 9


def _drop_locks(conn, tenant: str) -> int:
    """The locks dropping `tenant` holds at the end of its transaction (rolled back)."""
    with conn.transaction(force_rollback=True):
        db.drop_tenant(conn, tenant)
        return db.one(conn.execute("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()"))[0]


def test_dropping_a_tenant_locks_the_same_however_many_tenants(new_database):
    """The server's lock table is shared and bounded (max_locks_per_transaction x
    connections): a drop whose locks grow with the other tenants (it took ~27 per tenant)
    failed near a thousand tenants with "out of shared memory"."""
    with db.connect(new_database()) as conn:
        for n in range(4):
            db.add_tenant(conn, f"t{n:02d}")
        few = _drop_locks(conn, "t01")
        for n in range(4, 24):
            db.add_tenant(conn, f"t{n:02d}")
        assert _drop_locks(conn, "t01") == few
        db.drop_tenant(conn, "t01")  # and it drops: partitions, views, role, registration
        assert "t01" not in db.tenants(conn)
        left = conn.execute("SELECT count(*) FROM pg_class WHERE relname LIKE '%%__t01'")
        assert db.one(left)[0] == 0
