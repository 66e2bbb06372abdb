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
    # as the data flows: embeddings need only the chunks, so they run beside the graph
    # stages; Layer 3 needs both branches
    parents = {
        "documents": set(),
        "sections": {"documents"},
        "edges": {"sections"},
        "term_uses": {"edges"},
        "topic_links": {"term_uses"},
        "embeddings": {"sections"},
        "resolved_references": {"topic_links", "embeddings"},
    }
    for child, wanted in parents.items():
        assert graph.get(dg.AssetKey(child)).parent_keys == {dg.AssetKey(p) for p in wanted}
    job = defs.resolve_job_def("ingest_tenant")
    assert job.partitions_def.name == "tenants"
