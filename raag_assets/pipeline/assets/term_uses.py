import dagster as dg

from raag_assets.core.identity import validate_tenant
from raag_assets.graph.terms import term_uses as find_term_uses
from raag_assets.pipeline.metadata import OWNERS, definition_metadata
from raag_assets.pipeline.partitions import tenants
from raag_assets.store import frames
from raag_assets.store import graph as graph_store
from resources import PostgresResource

from .checks import ENDPOINTS_CHECK, spec
from .edges import edges
from .graph_metadata import rebuild_stage
from .policy import FOLLOW_UPSTREAM, GRAPH_BRANCH_FIRST, retry_transient

# 2: terms of art only, longest match, headings; 3: terms of art judged anew
TERM_USES_VERSION = "5"  # 4: each use names its rule
# 5: a term whose definition breaks a hyphenated word ("Non- Compete Period") found written whole


@dg.asset(
    partitions_def=tenants,
    automation_condition=FOLLOW_UPSTREAM,
    op_tags=GRAPH_BRANCH_FIRST,
    deps=[edges],
    code_version=TERM_USES_VERSION,
    group_name="graph",
    kinds={"postgres"},
    owners=OWNERS,
    metadata=definition_metadata("term_uses", frames.EDGES),
    check_specs=[spec(ENDPOINTS_CHECK, "term_uses")],
    description="uses_term edges: every section that uses a term defined elsewhere, linked to "
    "the defining section (own document first, then cited documents).",
)
@retry_transient
def term_uses(
    context: dg.AssetExecutionContext, postgres: PostgresResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    with postgres.connect() as conn:
        return rebuild_stage(
            context,
            conn,
            tenant,
            "term_uses",
            TERM_USES_VERSION,
            lambda secs: find_term_uses(
                secs,
                graph_store.terms(conn, tenant),
                graph_store.referenced_documents(conn, tenant),
                graph_store.superseded_documents(conn, tenant),
                [
                    (e["src_section_id"], e["normalized_target"])
                    for e in graph_store.edges(conn, tenant, "defines")
                ],
            ),
        )
