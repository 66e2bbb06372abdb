"""Executors that make every run of a tenant hold the tenant's ingest lock (the Postgres
advisory lock `raag ingest` takes) for its whole execution: a run the daemon starts (the
landing sensor, the nightly schedule, the UI's Materialize, a backfill) and a `raag ingest`
of the same tenant take turns. The run queue keeps two queued runs of one tenant apart; this
keeps a queued run and a `raag ingest`, which runs outside the queue, apart too."""

from collections.abc import Iterator
from typing import Any

import dagster as dg

from raag_assets.store import db

# raag's in-process executor (definitions.IN_PROCESS_EXECUTOR), and every executor that runs a
# run's steps one after another in the run's process: raag's and Dagster's own
# (dg.materialize's, execute_in_process's).
TENANT_LOCKED_IN_PROCESS = "tenant_locked_in_process"
IN_PROCESS_EXECUTORS = ("in_process", TENANT_LOCKED_IN_PROCESS, "execute_in_process_executor")

# Run tag: the process that launched the run already holds the tenant's lock (`raag ingest`
# takes it before landing the files), so the run must not wait for it a second time.
LOCK_HELD = "raag/tenant_lock_held"
PARTITION = "dagster/partition"


class TenantLocked(dg.Executor):
    """Another executor's steps, run while this process holds the run's tenant lock."""

    def __init__(self, inner: dg.Executor):
        self.inner = inner

    @property
    def retries(self) -> Any:
        return self.inner.retries

    @property
    def step_dependency_config(self) -> Any:
        return self.inner.step_dependency_config

    def execute(self, plan_context: Any, execution_plan: Any) -> Iterator[dg.DagsterEvent]:
        tags = plan_context.dagster_run.tags
        tenant = tags.get(PARTITION)
        if tenant is None or tags.get(LOCK_HELD):
            yield from self.inner.execute(plan_context, execution_plan)
            return

        def waiting() -> None:
            plan_context.log.info(f"another ingest of tenant {tenant!r} is running: waiting")

        # the database of the environment, as the run's default resources use (RAAG_DATABASE_URL,
        # else the embedded server under RAAG_HOME); the server frees the lock if we die
        with db.connect() as conn, db.tenant_ingest_lock(conn, tenant, waiting):
            yield from self.inner.execute(plan_context, execution_plan)


def tenant_locked(inner: dg.ExecutorDefinition, name: str) -> dg.ExecutorDefinition:
    """`inner` with the same config and requirements, its runs holding their tenant's lock."""
    creation = inner.executor_creation_fn
    if creation is None:
        raise ValueError(f"executor {inner.name!r} has no creation function to wrap")
    return dg.ExecutorDefinition(
        name=name,
        config_schema=inner.config_schema.as_field(),
        requirements=inner.get_requirements,
        executor_creation_fn=lambda context: TenantLocked(creation(context)),
        description=f"{inner.name}, each run holding its tenant's ingest lock",
    )
