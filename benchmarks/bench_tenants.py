"""A thousand tenants in one store: one tenant's search beside 999 others against the same
tenant in a store of its own, tenant creation and drop, the landing sensor's tick over 1,000
folders, and the Dagster UI's partition health query through GraphQL.

Two databases on one embedded server, in this process: `alone` holds the measured tenant
only, `many` holds it and TENANTS - 1 filler tenants. The measured tenant is ingested for
real in both (examples/, through the ingest job). The filler tenants are synthetic (text
drawn from real words, clustered random vectors: no model ran; benchmarks/synthetic.py), 3
documents of 4 sections each, with a landing folder of 3 small files and a recorded
materialisation of every stage, as `raag ingest` would leave them. Searches alternate
between the two stores query by query, so the load of a shared machine falls on both alike.

Run: make bench-tenants   (TENANTS=200 for a quicker look)
"""

import os
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
HOME = Path(tempfile.mkdtemp(prefix="raag-tenants-"))
os.environ["RAAG_HOME"] = str(HOME)
os.environ["DAGSTER_HOME"] = str(HOME / "dagster")
os.environ["RAAG_EXECUTOR"] = "in_process"  # the model loads once; ingest is not measured here
os.environ["RAAG_LANDING_SENSOR"] = "stopped"  # ticks are evaluated here, not by a daemon
os.environ.pop("RAAG_DATABASE_URL", None)

import dagster as dg  # noqa: E402
import numpy as np  # noqa: E402
import psycopg  # noqa: E402
from psycopg.conninfo import make_conninfo  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic  # noqa: E402

from raag_assets.definitions import build_defs, default_resources, ingest_assets  # noqa: E402
from raag_assets.pipeline.assets.documents import LANDING_STATE  # noqa: E402
from raag_assets.pipeline.partitions import TENANTS as PARTITIONS  # noqa: E402
from raag_assets.pipeline.run import drop_tenant, ingest, local_instance  # noqa: E402
from raag_assets.retrieval.candidates import cached_queries, default_embedder, retrieve  # noqa: E402
from raag_assets.retrieval.search import search  # noqa: E402
from raag_assets.store import db  # noqa: E402
from resources import LandingResource, PostgresResource  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").iterdir())
TENANTS = int(os.environ.get("TENANTS", 1000))
MEASURED = "measured"
REPEAT = int(os.environ.get("REPEAT", 5))
QUERIES = [
    "How many days of annual leave do full-time employees get?",
    "Who approves working from home?",
    "carry over unused leave",
    "maternity leave entitlement",
    "What is a Line Manager?",
    "equipment provided for remote work",
    "expense claims approval",
    "leave policy amendment 2025",
    "travel expenses and receipts",
    "notice period for resignation",
]
PARTITION_HEALTH = """
query PartitionHealthQuery($assetKey: AssetKeyInput!) {
  assetNodeOrError(assetKey: $assetKey) {
    ... on AssetNode {
      id
      partitionKeysByDimension { name type partitionKeys }
      assetPartitionStatuses {
        ... on DefaultPartitionStatuses {
          materializedPartitions materializingPartitions failedPartitions
        }
      }
    }
  }
}
"""  # the query the UI's asset Partitions tab sends (dagster-webserver's own)


