import time

import dagster as dg

from raag_assets.core.identity import validate_tenant
from raag_assets.pipeline.metadata import (
    EMBEDDINGS,
    EMBEDDINGS_LINEAGE,
    OWNERS,
    definition_metadata,
    table_metadata,
)
from raag_assets.pipeline.partitions import tenants
from raag_assets.pipeline.progress import EMBEDDED_LINE
from raag_assets.store.db import check_collection
from raag_assets.store.documents import (
    batch_texts,
    embedding_batches,
    tenant_summary,
    write_embeddings,
)
from resources import EmbedderResource, PostgresResource

from .checks import EMBEDDINGS_CHECK, embeddings_check, spec
from .policy import FOLLOW_UPSTREAM, retry_transient
from .sections import sections

EMBEDDINGS_VERSION = "1"


@dg.asset(
    partitions_def=tenants,
    automation_condition=FOLLOW_UPSTREAM,
    deps=[sections],  # chunks are all it reads: it runs beside the graph stages
    code_version=EMBEDDINGS_VERSION,
    group_name="ingest",
    kinds={"postgres", "pytorch"},
    owners=OWNERS,
    metadata=definition_metadata("embeddings", EMBEDDINGS),
    # Not blocking: Layer 3 downstream embeds the headings it matches (its own cache), not
    # the chunks; a chunk left unembedded is reported here and embedded by the next run.
    check_specs=[spec(EMBEDDINGS_CHECK, "embeddings")],
    description="Embeddings for new or changed chunks only (by content hash), batched, "
    "into chunks.embedding for HNSW search.",
)
@retry_transient
def embeddings(
    context: dg.AssetExecutionContext, postgres: PostgresResource, embedder: EmbedderResource
) -> dg.MaterializeResult:
    tenant = validate_tenant(context.partition_key)
    model = embedder.embedder
    started = time.perf_counter()
    with postgres.connect() as conn:
        check_collection(conn, model.model_name, model.dims)
        batches = embedding_batches(conn, tenant)
        total = sum(len(keys) for batch in batches for _, keys in batch)
        # read by `raag ingest`'s progress bar (pipeline/progress.py): the count, then a line
        # per committed batch
        context.log.info(EMBEDDED_LINE.format(done=0, total=total))
        done, ahead = 0, model.prefetched_taken
        for batch in batches:
            # prefetched by the sections step when it ran in this process (`prefetch`)
            vectors = model.embed(batch_texts(batch))
            with conn.transaction():
                done += write_embeddings(conn, tenant, batch, vectors)
            context.log.info(EMBEDDED_LINE.format(done=done, total=total))
        summary = tenant_summary(conn, tenant)
        check = embeddings_check(conn, tenant, model.dims)
    seconds = time.perf_counter() - started
    return dg.MaterializeResult(
        check_results=[check],
        metadata={
            "embedded_now": total,  # chunks given a vector
            # the distinct texts the model embedded for them: chunks of one text share one
            "texts_embedded": sum(map(len, batches)),
            # of those texts, the ones embedded during the graph stages, from the sections
            # step (prefetch)
            "embedded_ahead": model.prefetched_taken - ahead,
            "embedded_total": summary["embedded"],
            "chunks": summary["chunks"],
            "model": model.model_name,
            "dims": model.dims,
            "seconds": round(seconds, 2),
            "chunks_per_second": round(total / seconds, 1) if total and seconds else 0.0,
            # the rows this asset stands for: the tenant's chunks that carry a vector
            **table_metadata(
                EMBEDDINGS, summary["embedded"], EMBEDDINGS_LINEAGE, table="embeddings"
            ),
        },
    )
