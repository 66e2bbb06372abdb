"""How the stages run: the embedding device setting and Layer 3's heading-vector cache."""

import shutil

import pytest
import torch

from raag_assets.ingest.embedding import Embedder, resolve_device
from raag_assets.store import graph as graph_store
from tests.conftest import EXAMPLES


def test_embed_device_setting(monkeypatch):
    monkeypatch.delenv("RAAG_EMBED_DEVICE", raising=False)
    gpu = torch.cuda.is_available()
    assert resolve_device() == ("cuda" if gpu else "cpu")  # auto by default
    assert resolve_device("cpu") == "cpu"
    monkeypatch.setenv("RAAG_EMBED_DEVICE", "CPU")
    assert resolve_device() == "cpu"
    assert resolve_device("auto") == ("cuda" if gpu else "cpu")  # explicit beats the env
    with pytest.raises(ValueError, match="expected one of auto, cpu, cuda"):
        resolve_device("tpu")
    if not gpu:
        with pytest.raises(ValueError, match="no CUDA device"):
            resolve_device("cuda")


LAYER3 = (
    "SELECT src_doc_id, src_section_id, dst_section_id, confidence FROM edges "
    "WHERE tenant_id = %s AND stage = 'resolved_references' ORDER BY ordinal"
)


def test_dims_come_from_the_model_config_without_loading_the_weights(embedder):
    """An embeddings stage with nothing to embed checks the store's vector size only: that
    must not cost loading the model (it made an unchanged re-ingest 4 s slower)."""
    fresh = Embedder(embedder.model_name)
    assert fresh.dims == 384
    assert "_model" not in fresh.__dict__  # the weights were not loaded
    assert fresh.dims == embedder.embed(["a sentence"]).shape[1]


def test_layer3_embeds_each_heading_once_and_then_reads_it_from_the_cache(make_store, tmp_path):
    store = make_store()
    for name in ("wfh-policy.md", "expenses.txt"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    first = store.ingest([tmp_path], "cache")
    assert first.success, first.error
    stage = first.stages["resolved_references"]
    assert stage["heading_vectors_embedded"] > 0 and stage["heading_vectors_cached"] == 0
    edges = store.rows(LAYER3, "cache")
    assert edges and edges[0][0] == "wfh-policy"  # the semantic reference of the example
    (stored,) = store.rows("SELECT count(*) FROM heading_vectors WHERE tenant_id = 'cache'")[0]
    assert stored == stage["heading_vectors_embedded"]

    with store.connect() as conn:  # make Layer 3 run again on the same sections
        graph_store.forget_fingerprints(conn, "cache", ["resolved_references"])
    rerun = store.ingest([], "cache")
    assert rerun.success, rerun.error
    again = rerun.stages["resolved_references"]
    assert again["heading_vectors_embedded"] == 0
    assert again["heading_vectors_cached"] == stage["heading_vectors_embedded"]
    assert store.rows(LAYER3, "cache") == edges


def test_stage_metadata_carries_table_schema_lineage_and_preview(demo_store):
    import dagster as dg

    records = demo_store.instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey("edges"), asset_partitions=["demo"]), limit=1
    ).records
    meta = records[0].asset_materialization.metadata
    (edges,) = demo_store.rows(
        "SELECT count(*) FROM edges WHERE tenant_id = 'demo' AND stage = 'edges'"
    )[0]
    assert meta["dagster/row_count"].value == edges
    columns = [c.name for c in meta["dagster/column_schema"].schema.columns]
    assert columns[:3] == ["tenant_id", "edge_id", "stage"] and "confidence" in columns
    lineage = meta["dagster/column_lineage"].lineage.deps_by_column
    assert lineage["src_section_id"][0].asset_key == dg.AssetKey("sections")
    assert meta["preview_table"].records  # a table preview of the stored rows

    sections = (
        demo_store.instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey("sections"), asset_partitions=["demo"]),
            limit=1,
        )
        .records[0]
        .asset_materialization.metadata
    )
    (count,) = demo_store.rows("SELECT count(*) FROM sections WHERE tenant_id = 'demo'")[0]
    assert sections["dagster/row_count"].value == count
    assert (
        sections["dagster/column_lineage"].lineage.deps_by_column["text"][0].column_name == "text"
    )


def test_a_deadlock_between_tenants_retries_the_step_and_nothing_else():
    import dagster as dg
    from psycopg.errors import DeadlockDetected

    from raag_assets.pipeline.assets.policy import retry_transient

    calls = []

    @retry_transient
    def stage(x: int) -> int:
        calls.append(x)
        if x < 0:
            raise DeadlockDetected("deadlock detected")
        if x == 0:
            raise ValueError("a real fault")
        return x

    assert stage(2) == 2
    with pytest.raises(dg.RetryRequested):
        stage(-1)
    with pytest.raises(ValueError):  # not transient: fails as before
        stage(0)
    assert calls == [2, -1, 0]
