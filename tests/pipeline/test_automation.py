"""The landing sensor and the parked-reference schedule, evaluated as Dagster evaluates them."""

import datetime as dt
import json
import os
import shutil

import dagster as dg

from raag_assets.definitions import build_defs, default_resources
from raag_assets.pipeline.assets.documents import LANDING_STATE, documents
from raag_assets.pipeline.automation import covered_states
from raag_assets.pipeline.partitions import tenants
from resources import LandingResource
from tests.conftest import EXAMPLES


def _sensor_and_schedule(root):
    resources = {**default_resources(), "landing": LandingResource(root=str(root))}
    defs = build_defs(resources)
    return defs.resolve_sensor_def("landing_sensor"), defs


def test_landing_sensor_runs_only_changed_tenants_once(tmp_path):
    sensor, _ = _sensor_and_schedule(tmp_path)
    instance = dg.DagsterInstance.ephemeral()
    (tmp_path / "acme").mkdir()
    shutil.copy(EXAMPLES / "expenses.txt", tmp_path / "acme" / "expenses.txt")
    (tmp_path / "Not A Tenant; DROP").mkdir()  # ignored: not a valid tenant id
    (tmp_path / "Not A Tenant; DROP" / "x.md").write_text("# x\n")
    landing = LandingResource(root=str(tmp_path))

    def evaluate(cursor):
        ctx = dg.build_sensor_context(
            instance=instance, cursor=cursor, resources={"landing": landing}
        )
        return sensor(ctx)

    first = evaluate(None)
    assert [r.partition_key for r in first.run_requests] == ["acme"]
    assert first.dynamic_partitions_requests[0].partition_keys == ["acme"]
    instance.add_dynamic_partitions(tenants.name, ["acme"])

    again = evaluate(first.cursor)
    assert isinstance(again, dg.SkipReason)

    changed = tmp_path / "acme" / "expenses.txt"
    changed.write_text(changed.read_text() + "\nSection 5. Travel\n\nTravel is booked by HR.\n")
    os.utime(changed, ns=(10**18, 10**18))
    third = evaluate(first.cursor)
    assert [r.partition_key for r in third.run_requests] == ["acme"]
    assert third.run_requests[0].run_key != first.run_requests[0].run_key
    assert not third.dynamic_partitions_requests

    (tmp_path / "acme" / "expenses.txt").unlink()  # a removal is a change too
    assert [r.partition_key for r in evaluate(third.cursor).run_requests] == ["acme"]


def test_schedule_retries_every_tenant_once_a_day(tmp_path):
    _, defs = _sensor_and_schedule(tmp_path)
    schedule = defs.resolve_schedule_def("retry_parked_references")
    (tmp_path / "dagster").mkdir()
    instance = dg.DagsterInstance.local_temp(str(tmp_path / "dagster"))  # schedules need a ref
    instance.add_dynamic_partitions(tenants.name, ["b", "a"])
    ctx = dg.build_schedule_context(
        instance=instance,
        scheduled_execution_time=dt.datetime(2026, 11, 22, 3, 0),
        repository_def=defs.get_repository_def(),
    )
    requests = schedule.evaluate_tick(ctx).run_requests
    assert [(r.partition_key, r.run_key) for r in requests] == [
        ("a", "a:2026-11-22"),
        ("b", "b:2026-11-22"),
    ]


def test_downstream_stages_follow_an_upstream_partition_by_declarative_automation(
    make_store, tmp_path
):
    store = make_store()
    shutil.copy(EXAMPLES / "expenses.txt", tmp_path / "expenses.txt")
    assert store.ingest([tmp_path], "auto").success
    defs = build_defs(store.resources)
    first = dg.evaluate_automation_conditions(defs=defs, instance=store.instance)
    assert first.total_requested == 0  # everything is up to date

    # Someone re-materialises only `documents` for the tenant (say, from the UI).
    assert dg.materialize(
        [documents], partition_key="auto", resources=store.resources, instance=store.instance
    ).success
    second = dg.evaluate_automation_conditions(
        defs=defs, instance=store.instance, cursor=first.cursor
    )
    requested = {
        key.to_user_string(): second.get_requested_partitions(key)
        for key in (dg.AssetKey(name) for name in ("sections", "edges", "resolved_references"))
    }
    # the whole chain below it is requested for that tenant only, in one evaluation
    assert requested == {name: {"auto"} for name in requested}


def test_landing_sensor_skips_a_folder_state_an_ingest_already_covered(make_store, tmp_path):
    store = make_store()
    shutil.copy(EXAMPLES / "expenses.txt", tmp_path / "expenses.txt")
    assert store.ingest([tmp_path / "expenses.txt"], "covered").success
    sensor = build_defs(store.resources).resolve_sensor_def("landing_sensor")
    landing = store.resources["landing"]

    def evaluate(cursor):
        ctx = dg.build_sensor_context(
            instance=store.instance, cursor=cursor, resources={"landing": landing}
        )
        return sensor(ctx)

    # the sensor has never seen the folder, but `raag ingest` materialised this very state
    first = evaluate(None)
    assert first.skip_reason and not first.run_requests
    # and remembers it in its cursor, so the next tick asks the event log nothing: with the
    # materialisation gone from the log, the cursor alone still says the state was covered
    assert json.loads(first.cursor) == {"covered": landing.fingerprint("covered")}
    store.instance.wipe_assets([documents.key])
    assert isinstance(evaluate(first.cursor), dg.SkipReason)
    assert [r.partition_key for r in evaluate(None).run_requests] == ["covered"]
    # a file changed after that ingest is a state no run covered: one run for the tenant
    shutil.copy(EXAMPLES / "leave-policy.md", store.landing_root / "covered" / "leave-policy.md")
    second = evaluate(None)
    assert [r.partition_key for r in second.run_requests] == ["covered"]


def test_landing_sensor_reads_covered_states_in_one_event_log_query(tmp_path, monkeypatch):
    """With many tenant folders the sensor's first tick looked each tenant's latest
    `documents` materialisation up on its own (1,000 tenants: 4 to 6 s); one query now reads
    them all, and each tenant's answer is still its latest materialisation's."""
    sensor, _ = _sensor_and_schedule(tmp_path)
    instance = dg.DagsterInstance.ephemeral()
    landing = LandingResource(root=str(tmp_path))
    for n in range(12):
        (tmp_path / f"t{n:02d}").mkdir()
        (tmp_path / f"t{n:02d}" / "a.txt").write_text(f"Document {n}.\n")
    instance.add_dynamic_partitions(tenants.name, [f"t{n:02d}" for n in range(12)])

    def materialised(tenant: str, state: str) -> None:
        instance.report_runless_asset_event(
            dg.AssetMaterialization(
                documents.key, partition=tenant, metadata={LANDING_STATE: state}
            )
        )

    for n in range(12):  # every state covered by an ingest ...
        materialised(f"t{n:02d}", landing.fingerprint(f"t{n:02d}"))
    materialised("t03", "an-older-state")  # ... but t03's latest read another state
    assert covered_states(instance, ["t03", "t04"]) == {
        "t03": "an-older-state",
        "t04": landing.fingerprint("t04"),
    }
    reads = []
    fetch = instance.fetch_materializations
    monkeypatch.setattr(
        instance, "fetch_materializations", lambda *a, **k: reads.append(1) or fetch(*a, **k)
    )
    result = sensor(
        dg.build_sensor_context(instance=instance, cursor=None, resources={"landing": landing})
    )
    assert [r.partition_key for r in result.run_requests] == ["t03"]
    assert len(reads) == 1
