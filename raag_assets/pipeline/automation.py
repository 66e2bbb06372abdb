"""Unattended reindexing: a sensor on the landing folders and a schedule that retries parked
references. Both start runs of the same `ingest_tenant` job `raag ingest` runs."""

import json
import os
from typing import TYPE_CHECKING

import dagster as dg

from raag_assets.pipeline.assets.documents import LANDING_STATE, documents
from raag_assets.pipeline.assets.resolved_references import resolved_references
from raag_assets.pipeline.partitions import TENANTS, tenants
from resources import LandingResource

if TYPE_CHECKING:  # what define_asset_job returns; Dagster does not export the name
    from dagster._core.definitions.unresolved_asset_job_definition import (
        UnresolvedAssetJobDefinition,
    )

resolve_references_job = dg.define_asset_job(
    "resolve_references",
    selection=dg.AssetSelection.assets(resolved_references),
    partitions_def=tenants,
    executor_def=dg.in_process_executor,  # one step: a process of its own would only cost
    description="Layer 3 again for one tenant: retry the references still parked.",
)


def landing_sensor_for(job: "UnresolvedAssetJobDefinition") -> dg.SensorDefinition:
    @dg.sensor(
        name="landing_sensor",
        job=job,
        minimum_interval_seconds=30,
        # RAAG_LANDING_SENSOR=stopped: a deployment (or a test) that starts runs only itself
        default_status=(
            dg.DefaultSensorStatus.STOPPED
            if os.environ.get("RAAG_LANDING_SENSOR", "running") == "stopped"
            else dg.DefaultSensorStatus.RUNNING
        ),
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
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=documents.key, asset_partitions=[tenant]), limit=1
    ).records
    if not records or records[0].asset_materialization is None:
        return None
    value = records[0].asset_materialization.metadata.get(LANDING_STATE)
    return value.value if isinstance(value, dg.TextMetadataValue) else None


@dg.schedule(
    name="retry_parked_references",
    cron_schedule="0 3 * * *",
    job=resolve_references_job,
    description="Nightly: re-run resolved_references for every tenant, so references parked "
    "before their target arrived are retried.",
)
def retry_parked_references(context: dg.ScheduleEvaluationContext) -> list[dg.RunRequest]:
    day = context.scheduled_execution_time.strftime("%Y-%m-%d")
    return [
        dg.RunRequest(partition_key=t, run_key=f"{t}:{day}")
        for t in sorted(context.instance.get_dynamic_partitions(TENANTS))
    ]
