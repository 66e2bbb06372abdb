"""Runs the daemon starts take the tenant's ingest lock, as `raag ingest` does: a run of a
tenant waits while another process holds it, then goes on."""

import shutil
import threading
import time

import dagster as dg
import pytest

from raag_assets.definitions import resources_config
from raag_assets.store import db
from tests.conftest import EXAMPLES


def test_a_launched_run_waits_for_the_tenants_ingest_lock(make_store, monkeypatch, tmp_path):
    store = make_store()
    monkeypatch.setenv("RAAG_DATABASE_URL", store.url)  # the daemon's environment
    shutil.copy(EXAMPLES / "leave-policy.md", tmp_path / "leave-policy.md")
    assert store.ingest([tmp_path], "locked").success
    # the nightly schedule's job, launched as the daemon launches it: through its executor
    # (the `raag ingest` path runs in process and holds the lock itself)
    job = dg.build_reconstructable_job(
        "raag_assets.definitions",
        "ingest_job",
        reconstructable_kwargs={
            "resources": resources_config(store.resources),
            "name": "resolve_references",
        },
    )
    results: list[dg.ExecutionResult] = []

    def launch() -> None:
        with dg.execute_job(
            job, instance=store.instance, tags={"dagster/partition": "locked"}
        ) as result:
            results.append(result.success)

    with store.connect() as holder, db.tenant_ingest_lock(holder, "locked"):  # an ingest
        thread = threading.Thread(target=launch)
        thread.start()
        thread.join(timeout=8)
        assert thread.is_alive(), "the run did not wait for the tenant's ingest lock"
        assert not results
        (run,) = store.instance.get_runs(
            filters=dg.RunsFilter(
                job_name="resolve_references", tags={"dagster/partition": "locked"}
            )
        )
        assert run.status == dg.DagsterRunStatus.STARTED
        latest = store.instance.get_latest_materialization_event(dg.AssetKey("resolved_references"))
        assert latest is not None and latest.run_id != run.run_id
    started = time.monotonic()
    thread.join(timeout=120)
    assert not thread.is_alive() and results == [True]
    assert time.monotonic() - started < 120


def test_the_ingest_job_runs_its_steps_where_raag_ingest_would(monkeypatch, make_store):
    from raag_assets.definitions import build_defs, step_executor

    resources = make_store().resources
    # on two cores, as `raag ingest` does: one step after another in the run's process
    monkeypatch.setenv("RAAG_EXECUTOR", "in_process")
    job = build_defs(resources).resolve_job_def("ingest_tenant")
    assert job.executor_def.name == "tenant_locked_in_process"
    monkeypatch.setenv("RAAG_EXECUTOR", "multiprocess")
    job = build_defs(resources).resolve_job_def("ingest_tenant")
    assert job.executor_def.name == "forkserver_multiprocess"
    # asked for by name, whatever the environment says
    assert step_executor("in_process").name == "tenant_locked_in_process"
    monkeypatch.setenv("RAAG_EXECUTOR", "threads")
    with pytest.raises(ValueError, match="RAAG_EXECUTOR"):
        step_executor()
