"""Asset checks: what each stage guarantees about the tenant's rows, measured in SQL after it
writes, so the UI shows a failed guarantee next to the materialisation that broke it."""

import dagster as dg
import psycopg

from raag_assets.store.db import load_sql, one

ENDPOINTS_CHECK = "edge_endpoints_exist"
VERSIONS_CHECK = "no_earlier_version_live"
SECTIONS_CHECK = "counts_match"
PARKED_CHECK = "parked_references_counted"
EMBEDDINGS_CHECK = "every_chunk_embedded"

# What each check guarantees, as the UI shows it beside the check.
DESCRIPTIONS = {
    ENDPOINTS_CHECK: "Every edge's source and target (section or document) exists in the "
    "tenant: no edge points at a section that is gone.",
    VERSIONS_CHECK: "Chunks of earlier versions of a changed document are out of live "
    "retrieval, and the live version's chunks are in.",
    SECTIONS_CHECK: "Every document has sections and every chunk's section exists.",
    PARKED_CHECK: "Every parked reference carries the reason it is parked, and every Layer 3 "
    "edge marks its reference resolved.",
    EMBEDDINGS_CHECK: "Every chunk has an embedding of the store's model and dimension.",
}


def spec(name: str, asset: str, *, blocking: bool = False) -> dg.AssetCheckSpec:
    """The check `name` of `asset`. Blocking: a failure stops the assets downstream of it in
    the same run (they would build on rows the check found wrong)."""
    return dg.AssetCheckSpec(name, asset=asset, description=DESCRIPTIONS[name], blocking=blocking)


def endpoints_check(
    conn: psycopg.Connection, tenant: str, stage: str | None = None
) -> dg.AssetCheckResult:
    """Every edge's source and target section or document exists in the tenant."""
    (dangling,) = one(
        conn.execute(load_sql("check_edge_endpoints"), {"tenant": tenant, "stage": stage})
    )
    return dg.AssetCheckResult(
        check_name=ENDPOINTS_CHECK,
        passed=dangling == 0,
        metadata={"dangling_edges": dangling},
        description="every edge endpoint exists",
    )


def versions_check(conn: psycopg.Connection, tenant: str) -> dg.AssetCheckResult:
    """Earlier versions of changed documents are out of live retrieval; live ones are in."""
    (wrong,) = one(conn.execute(load_sql("check_versions_live"), {"tenant": tenant}))
    return dg.AssetCheckResult(
        check_name=VERSIONS_CHECK,
        passed=wrong == 0,
        metadata={"chunks_with_wrong_liveness": wrong},
        description="no chunk of a superseded version is live",
    )


def sections_check(conn: psycopg.Connection, tenant: str) -> dg.AssetCheckResult:
    """Every document has sections and every chunk's section exists."""
    unsectioned, orphans = one(conn.execute(load_sql("check_sections"), {"tenant": tenant}))
    return dg.AssetCheckResult(
        check_name=SECTIONS_CHECK,
        passed=unsectioned == 0 and orphans == 0,
        metadata={"documents_without_sections": unsectioned, "chunks_without_section": orphans},
        description="documents, sections and chunks agree",
    )


def parked_check(conn: psycopg.Connection, tenant: str) -> dg.AssetCheckResult:
    """Parked references each carry a reason; each Layer 3 edge marks its reference resolved."""
    parked, resolved, no_reason, unmarked = one(
        conn.execute(load_sql("check_parked"), {"tenant": tenant})
    )
    return dg.AssetCheckResult(
        check_name=PARKED_CHECK,
        passed=no_reason == 0 and unmarked == 0,
        metadata={
            "parked": parked,
            "resolved": resolved,
            "parked_without_reason": no_reason,
            "layer3_edges_not_marked_resolved": unmarked,
        },
        description="parked references are counted, each with its reason",
    )


def embeddings_check(conn: psycopg.Connection, tenant: str, dims: int) -> dg.AssetCheckResult:
    (missing,) = one(conn.execute(load_sql("check_embeddings"), {"tenant": tenant, "dims": dims}))
    return dg.AssetCheckResult(
        check_name=EMBEDDINGS_CHECK,
        passed=missing == 0,
        metadata={"chunks_without_embedding": missing, "dims": dims},
        description=f"every chunk has a {dims}-dim embedding",
    )
