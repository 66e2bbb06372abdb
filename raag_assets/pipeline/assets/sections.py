import time

import dagster as dg
import polars as pl

from raag_assets.core.identity import validate_tenant
from raag_assets.ingest.chunking import CHUNKER_VERSION
from raag_assets.ingest.embedding import prefetch_wanted
from raag_assets.ingest.sectioning import SECTIONER_VERSION
from raag_assets.pipeline import stages
from raag_assets.pipeline.executor import IN_PROCESS_EXECUTORS
from raag_assets.pipeline.metadata import (
    OWNERS,
    SECTIONS_LINEAGE,
    definition_metadata,
    table_metadata,
)
from raag_assets.pipeline.partitions import tenants
from raag_assets.store import frames
from raag_assets.store.db import load_sql, one
from raag_assets.store.documents import (
    batch_texts,
    count_live_chunks,
    documents_to_section,
    embedding_batches,
    replace_sections,
)
from resources import EmbedderResource, PostgresResource

from .checks import SECTIONS_CHECK, sections_check, spec
from .documents import documents
from .policy import FOLLOW_UPSTREAM, retry_transient

SECTIONS_VERSION = f"{SECTIONER_VERSION}.{CHUNKER_VERSION}"


@dg.asset(
    partitions_def=tenants,
    automation_condition=FOLLOW_UPSTREAM,
    deps=[documents],
    code_version=SECTIONS_VERSION,
    group_name="ingest",
    kinds={"postgres"},
    owners=OWNERS,
    metadata=definition_metadata("sections", frames.SECTIONS),
    # Not blocking: a document whose sectioning failed has no sections, which this check
    # reports; the tenant's other documents go on (a bad document never stops the rest).
    check_specs=[spec(SECTIONS_CHECK, "sections")],
    description="Section tree per document (1 / 1.1, Section N, Article IV, Markdown and PDF "
    "headings) and its chunks, sized to the embedding model's window.",
)
@retry_transient
def sections(
    context: dg.AssetExecutionContext, postgres: PostgresResource, embedder: EmbedderResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    started = time.perf_counter()
    policy = embedder.chunk_policy
    # The chunk size is part of what a document was sectioned with: changing it re-sections.
    version = f"{SECTIONS_VERSION}.{policy.max_tokens}"
    counter = embedder.embedder.count_tokens
    kept_embeddings = reused_embeddings = 0
    with postgres.connect() as conn:
        docs = documents_to_section(conn, tenant, version)
        out = stages.section_frames(tenant, docs, policy, counter)
        for doc_id, reason in out.failed.items():
            context.log.error(f"sectioning {doc_id!r} failed: {reason}")
        rebuilt = stages.sectioned_summary(docs, out)
        by_doc = _by_doc(out.sections), _by_doc(out.chunks)
        for doc_id in rebuilt["doc_id"]:
            secs = by_doc[0].get(doc_id, frames.empty(frames.SECTIONS))
            chunks = by_doc[1].get(doc_id, frames.empty(frames.CHUNKS))
            with conn.transaction():  # one per document: a failure loses nothing stored
                kept, reused = replace_sections(conn, tenant, doc_id, secs, chunks, version)
            kept_embeddings += kept
            reused_embeddings += reused
        with conn.transaction():
            count_live_chunks(conn, tenant)
        if _embeddings_follow_here(context):
            # the model embeds the new chunks while the graph stages run (`Embedder.prefetch`),
            # from here on: the counts, check and preview below are this step's alone
            embedder.embedder.prefetch(
                [batch_texts(batch) for batch in embedding_batches(conn, tenant)]
            )
        n_sections, n_chunks = one(
            conn.execute(load_sql("select_section_counts"), {"tenant": tenant})
        )
        check = sections_check(conn, tenant)
        preview = frames.read_frame(conn, load_sql("select_sections_preview"), {"tenant": tenant})
    return dg.MaterializeResult(
        check_results=[check],
        metadata={
            "sections": n_sections,
            "chunks": n_chunks,
            "documents_resectioned": rebuilt.height,
            "embeddings_kept": kept_embeddings,
            # of the other new chunks, those given the vector of the same text elsewhere
            "embeddings_reused": reused_embeddings,
            "failed": dg.MetadataValue.json(out.failed),
            "max_chunk_tokens": policy.max_tokens,
            "preview": dg.MetadataValue.md(_preview(rebuilt)),
            "seconds": round(time.perf_counter() - started, 2),
            **table_metadata(frames.SECTIONS, n_sections, SECTIONS_LINEAGE, preview),
        },
    )


def _embeddings_follow_here(context: dg.AssetExecutionContext) -> bool:
    """Whether this run's embeddings step comes later in this process (its steps run one
    after another in the run's process, and embeddings is among them) and may start early
    (RAAG_EMBED_PREFETCH)."""
    job = context.job_def  # the run's job, subset to the assets the run materialises
    return (
        prefetch_wanted()
        and job.executor_def.name in IN_PROCESS_EXECUTORS
        and dg.AssetKey("embeddings") in job.asset_layer.selected_asset_keys
    )


def _by_doc(df: pl.DataFrame) -> dict[str, pl.DataFrame]:
    return {key[0]: part for key, part in df.partition_by("doc_id", as_dict=True).items()}


def _preview(rebuilt: pl.DataFrame) -> str:
    if rebuilt.is_empty():
        return "_no document changed_"
    rows = [
        f"| {r['doc_id']} | {r['sections']} | {r['chunks']} | {', '.join(r['labels'])} |"
        for r in rebuilt.head(20).iter_rows(named=True)
    ]
    return "\n".join(
        ["| doc_id | sections | chunks | first labels |", "| --- | --- | --- | --- |", *rows]
    )
