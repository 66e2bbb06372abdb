"""The Dagster code location loads and describes its assets."""

import dagster as dg

from raag_assets.definitions import defs


def test_code_location_loads_with_versioned_partitioned_assets():
    graph = defs.resolve_asset_graph()
    keys = {k.to_user_string() for k in graph.get_all_asset_keys()}
    assert keys == {"documents", "sections", "embeddings"}
    for key in keys:
        node = graph.get(dg.AssetKey(key))
        assert node.code_version, key
        assert node.description, key
        assert node.partitions_def.name == "tenants"
    assert graph.get(dg.AssetKey("embeddings")).parent_keys == {dg.AssetKey("sections")}
    assert graph.get(dg.AssetKey("sections")).parent_keys == {dg.AssetKey("documents")}
    job = defs.resolve_job_def("ingest_tenant")
    assert job.partitions_def.name == "tenants"
