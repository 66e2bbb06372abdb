import time

import dagster as dg

from raag_assets import graph_store
from raag_assets.graph.topics import topic_links as find_topic_links
from raag_assets.identity import validate_tenant
from raag_assets.partitions import tenants
from resources import PostgresResource

from .graph_metadata import downstream_fingerprint, edge_metadata, unchanged
from .term_uses import term_uses

TOPIC_LINKS_VERSION = "1"


@dg.asset(
    partitions_def=tenants,
    deps=[term_uses],
    code_version=TOPIC_LINKS_VERSION,
    group_name="graph",
    kinds={"postgres"},
    description="topically_related edges: each section's closest sections in other documents "
    "by Jaccard overlap of their topic arrays.",
)
def topic_links(
    context: dg.AssetExecutionContext, postgres: PostgresResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    started = time.perf_counter()
    with postgres.connect() as conn:
        fingerprint = downstream_fingerprint(conn, tenant, TOPIC_LINKS_VERSION)
        if fingerprint and graph_store.fingerprint(conn, tenant, "topic_links") == fingerprint:
            return unchanged(conn, tenant, "topic_links")
        secs = graph_store.sections(conn, tenant)
        found = find_topic_links(secs, graph_store.topics(conn, tenant))
        with conn.transaction():
            graph_store.replace_edges(
                conn, tenant, "topic_links", found, {s.section_id: s.ordinal for s in secs}
            )
            if fingerprint:
                graph_store.set_fingerprint(conn, tenant, "topic_links", fingerprint)
    seconds = time.perf_counter() - started
    return dg.MaterializeResult(
        metadata={
            **edge_metadata(found, secs),
            "seconds": round(seconds, 2),
            "sections_per_second": round(len(secs) / seconds, 1) if seconds else 0.0,
        }
    )
