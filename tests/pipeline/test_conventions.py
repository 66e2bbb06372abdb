"""What a Dagster user expects of the code location: owners, table names and described columns,
described checks (blocking where a failure must stop the chain), materialisations that keep
their figures when nothing changed, failed runs recorded, the nightly schedule on."""

import shutil
from typing import Any

import dagster as dg
from click.testing import CliRunner

from raag_assets.definitions import defs, ingest_assets
from raag_assets.interfaces.cli import main
from raag_assets.pipeline.assets.documents import documents
from raag_assets.pipeline.automation import record_run_failures
from raag_assets.pipeline.partitions import tenants
from resources import LandingResource, PostgresResource
from tests.conftest import EXAMPLES

TABLES = {
    "documents": "public.documents",
    "sections": "public.sections",
    "edges": "public.edges",
    "term_uses": "public.edges",
    "topic_links": "public.edges",
    "resolved_references": "public.edges",
    "embeddings": "public.chunks",
}
BLOCKING = {("documents", "no_earlier_version_live"), ("edges", "edge_endpoints_exist")}


def test_every_asset_has_owners_its_table_and_a_described_column_schema():
    graph = defs.resolve_asset_graph()
    for name, table in TABLES.items():
        node = graph.get(dg.AssetKey(name))
        assert node.owners == ["team:raag"], name
        assert node.metadata["dagster/table_name"] == table, name
        schema = node.metadata["dagster/column_schema"]
        assert schema.columns, name
        undescribed = [c.name for c in schema.columns if not c.description]
        assert not undescribed, (name, undescribed)

    def names(asset: str) -> set[str]:
        schema = graph.get(dg.AssetKey(asset)).metadata["dagster/column_schema"]
        return {c.name for c in schema.columns}

    assert {"doc_id", "source_name", "version", "effective_from"} <= names("documents")
    assert {"doc_id", "chunk_index", "embedding", "live"} <= names("embeddings")


def test_every_check_is_described_and_the_chosen_ones_block():
    specs = [(s.asset_key.to_user_string(), s) for a in ingest_assets for s in a.check_specs]
    assert len(specs) == 8
    for asset, spec in specs:
        assert spec.description and len(spec.description) > 30, (asset, spec.name)
    assert {(a, s.name) for a, s in specs if s.blocking} == BLOCKING


def test_the_nightly_schedule_and_the_failure_sensor_run_by_default():
    schedule = defs.resolve_schedule_def("retry_parked_references")
    assert schedule.cron_schedule == "0 3 * * *"
    assert schedule.default_status == dg.DefaultScheduleStatus.RUNNING
    sensor = defs.resolve_sensor_def("record_run_failures")
    assert sensor.default_status == dg.DefaultSensorStatus.RUNNING


def _latest(store: Any, asset: str, tenant: str, n: int = 1) -> list[dict[str, Any]]:
    records = store.instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[tenant]), limit=n
    ).records
    return [dict(r.asset_materialization.metadata) for r in records]


def _plain(metadata: dict[str, Any]) -> dict[str, Any]:
    return {k: getattr(v, "value", v) for k, v in metadata.items()}


