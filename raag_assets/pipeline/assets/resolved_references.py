import time

import dagster as dg
import psycopg

from raag_assets.core.identity import validate_tenant
from raag_assets.graph.build import titled
from raag_assets.graph.references import Corpus
from raag_assets.graph.semantic import heading_text, resolve_semantic
from raag_assets.pipeline.metadata import OWNERS, definition_metadata
from raag_assets.pipeline.partitions import tenants
from raag_assets.store import frames
from raag_assets.store import graph as graph_store
from raag_assets.store.vector_cache import HeadingVectors
from resources import EmbedderResource, PostgresResource

from .checks import ENDPOINTS_CHECK, PARKED_CHECK, endpoints_check, parked_check, spec
from .embeddings import embeddings
from .graph_metadata import downstream_fingerprint, edge_metadata, timing, unchanged
from .policy import FOLLOW_UPSTREAM, retry_transient
from .topic_links import topic_links

RESOLVED_REFERENCES_VERSION = "2"  # 2: rule ids


@dg.asset(
    partitions_def=tenants,
    automation_condition=FOLLOW_UPSTREAM,
    deps=[topic_links, embeddings],  # the two branches meet here
    code_version=RESOLVED_REFERENCES_VERSION,
    group_name="graph",
    kinds={"postgres", "pytorch"},
    owners=OWNERS,
    metadata=definition_metadata("resolved_references", frames.EDGES),
    check_specs=[  # the last asset: nothing downstream to block
        spec(ENDPOINTS_CHECK, "resolved_references"),
        spec(PARKED_CHECK, "resolved_references"),
    ],
    description="Layer 3: parked references matched to section headings by embedding "
    "similarity (threshold and ranked candidates); the rest stay parked with their reason.",
)
@retry_transient
def resolved_references(
    context: dg.AssetExecutionContext, postgres: PostgresResource, embedder: EmbedderResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    started = time.perf_counter()
    with postgres.connect() as conn:
        fingerprint = downstream_fingerprint(
            conn, tenant, RESOLVED_REFERENCES_VERSION, embedder.embedder.model_name
        )
        if (
            fingerprint
            and graph_store.fingerprint(conn, tenant, "resolved_references") == fingerprint
        ):
            return unchanged(context, conn, tenant, "resolved_references", _checks(conn, tenant))
        secs = graph_store.sections(conn, tenant)
        docs = titled(graph_store.documents(conn, tenant), secs)
        corpus = Corpus(docs, secs, graph_store.superseded_documents(conn, tenant))
        rows = graph_store.unresolved(conn, tenant)
        parked = [ref for _, ref, _ in rows]
        model = embedder.embedder
        headings = HeadingVectors(conn, tenant, model.model_name, model.embed)
        found, still = resolve_semantic(parked, corpus, model.embed, headings)
        reasons = {(p.src_section_id, p.matched_text): p for p in still}
        with conn.transaction():
            graph_store.replace_edges(
                conn, tenant, "resolved_references", found, {s.section_id: s.ordinal for s in secs}
            )
            for ordinal, ref, _ in rows:
                left = reasons.get((ref.src_section_id, ref.matched_text))
                if left is not None:
                    graph_store.update_unresolved(
                        conn, tenant, ordinal, "parked", left.reason, left.candidates
                    )
                else:
                    graph_store.update_unresolved(
                        conn, tenant, ordinal, "resolved", "resolved by Layer 3", ()
                    )
            if fingerprint:
                graph_store.set_fingerprint(conn, tenant, "resolved_references", fingerprint)
            headings.prune(heading_text(s) for s in secs if s.heading)
        checks = _checks(conn, tenant)
    return dg.MaterializeResult(
        check_results=checks,
        metadata={
            **edge_metadata(found, secs),
            "resolved": len(found),
            "still_parked": len(still),
            "heading_vectors_cached": headings.hits,
            "heading_vectors_embedded": headings.misses,
            **timing(started, len(secs)),
        },
    )


def _checks(conn: psycopg.Connection, tenant: str) -> list[dg.AssetCheckResult]:
    return [endpoints_check(conn, tenant, "resolved_references"), parked_check(conn, tenant)]