def pct(values: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(values, n=100, method="inclusive")
    return q[49], q[94]


def ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def databases() -> dict[str, str]:
    admin = db.embedded_url()
    with psycopg.connect(admin, autocommit=True) as conn:
        for name in ("alone", "many", "warm"):
            conn.execute(f'CREATE DATABASE "{name}"')
    return {name: make_conninfo(admin, dbname=name) for name in ("alone", "many", "warm")}


def resources_for(url: str, landing: Path) -> dict[str, dg.ConfigurableResource]:
    return {
        **default_resources(),
        "postgres": PostgresResource(database_url=url),
        "landing": LandingResource(root=str(landing)),
    }


def fill(conn: psycopg.Connection, instance: dg.DagsterInstance, landing: Path) -> None:
    """TENANTS - 1 synthetic tenants, each created as `raag ingest` creates one (Postgres
    partitions, then the Dagster partition), timed; then rows, files and materialisations."""
    rng = np.random.default_rng(11)
    words = synthetic.vocabulary()
    space = synthetic.Space.make(64, rng)
    land = LandingResource(root=str(landing))
    create: list[float] = []
    start = time.perf_counter()
    for i in range(1, TENANTS):
        tenant = f"t{i:04d}"
        create.append(ms(lambda t=tenant: db.add_tenant(conn, t)))  # type: ignore[misc]
        create[-1] += ms(lambda t=tenant: instance.add_dynamic_partitions(PARTITIONS, [t]))  # type: ignore[misc]
        synthetic.populate(conn, tenant, 48, rng, words, space, sections_per_doc=4, vacuum=False)
        folder = landing / tenant
        folder.mkdir(parents=True)
        for d in range(3):
            (folder / f"doc-{d:05d}.txt").write_text(f"Document {d} of {tenant}.\n")
        instance.report_runless_asset_event(
            dg.AssetMaterialization(
                "documents", partition=tenant, metadata={LANDING_STATE: land.fingerprint(tenant)}
            )
        )
        for asset in ingest_assets[1:]:
            instance.report_runless_asset_event(
                dg.AssetMaterialization(asset.key, partition=tenant)
            )
        if i % 100 == 0:
            print(f"  {i} filler tenants in {time.perf_counter() - start:.0f} s", flush=True)
    start = time.perf_counter()
    conn.execute("VACUUM (ANALYZE)")  # the steady state autovacuum reaches
    print(f"  VACUUM (ANALYZE) of the store: {time.perf_counter() - start:.0f} s")
    first, last = create[:100], create[-100:]
    print(f"\ntenant creation (Postgres partitions + Dagster partition), ms, {len(create)} tenants")
    print(f"  {'':<28} {'p50':>7} {'p95':>7}")
    print(f"  {'first 100 tenants':<28} {pct(first)[0]:>7.1f} {pct(first)[1]:>7.1f}")
    print(f"  {'last 100 tenants':<28} {pct(last)[0]:>7.1f} {pct(last)[1]:>7.1f}")


def compare(conns: dict[str, psycopg.Connection], embed) -> None:
    """search() and retrieve() of the measured tenant in both stores, alternating."""
    calls = {
        "search() 1 hop": lambda c, q: search(q, MEASURED, conn=c, embed=embed),
        "search() 2 hops": lambda c, q: search(
            q, MEASURED, conn=c, embed=embed, max_expansion_hops=2
        ),
        "retrieve()": lambda c, q: retrieve(c, q, MEASURED, embed),
    }  # fmt: skip
    for c in conns.values():  # warm: plans, caches, the query embeddings
        for q in QUERIES:
            for call in calls.values():
                call(c, q)
    times = {(name, store): [] for name in calls for store in conns}
    steps: dict[str, dict[str, list[float]]] = {store: {} for store in conns}
    for _ in range(REPEAT):
        for q in QUERIES:
            for name, call in calls.items():
                for store, c in conns.items():
                    times[(name, store)].append(ms(lambda: call(c, q)))  # noqa: B023
            for store, c in conns.items():
                for step, v in search(q, MEASURED, conn=c, embed=embed).timings_ms.items():
                    steps[store].setdefault(step, []).append(v)
    fresh = {store: [] for store in conns}
    for q in QUERIES:  # a new connection per search (a process that connects per request)
        for store, c in conns.items():
            url = db.conninfo(c)
            fresh[store].append(ms(lambda: _fresh_search(url, q, embed)))  # noqa: B023
    n = len(QUERIES) * REPEAT
    print(f"\nthe measured tenant's queries, ms ({n} per row and store; query embedding cached)")
    print(
        f"  {'call':<26} {'alone p50':>9} {'p95':>7} "
        f"{str(TENANTS) + ' p50':>9} {'p95':>7} {'p95 ratio':>9}"
    )
    rows = [(name, times[(name, "alone")], times[(name, "many")]) for name in calls]
    rows.append(("search(), new connection", fresh["alone"], fresh["many"]))
    for name, a, m in rows:
        (a50, a95), (m50, m95) = pct(a), pct(m)
        print(f"  {name:<26} {a50:>9.1f} {a95:>7.1f} {m50:>9.1f} {m95:>7.1f} {m95 / a95:>8.2f}x")
    print("\n  search() 1 hop per step, p50 ms:  " + "   ".join(
        f"{step} {statistics.median(steps['alone'][step]):.1f} / "
        f"{statistics.median(steps['many'][step]):.1f}" for step in steps["alone"]
    ) + "   (alone / 1000)")  # fmt: skip


def _fresh_search(url: str, query: str, embed) -> None:
    with db.connect(url) as conn:
        search(query, MEASURED, conn=conn, embed=embed)


def drops(url: str, instance: dg.DagsterInstance, landing: Path, label: str) -> float:
    """Median ms of `raag drop-tenant` (Postgres, Dagster partition, landing folder) for five
    tenants of the filler's shape."""
    rng = np.random.default_rng(5)
    words, space = synthetic.vocabulary(), synthetic.Space.make(8, rng)
    res = resources_for(url, landing)
    out = []
    with db.connect(url) as conn:
        for i in range(5):
            tenant = f"drop-{label}-{i}"
            db.add_tenant(conn, tenant)
            instance.add_dynamic_partitions(PARTITIONS, [tenant])
            synthetic.populate(
                conn, tenant, 48, rng, words, space, sections_per_doc=4, vacuum=False
            )
            (landing / tenant).mkdir(parents=True)
            out.append(ms(lambda t=tenant: drop_tenant(t, resources=res, instance=instance)))  # type: ignore[misc]
    return statistics.median(out)


def sensor_ticks(instance: dg.DagsterInstance, landing: Path, url: str) -> None:
    sensor = build_defs(resources_for(url, landing)).resolve_sensor_def("landing_sensor")
    land = LandingResource(root=str(landing))

    def tick(cursor: str | None):
        ctx = dg.build_sensor_context(instance=instance, cursor=cursor, resources={"landing": land})
        start = time.perf_counter()
        result = sensor(ctx)
        return result, time.perf_counter() - start

    print(f"\nlanding sensor, one tick over {TENANTS} tenant folders")
    first, s1 = tick(None)
    cursor = getattr(first, "cursor", None)
    print(f"  first tick (no cursor; every state covered by an ingest): {s1:.2f} s, {_what(first)}")
    second, s2 = tick(cursor)
    cursor = getattr(second, "cursor", None) or cursor
    _, s0 = tick(None)
    print(
        "  a tick with no cursor again (each tick, before the cursor kept covered states): "
        f"{s0:.2f} s"
    )
    print(f"  next tick, nothing changed:                              {s2:.2f} s, {_what(second)}")
    changed = landing / "t0001" / "doc-00000.txt"
    changed.write_text(changed.read_text() + "Amended.\n")
    third, s3 = tick(cursor)
    print(f"  a tick after one folder changed:                         {s3:.2f} s, {_what(third)}")


def _what(result) -> str:
    if isinstance(result, dg.SkipReason):
        return f"skipped ({result.skip_message})"
    runs = len(result.run_requests or [])
    return f"{runs} run(s), {'a' if result.cursor else 'no'} cursor" + (
        f", skipped ({result.skip_reason.skip_message})" if result.skip_reason else ""
    )


def partition_list(instance: dg.DagsterInstance) -> None:
    """The UI's partition health query for each stage, through Dagster's GraphQL schema with
    the workspace in a code-server subprocess, as `raag ui` serves it."""
    from dagster_graphql.test.utils import define_out_of_process_context, execute_dagster_graphql

    with define_out_of_process_context(str(ROOT / "workspace.yaml"), None, instance) as ctx:
        print(f"\nDagster UI partition health (GraphQL PartitionHealthQuery), {TENANTS} partitions")
        for asset in ingest_assets:
            variables = {"assetKey": {"path": list(asset.key.path)}}
            times, result = [], None
            for _ in range(3):
                start = time.perf_counter()
                result = execute_dagster_graphql(ctx, PARTITION_HEALTH, variables)
                times.append((time.perf_counter() - start) * 1000)
            node = result.data["assetNodeOrError"]
            keys = len(node["partitionKeysByDimension"][0]["partitionKeys"])
            done = len(node["assetPartitionStatuses"]["materializedPartitions"])
            print(
                f"  {asset.key.to_user_string():<20} {statistics.median(times):>7.0f} ms "
                f"(first {times[0]:.0f}); {keys} partitions, {done} materialised"
            )


def remake_views(url: str) -> None:
    """What migrations that add a column do (005, 007, 008, 010, 012, 013): every tenant's
    views remade in the migration's one transaction. Rolled back."""
    with db.connect(url) as conn:
        start = time.perf_counter()
        try:
            with conn.transaction(force_rollback=True):
                conn.execute("SELECT raag_add_tenant(tenant_id) FROM tenants").fetchall()
            outcome = "done"
        except psycopg.Error as exc:
            outcome = f"FAILED: {str(exc).splitlines()[0]}"
        seconds = time.perf_counter() - start
    print(
        f"\na migration remaking every tenant's views in one transaction: "
        f"{seconds:.1f} s, {outcome}"
    )


def main() -> None:
    urls = databases()
    # both timed ingests find the models loaded: a first one, elsewhere, loads them
    ingest(EXAMPLES[:1], "warm", resources=resources_for(urls.pop("warm"), HOME / "landing-warm"),
           instance=dg.DagsterInstance.ephemeral())  # fmt: skip
    alone_instance = dg.DagsterInstance.ephemeral()
    instance = local_instance()
    landing = {name: HOME / f"landing-{name}" for name in urls}
    start = time.perf_counter()
    summary = ingest(
        EXAMPLES, MEASURED, resources=resources_for(urls["alone"], landing["alone"]),
        instance=alone_instance,
    )  # fmt: skip
    alone_ingest = time.perf_counter() - start
    assert summary.success, summary.error
    print(f"store 'alone': tenant {MEASURED!r} ingested ({summary.counts}) in {alone_ingest:.1f} s")
    print(
        f"store 'many': {TENANTS - 1} synthetic tenants (no model ran for them), then {MEASURED!r}"
    )
    with db.connect(urls["many"]) as conn:
        fill(conn, instance, landing["many"])
    start = time.perf_counter()
    summary = ingest(
        EXAMPLES, MEASURED, resources=resources_for(urls["many"], landing["many"]),
        instance=instance,
    )  # fmt: skip
    many_ingest = time.perf_counter() - start
    assert summary.success, summary.error
    print(
        f"\ningest of {MEASURED!r}: {alone_ingest:.1f} s alone, {many_ingest:.1f} s beside "
        f"{TENANTS - 1} tenants ({many_ingest / alone_ingest:.2f}x)"
    )
    with db.connect(urls["alone"]) as a, db.connect(urls["many"]) as m:
        compare({"alone": a, "many": m}, cached_queries(default_embedder().embed))
    d_alone = drops(urls["alone"], alone_instance, landing["alone"], "a")
    d_many = drops(urls["many"], instance, landing["many"], "m")
    print(
        f"\ndrop-tenant (Postgres + Dagster partition + folder), median of 5: {d_alone:.0f} ms "
        f"in a store of 1 tenant, {d_many:.0f} ms beside {TENANTS} ({d_many / d_alone:.2f}x)"
    )
    sensor_ticks(instance, landing["many"], urls["many"])
    partition_list(instance)
    remake_views(urls["many"])


if __name__ == "__main__":
    try:
        main()
    finally:
        db.close_pools()
        shutil.rmtree(HOME, ignore_errors=True)