def test_a_run_that_changed_nothing_keeps_the_last_figures_visible(make_store, tmp_path):
    store = make_store()
    for name in ("leave-policy.md", "wfh-policy.md"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    assert store.ingest([tmp_path], "same").success
    first = {a: _plain(_latest(store, a, "same")[0]) for a in TABLES}
    assert store.ingest([tmp_path], "same", force=True).success  # a run that changes nothing
    for asset in ("edges", "term_uses", "topic_links", "resolved_references"):
        latest, before = _latest(store, asset, "same", 2)
        now = _plain(latest)
        assert now["unchanged"] is True, asset
        assert not _plain(before).get("unchanged"), asset
        # the row count, the column schema and lineage, the counts and samples stay shown
        for key in ("dagster/row_count", "dagster/column_schema", "dagster/column_lineage"):
            assert now[key] == first[asset][key], (asset, key)
        assert now["edge_counts"] == first[asset]["edge_counts"], asset
        assert {k for k in first[asset] if k.startswith("edges_")} <= set(now), asset
    assert first["edges"]["dagster/row_count"] > 0

    # documents and embeddings report their rows and columns too
    (docs,) = store.rows("SELECT count(*) FROM documents WHERE tenant_id = 'same'")[0]
    (embedded,) = store.rows(
        "SELECT count(*) FROM chunks WHERE tenant_id = 'same' AND embedding IS NOT NULL"
    )[0]
    latest_docs = _plain(_latest(store, "documents", "same")[0])
    latest_embeddings = _plain(_latest(store, "embeddings", "same")[0])
    assert latest_docs["dagster/row_count"] == docs == 2
    assert latest_embeddings["dagster/row_count"] == embedded > 0
    columns = [c.name for c in latest_embeddings["dagster/column_schema"].columns]
    assert "embedding" in columns
    assert all(c.description for c in latest_docs["dagster/column_schema"].columns)


def test_a_failing_blocking_check_stops_the_stages_downstream(make_store, tmp_path):
    store = make_store()
    shutil.copy(EXAMPLES / "leave-policy.md", tmp_path / "leave-policy.md")
    assert store.ingest([tmp_path], "broken").success
    # a graph written wrong: an edge of the edges stage to a section that does not exist
    with store.connect() as conn:
        conn.execute(
            "INSERT INTO edges SELECT tenant_id, 'dangling', stage, ordinal + 1000, edge_type, "
            "layer, src_doc_id, src_section_id, dst_doc_id, 'no-such-section', term, date_from, "
            "date_to, scope, matched_text, normalized_target, raw_target, confidence, "
            "condition, rule FROM edges WHERE tenant_id = 'broken' AND stage = 'edges' LIMIT 1"
        )
    # written behind raag's back, so nothing tells the ingest that something changed: forced
    summary = store.ingest([tmp_path], "broken", force=True)
    assert not summary.success
    assert summary.checks["edges:edge_endpoints_exist"] is False
    assert "blocking asset check failed" in summary.error
    assert "edges: edge_endpoints_exist" in summary.error  # what failed, not only a heading
    # the embeddings branch does not hang off edges and goes on; the graph stages stop
    assert {"documents", "sections", "edges", "embeddings"} <= set(summary.stages)
    assert not {"term_uses", "topic_links", "resolved_references"} & set(summary.stages)
    # `raag ingest` records its own failed run where the daemon's sensor records others
    assert store.rows("SELECT run_id, tenant_id FROM run_failures") == [(summary.run_id, "broken")]


def test_a_failed_run_is_recorded_and_raag_failures_lists_it(make_store, monkeypatch):
    store = make_store()
    instance = store.instance
    instance.add_dynamic_partitions(tenants.name, ["down"])
    # a run that fails for real: its database cannot be reached
    result = dg.materialize(
        [documents],
        partition_key="down",
        instance=instance,
        resources={
            "postgres": PostgresResource(database_url="postgresql://nobody@127.0.0.1:1/none"),
            "landing": LandingResource(root=str(store.landing_root)),
        },
        raise_on_error=False,
    )
    assert not result.success
    context = dg.build_run_status_sensor_context(
        sensor_name="record_run_failures",
        dagster_instance=instance,
        dagster_run=result.dagster_run,
        dagster_event=result.get_run_failure_event(),
        resources={"postgres": PostgresResource(database_url=store.url)},
    ).for_run_failure()
    record_run_failures(context)
    record_run_failures(context)  # seen twice (a daemon restart): recorded once
    rows = store.rows("SELECT run_id, tenant_id, steps, error FROM run_failures")
    assert len(rows) == 1
    run_id, tenant, steps, error = rows[0]
    assert (run_id, tenant, steps) == (result.run_id, "down", ["documents"])
    assert "127.0.0.1" in error or "connection" in error.lower()

    monkeypatch.setenv("RAAG_DATABASE_URL", store.url)
    listed = CliRunner().invoke(main, ["failures", "--tenant", "down"])
    assert listed.exit_code == 0, listed.output
    assert result.run_id[:8] in listed.output and "documents" in listed.output
    other = CliRunner().invoke(main, ["failures", "--tenant", "nobody"])
    assert "no failed runs recorded" in other.output
