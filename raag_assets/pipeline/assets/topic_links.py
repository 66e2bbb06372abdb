import dagster as dg

from raag_assets.core.identity import validate_tenant
from raag_assets.graph.topics import topic_links as find_topic_links
from raag_assets.pipeline.metadata import OWNERS, definition_metadata
from raag_assets.pipeline.partitions import tenants
from raag_assets.store import frames
from raag_assets.store import graph as graph_store
from resources import PostgresResource

from .checks import ENDPOINTS_CHECK, spec
from .graph_metadata import rebuild_stage
from .policy import FOLLOW_UPSTREAM, GRAPH_BRANCH_FIRST, retry_transient
from .term_uses import term_uses

TOPIC_LINKS_VERSION = "3"  # 2: heading topics, threshold 0.15; 3: rule ids


@dg.asset(
    partitions_def=tenants,
    automation_condition=FOLLOW_UPSTREAM,
    op_tags=GRAPH_BRANCH_FIRST,
    deps=[term_uses],
    code_version=TOPIC_LINKS_VERSION,
    group_name="graph",
    kinds={"postgres"},
    owners=OWNERS,
    metadata=definition_metadata("topic_links", frames.EDGES),
    check_specs=[spec(ENDPOINTS_CHECK, "topic_links")],
    description="topically_related edges: each section's closest sections in other documents "
    "by Jaccard overlap of their topic arrays.",
)
@retry_transient
def topic_links(
    context: dg.AssetExecutionContext, postgres: PostgresResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    with postgres.connect() as conn:
        return rebuild_stage(
            context,
            conn,
            tenant,
            "topic_links",
            TOPIC_LINKS_VERSION,
            lambda secs: find_topic_links(secs, graph_store.topics(conn, tenant)),
        )
