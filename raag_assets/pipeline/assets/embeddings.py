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
from raag_assets.store.documents import chunks_to_embed, tenant_summary, write_embeddings
from resources import EmbedderResource, PostgresResource

from .checks import EMBEDDINGS_CHECK, embeddings_check, spec
from .policy import FOLLOW_UPSTREAM, retry_transient
from .sections import sections

EMBEDDINGS_VERSION = "1"
# Rows committed per transaction: a killed run keeps what it finished.
WRITE_BATCH = 128


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
        # Longest first: each batch then pads to texts of like length, as one encode() call
        # over all chunks would (sorted within 128 rows only, padding cost ~20% more).
        todo = sorted(chunks_to_embed(conn, tenant), key=lambda r: (-len(r[2]), r[0], r[1]))
        # read by `raag ingest`'s progress bar (pipeline/progress.py): the count, then a line
        # per committed batch
        context.log.info(EMBEDDED_LINE.format(done=0, total=len(todo)))
        for start in range(0, len(todo), WRITE_BATCH):
            batch = todo[start : start + WRITE_BATCH]
            vectors = model.embed([row[2] for row in batch])
            with conn.transaction():
                write_embeddings(conn, tenant, [(r[0], r[1]) for r in batch], vectors)
            context.log.info(EMBEDDED_LINE.format(done=start + len(batch), total=len(todo)))
        summary = tenant_summary(conn, tenant)
        check = embeddings_check(conn, tenant, model.dims)
    seconds = time.perf_counter() - started
    return dg.MaterializeResult(
        check_results=[check],
        metadata={
            "embedded_now": len(todo),
            "embedded_total": summary["embedded"],
            "chunks": summary["chunks"],
            "model": model.model_name,
            "dims": model.dims,
            "seconds": round(seconds, 2),
            "chunks_per_second": round(len(todo) / seconds, 1) if todo and seconds else 0.0,
            # the rows this asset stands for: the tenant's chunks that carry a vector
            **table_metadata(
                EMBEDDINGS, summary["embedded"], EMBEDDINGS_LINEAGE, table="embeddings"
            ),
        },
    )
