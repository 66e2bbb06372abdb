"""The code location: every stage's assets, the resources, and the tenant ingest job."""

import os

import dagster as dg

from raag_assets.assets.documents import documents
from raag_assets.assets.edges import edges
from raag_assets.assets.embeddings import embeddings
from raag_assets.assets.resolved_references import resolved_references
from raag_assets.assets.sections import sections
from raag_assets.assets.term_uses import term_uses
from raag_assets.assets.topic_links import topic_links
from raag_assets.partitions import tenants
from resources import EmbedderResource, LandingResource, PostgresResource, SpacyResource

# In chain order: documents -> sections -> edges -> term_uses -> topic_links -> embeddings
# -> resolved_references.
ingest_assets = [
    documents,
    sections,
    edges,
    term_uses,
    topic_links,
    embeddings,
    resolved_references,
]

ingest_tenant = dg.define_asset_job(
    "ingest_tenant",
    selection=dg.AssetSelection.assets(*ingest_assets),
    partitions_def=tenants,
    description="Materialise one tenant's whole asset chain.",
)


def default_resources() -> dict[str, dg.ConfigurableResource]:
    """Resources from the environment: RAAG_DATABASE_URL, RAAG_EMBED_MODEL, RAAG_SPACY_MODEL,
    RAAG_MAX_FILE_MB."""
    return {
        # An empty URL means RAAG_DATABASE_URL, else the embedded server, read at connect time
        # (so the CLI, which uses these resources outside a run too, sees the same database).
        "postgres": PostgresResource(),
        "embedder": EmbedderResource(model=os.environ.get("RAAG_EMBED_MODEL", "all-MiniLM-L6-v2")),
        "nlp": SpacyResource(model=os.environ.get("RAAG_SPACY_MODEL", "en_core_web_sm")),
        "landing": LandingResource(max_file_mb=float(os.environ.get("RAAG_MAX_FILE_MB", 50))),
    }


def build_defs(resources: dict[str, dg.ConfigurableResource]) -> dg.Definitions:
    from raag_assets.automation import (
        landing_sensor_for,
        resolve_references_job,
        retry_parked_references,
    )

    return dg.Definitions(
        assets=ingest_assets,
        jobs=[ingest_tenant, resolve_references_job],
        sensors=[landing_sensor_for(ingest_tenant)],
        schedules=[retry_parked_references],
        resources=resources,
    )


defs = build_defs(default_resources())


def ingest_job(executor: str = "in_process") -> dg.JobDefinition:
    """The ingest job on the given executor, for runs that cross process boundaries
    (`dg.build_reconstructable_job("raag_assets.definitions", "ingest_job", ...)`)."""
    job = build_defs(default_resources()).resolve_job_def("ingest_tenant")
    if executor == "in_process":
        return job
    multi = dg.define_asset_job(
        "ingest_tenant",
        selection=dg.AssetSelection.assets(*ingest_assets),
        partitions_def=tenants,
        executor_def=dg.multiprocess_executor,
    )
    defs = dg.Definitions(assets=ingest_assets, jobs=[multi], resources=default_resources())
    return defs.resolve_job_def("ingest_tenant")
