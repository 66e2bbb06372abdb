"""The Dagster code location loads and describes its assets."""

import dagster as dg

from raag_assets.definitions import defs


def test_code_location_loads_with_versioned_partitioned_assets():
    graph = defs.resolve_asset_graph()
    keys = {k.to_user_string() for k in graph.get_all_asset_keys()}
    assert keys == {
        "documents",
        "sections",
        "edges",
        "term_uses",
        "topic_links",
        "embeddings",
        "resolved_references",
    }
    for key in keys:
        node = graph.get(dg.AssetKey(key))
        assert node.code_version, key
        assert node.description, key
        assert node.partitions_def.name == "tenants"
    chain = [
        "documents",
        "sections",
        "edges",
        "term_uses",
        "topic_links",
        "embeddings",
        "resolved_references",
    ]
    for parent, child in zip(chain, chain[1:], strict=False):
        assert graph.get(dg.AssetKey(child)).parent_keys == {dg.AssetKey(parent)}
    job = defs.resolve_job_def("ingest_tenant")
    assert job.partitions_def.name == "tenants"
