"""Every statement of one tenant's ingest, search and deletion reads that tenant's partitions
only: with a thousand tenants, a plan that lists every partition costs its planning and its
locks a thousand times over. Postgres's auto_explain logs the plan of every statement the
store's connections run (functions' statements too); no plan may name another tenant's
partition."""

import re

import psycopg

from raag_assets.retrieval.search import search
from raag_assets.store import db
from raag_assets.store import documents as store_docs
from raag_assets.store import graph as graph_store
from tests.conftest import EXAMPLES

OTHERS = ("prune-b", "prune-c")


def _explain_everything(url: str) -> None:
    """auto_explain for every new session of the store's database, plans to the server log."""
    name = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
    with psycopg.connect(url, autocommit=True) as conn:
        for setting, value in (
            ("session_preload_libraries", "auto_explain"),
            ("auto_explain.log_min_duration", "0"),
            ("auto_explain.log_nested_statements", "on"),
        ):
            conn.execute(
                psycopg.sql.SQL("ALTER DATABASE {} SET {} = {}").format(
                    psycopg.sql.Identifier(name),
                    psycopg.sql.SQL(setting),
                    psycopg.sql.Literal(value),
                )
            )


def _plans(log: str) -> list[str]:
    """The plans auto_explain logged, each with its query text."""
    return [p for p in re.split(r"\n(?=\S.*LOG:  duration: )", log) if "Query Text:" in p]


def test_one_tenants_statements_plan_only_its_own_partitions(make_store, pg_server):
    store = make_store()
    with store.connect() as conn:
        for tenant in OTHERS:
            db.add_tenant(conn, tenant)
    _explain_everything(store.url)
    log = open(pg_server.log, encoding="utf-8", errors="replace")  # noqa: SIM115
    log.seek(0, 2)  # only what this test's statements log
    try:
        both = [EXAMPLES / "expenses.txt", EXAMPLES / "leave-policy.md"]
        assert store.ingest(both, "prune-a").success
        with store.connect() as conn:
            result = search("travel expenses approval", "prune-a", conn=conn, max_expansion_hops=2)
            assert result.results
            # what `raag edges`, `raag documents`, `raag sections`, `raag unresolved` read
            assert graph_store.edges(conn, "prune-a") and store_docs.documents(conn, "prune-a")
            assert store_docs.sections(conn, "prune-a")
            graph_store.unresolved(conn, "prune-a")
        # a document removed: its rows and edges go, references to it are parked again
        (store.landing_root / "prune-a" / "expenses.txt").unlink()
        assert store.ingest([], "prune-a").success
        # a changed file: a new version, the earlier one archived (raag_archive_version)
        changed = store.landing_root / "prune-a" / "leave-policy.md"
        changed.write_text(changed.read_text() + "\n## 9. Review\n\nHR reviews this yearly.\n")
        assert store.ingest([], "prune-a").success
        plans = _plans(log.read())
    finally:
        log.close()
    ours = [p for p in plans if "__prune-a" in p]
    assert len(ours) > 20  # the log did see the tenant's statements
    assert any("raag_archive_version" in p or "@v" in p for p in plans)
    leaking = [p for p in plans if any(f"__{t}" in p for t in OTHERS)]
    assert not leaking, "statements that plan other tenants' partitions:\n\n" + "\n\n".join(
        sorted({_query(p) for p in leaking})
    )


def _query(plan: str) -> str:
    """A logged plan's query text (its first lines: the query file's comment)."""
    text = plan.split("Query Text:", 1)[1]
    return "\n".join(line.strip() for line in text.splitlines()[:3])
