import time

import dagster as dg

from raag_assets import graph_store
from raag_assets.graph.terms import term_uses as find_term_uses
from raag_assets.identity import validate_tenant
from raag_assets.partitions import tenants
from resources import PostgresResource

from .edges import edges
from .graph_metadata import downstream_fingerprint, edge_metadata, unchanged

TERM_USES_VERSION = "1"


@dg.asset(
    partitions_def=tenants,
    deps=[edges],
    code_version=TERM_USES_VERSION,
    group_name="graph",
    kinds={"postgres"},
    description="uses_term edges: every section that uses a term defined elsewhere, linked to "
    "the defining section (own document first, then cited documents).",
)
def term_uses(
    context: dg.AssetExecutionContext, postgres: PostgresResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    started = time.perf_counter()
    with postgres.connect() as conn:
        fingerprint = downstream_fingerprint(conn, tenant, TERM_USES_VERSION)
        if fingerprint and graph_store.fingerprint(conn, tenant, "term_uses") == fingerprint:
            return unchanged(conn, tenant, "term_uses")
        secs = graph_store.sections(conn, tenant)
        found = find_term_uses(
            secs,
            graph_store.terms(conn, tenant),
            graph_store.referenced_documents(conn, tenant),
            graph_store.superseded_documents(conn, tenant),
        )
        with conn.transaction():
            graph_store.replace_edges(
                conn, tenant, "term_uses", found, {s.section_id: s.ordinal for s in secs}
            )
            if fingerprint:
                graph_store.set_fingerprint(conn, tenant, "term_uses", fingerprint)
    seconds = time.perf_counter() - started
    return dg.MaterializeResult(
        metadata={
            **edge_metadata(found, secs),
            "seconds": round(seconds, 2),
            "sections_per_second": round(len(secs) / seconds, 1) if seconds else 0.0,
        }
    )
