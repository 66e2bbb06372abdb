"""The code location: every stage's assets, the resources, and the tenant ingest job."""

import os

import dagster as dg

from raag_assets.core.settings import run_executor, step_concurrency
from raag_assets.pipeline.assets.documents import documents
from raag_assets.pipeline.assets.edges import edges
from raag_assets.pipeline.assets.embeddings import embeddings
from raag_assets.pipeline.assets.resolved_references import resolved_references
from raag_assets.pipeline.assets.sections import sections
from raag_assets.pipeline.assets.term_uses import term_uses
from raag_assets.pipeline.assets.topic_links import topic_links
from raag_assets.pipeline.executor import TENANT_LOCKED_IN_PROCESS, tenant_locked
from raag_assets.pipeline.partitions import tenants
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

# Each step in a process of its own, forked from a server that has imported the stages and
# loaded the embedding model once (raag_assets/preload.py); the graph stages (spaCy) run
# beside the embeddings (torch) where there are cores for both (`step_concurrency`).
# Measured earlier cold on the licences + examples corpus on a loaded 2-core machine, model
# loading counted: 76 and 139 s, against 134 and 145 s with every step in one process and
# 128 s with spawned step processes that each load their own models
# (benchmarks/bench_ingest_search.py prints the current figures and the run's timeline).
# The executor's full list: it puts its own module first (raag_assets.pipeline.run starts the same
# server before the run is launched, and a running server is reused only as it was started).
PRELOAD_MODULES = ["dagster._core.executor.multiprocess", "raag_assets.pipeline.preload"]


# Each run of a tenant holds the tenant's ingest lock while its steps run (executor.py).
STEP_EXECUTOR = tenant_locked(dg.multiprocess_executor, "tenant_locked_multiprocess").configured(
    {
        "start_method": {"forkserver": {"preload_modules": PRELOAD_MODULES}},
        "max_concurrent": step_concurrency(),
    },
    name="forkserver_multiprocess",
)
IN_PROCESS_EXECUTOR = tenant_locked(dg.in_process_executor, TENANT_LOCKED_IN_PROCESS)


def step_executor(kind: str | None = None) -> dg.ExecutorDefinition:
    """The executor of the ingest runs: `kind`, else `executor_for` (RAAG_EXECUTOR, else step
    processes only where there are cores for two steps at once). A run the daemon or the UI
    launches gets the same choice as `raag ingest`: on two cores its steps run one after
    another in the run's process, the embedding model loading in its worker meanwhile."""
    kind = kind or run_executor()
    return STEP_EXECUTOR if kind == "multiprocess" else IN_PROCESS_EXECUTOR


# Its executor is the Definitions' (`build_defs`), as for the UI's Materialize.
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


def build_defs(
    resources: dict[str, dg.ConfigurableResource], executor: str | None = None
) -> dg.Definitions:
    from raag_assets.pipeline.automation import (
        landing_sensor_for,
        record_run_failures,
        resolve_references_job,
        retry_parked_references,
    )

    return dg.Definitions(
        assets=ingest_assets,
        jobs=[ingest_tenant, resolve_references_job],
        sensors=[landing_sensor_for(ingest_tenant), record_run_failures],
        schedules=[retry_parked_references],
        resources=resources,
        executor=step_executor(executor),  # also for the UI's Materialize (the implicit job)
    )


defs = build_defs(default_resources())


def resources_config(resources: dict[str, dg.ConfigurableResource]) -> dict[str, dict]:
    """Each resource's class and field values, JSON-able: how a step process rebuilds the
    caller's resources (a test's database, say) instead of the environment's."""
    return {
        key: {
            "class": type(r).__name__,
            "config": {name: getattr(r, name) for name in type(r).model_fields},
        }
        for key, r in sorted(resources.items())
    }


def resources_from_config(config: dict[str, dict]) -> dict[str, dg.ConfigurableResource]:
    import resources as module

    return {key: getattr(module, c["class"])(**c["config"]) for key, c in config.items()}


def ingest_job(
    resources: dict[str, dict] | None = None,
    name: str = "ingest_tenant",
    executor: str | None = None,
) -> dg.JobDefinition:
    """The ingest job (or another job `name` of the location) with the given resources
    (`resources_config`) and executor (`step_executor`), for runs whose steps run in processes
    of their own: `dg.build_reconstructable_job("raag_assets.definitions", "ingest_job",
    reconstructable_kwargs={"resources": ..., "executor": "multiprocess"})`."""
    chosen = resources_from_config(resources) if resources else default_resources()
    return build_defs(chosen, executor).resolve_job_def(name)
