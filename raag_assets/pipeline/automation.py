"""Unattended reindexing: a sensor on the landing folders and a schedule that retries parked
references, both running by default and starting runs of the same jobs `raag ingest` runs; and
a sensor that records every failed run in the store, for `raag failures`."""

import datetime as dt
import json
import os
from typing import TYPE_CHECKING

import dagster as dg

from raag_assets.pipeline.assets.documents import LANDING_STATE, documents
from raag_assets.pipeline.assets.resolved_references import resolved_references
from raag_assets.pipeline.executor import tenant_locked
from raag_assets.pipeline.partitions import TENANTS, tenants
from raag_assets.pipeline.run import root_cause
from raag_assets.store.runs import record_run_failure
from resources import LandingResource, PostgresResource

if TYPE_CHECKING:  # what define_asset_job returns; Dagster does not export the name
    from dagster._core.definitions.unresolved_asset_job_definition import (
        UnresolvedAssetJobDefinition,
    )

resolve_references_job = dg.define_asset_job(
    "resolve_references",
    selection=dg.AssetSelection.assets(resolved_references),
    partitions_def=tenants,
    # one step: a process of its own would only cost; the run holds its tenant's ingest lock
    executor_def=tenant_locked(dg.in_process_executor, "tenant_locked_in_process"),
    description="Layer 3 again for one tenant: retry the references still parked.",
)


def default_status(variable: str) -> dg.DefaultSensorStatus:
    """Running, unless the environment variable says `stopped` (a deployment, or a test, that
    starts runs only itself)."""
    if os.environ.get(variable, "running") == "stopped":
        return dg.DefaultSensorStatus.STOPPED
    return dg.DefaultSensorStatus.RUNNING


def landing_sensor_for(job: "UnresolvedAssetJobDefinition") -> dg.SensorDefinition:
    @dg.sensor(
        name="landing_sensor",
        job=job,
        minimum_interval_seconds=30,
        default_status=default_status("RAAG_LANDING_SENSOR"),
        description="Watches each tenant's landing folder; registers new tenants and runs the "
        "ingest job for tenants whose files were added, changed or removed.",
    )
    def landing_sensor(
        context: dg.SensorEvaluationContext, landing: LandingResource
    ) -> dg.SensorResult | dg.SkipReason:
        seen = json.loads(context.cursor) if context.cursor else {}
        current = landing.fingerprints()
        known = set(context.instance.get_dynamic_partitions(TENANTS))
        new_tenants = sorted(set(current) - known)
        unseen = [t for t, fp in sorted(current.items()) if seen.get(t) != fp]
        covered = covered_states(context.instance, unseen)
        changed = [t for t in unseen if covered.get(t) != current[t]]
        cursor = json.dumps(current, sort_keys=True)
        if not changed and not new_tenants:
            skip = f"no change in {len(current)} landing folders"
            if seen == current:
                return dg.SkipReason(skip)
            # Remember the states an ingest covered too: otherwise each tick looks every such
            # tenant up in the event log again (1,000 tenants: a query each, every 30 s).
            return dg.SensorResult(skip_reason=skip, cursor=cursor)
        return dg.SensorResult(
            run_requests=[
                # run_key: one run per tenant per state of its folder, never two for a change
                dg.RunRequest(partition_key=t, run_key=f"{t}:{current[t]}")
                for t in changed
            ],
            dynamic_partitions_requests=(
                [tenants.build_add_request(new_tenants)] if new_tenants else []
            ),
            cursor=cursor,
        )

    return landing_sensor


def covered_states(instance: dg.DagsterInstance, tenants: list[str]) -> dict[str, str]:
    """covered_state() of many tenants in two event-log queries, not one per tenant (a first
    tick over 1,000 folders spent 4 to 6 s on them): the latest materialisation of each
    partition, then those records."""
    if not tenants:
        return {}
    latest = instance.event_log_storage.get_latest_storage_id_by_partition(
        documents.key, dg.DagsterEventType.ASSET_MATERIALIZATION, set(tenants)
    )
    if not latest:
        return {}
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=documents.key, storage_ids=list(latest.values())),
        limit=len(latest),
    ).records
    out = {}
    for record in records:
        mat = record.asset_materialization
        value = mat.metadata.get(LANDING_STATE) if mat is not None else None
        if mat is not None and mat.partition and isinstance(value, dg.TextMetadataValue):
            out[mat.partition] = value.value
    return out


def covered_state(instance: dg.DagsterInstance, tenant: str) -> str | None:
    """The landing state the tenant's latest `documents` materialisation read (a `raag
    ingest` of the same files, say), if any: that state needs no run of its own."""
    return covering_run(instance, tenant)[0]


def covering_run(instance: dg.DagsterInstance, tenant: str) -> tuple[str | None, str | None]:
    """The landing state the tenant's latest `documents` materialisation read, and its run."""
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=documents.key, asset_partitions=[tenant]), limit=1
    ).records
    if not records or records[0].asset_materialization is None:
        return None, None
    value = records[0].asset_materialization.metadata.get(LANDING_STATE)
    state = value.value if isinstance(value, dg.TextMetadataValue) else None
    return state, records[0].run_id


@dg.schedule(
    name="retry_parked_references",
    cron_schedule="0 3 * * *",
    job=resolve_references_job,
    # on from the start, as the README says (RAAG_RETRY_SCHEDULE=stopped turns it off)
    default_status=(
        dg.DefaultScheduleStatus.STOPPED
        if default_status("RAAG_RETRY_SCHEDULE") == dg.DefaultSensorStatus.STOPPED
        else dg.DefaultScheduleStatus.RUNNING
    ),
    description="Nightly: re-run resolved_references for every tenant, so references parked "
    "before their target arrived are retried.",
)
def retry_parked_references(context: dg.ScheduleEvaluationContext) -> list[dg.RunRequest]:
    day = context.scheduled_execution_time.strftime("%Y-%m-%d")
    return [
        dg.RunRequest(partition_key=t, run_key=f"{t}:{day}")
        for t in sorted(context.instance.get_dynamic_partitions(TENANTS))
    ]


@dg.run_failure_sensor(
    name="record_run_failures",
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=30,
    description="Records each failed run (its job, tenant, failed steps and the error under "
    "Dagster's wrappers) in the store's run_failures table: `raag failures` lists them.",
)
def record_run_failures(context: dg.RunFailureSensorContext, postgres: PostgresResource) -> None:
    run = context.dagster_run
    steps = sorted({e.step_key for e in context.get_step_failure_events() if e.step_key})
    errors = [
        root_cause(e.step_failure_data.error)
        for e in context.get_step_failure_events()
        if e.step_failure_data.error is not None
    ]
    with postgres.connect() as conn:
        record_run_failure(
            conn,
            run.run_id,
            run.job_name,
            run.tags.get("dagster/partition"),
            failed_at(context),
            steps,
            "; ".join(errors) or context.failure_event.message or "run failed",
        )


def failed_at(context: dg.RunFailureSensorContext) -> dt.datetime:
    """When the run failed: its failure event's time, else now."""
    record = context.instance.get_run_record_by_id(context.dagster_run.run_id)
    end = record.end_time if record is not None else None
    return dt.datetime.fromtimestamp(end, dt.UTC) if end else dt.datetime.now(dt.UTC)
