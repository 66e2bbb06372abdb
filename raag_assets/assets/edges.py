import time

import dagster as dg

from raag_assets import graph_store
from raag_assets.graph.build import extract
from raag_assets.graph.model import dedupe
from raag_assets.graph.versions import version_links
from raag_assets.identity import validate_tenant
from raag_assets.partitions import tenants
from resources import PostgresResource, SpacyResource

from .checks import ENDPOINTS_CHECK, endpoints_check
from .graph_metadata import edge_metadata, errors_table, timing, unchanged
from .policy import FOLLOW_UPSTREAM, retry_transient
from .sections import sections

EDGES_VERSION = "4"  # 3: terms of art, citation forms, cue families; 4: section version links


@dg.asset(
    partitions_def=tenants,
    automation_condition=FOLLOW_UPSTREAM,
    deps=[sections],
    code_version=EDGES_VERSION,
    group_name="graph",
    kinds={"postgres", "spacy"},
    check_specs=[dg.AssetCheckSpec(ENDPOINTS_CHECK, asset="edges")],
    description="Layer 1 (patterns, metadata, file names, dates, fuzzy matching) and Layer 2 "
    "(spaCy parse) edges: references, overrides, supersedes, amends, defines, depends_on, "
    "precedes, applies_to, effective_on, applies_to_scope; defined terms, section topics, and "
    "references parked for later layers.",
)
@retry_transient
def edges(
    context: dg.AssetExecutionContext, postgres: PostgresResource, nlp: SpacyResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    started = time.perf_counter()
    with postgres.connect() as conn:
        docs = graph_store.documents(conn, tenant, history=True)
        secs = graph_store.sections(conn, tenant)
        fingerprint = graph_store.inputs_fingerprint(docs, secs, EDGES_VERSION, nlp.model)
        if graph_store.fingerprint(conn, tenant, "edges") == fingerprint:
            return unchanged(conn, tenant, "edges", [endpoints_check(conn, tenant, "edges")])
        result = extract(docs, secs, nlp.parse)
        # Each document-level supersedes edge is refined into links from the new version's
        # sections to the old version's, so search can answer from the version in force.
        earlier = graph_store.earlier_sections(conn, tenant)
        replaced = [
            (e.src_doc_id, e.dst_doc_id)
            for e in result.edges
            if e.edge_type == "supersedes" and e.src_section_id is None and e.dst_doc_id
        ]
        result.edges = dedupe([*result.edges, *version_links(replaced, [*secs, *earlier])])
        order = {s.section_id: s.ordinal for s in [*secs, *earlier]}
        with conn.transaction():  # the whole stage or nothing: readers never see half a graph
            graph_store.replace_edges(conn, tenant, "edges", result.edges, order)
            graph_store.replace_terms(conn, tenant, result.terms)
            graph_store.replace_topics(
                conn, tenant, result.topics, {s.section_id: s.doc_id for s in secs}
            )
            graph_store.replace_unresolved(conn, tenant, result.parked)
            graph_store.replace_errors(conn, tenant, "edges", result.errors)
            graph_store.set_fingerprint(conn, tenant, "edges", fingerprint)
            graph_store.forget_fingerprints(
                conn, tenant, ["term_uses", "topic_links", "resolved_references"]
            )
        check = endpoints_check(conn, tenant, "edges")
    for doc_id, reason in sorted(result.errors.items()):
        context.log.warning(f"extraction failed for {doc_id!r}: {reason}")
    return dg.MaterializeResult(
        check_results=[check],
        metadata={
            **edge_metadata(result.edges, secs),
            "terms": len(result.terms),
            "parked": len(result.parked),
            "failed_documents": len(result.errors),
            "failures": errors_table(result.errors),
            "sections": len(secs),
            **timing(started, len(secs)),
        },
    )
