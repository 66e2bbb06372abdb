"""Ingest cost per stage and retrieve() latency, on the licence texts and the example corpus.

Prints figures, asserts nothing: a benchmark, not a test. Baselines run in the same process:
- raw embedding: the model alone on exactly the chunks ingest stored, so the ingest/raw ratio
  shows what parsing, sectioning, storage and Dagster add on top of the unavoidable part;
  and on the distinct texts among them, which is what ingest embeds (each text once);
  ingest runs as a user runs it: `raag ingest` in a fresh process, on a persistent instance,
  with the executor this machine gets by default (`executor_for`), so Python's start, the
  imports and both models' loading are counted in the ingest time;
- the same ingest with each step in a process of its own (RAAG_EXECUTOR=multiprocess, a
  forkserver loading the models), and with every step in this process one after another,
  the model already loaded here, for the executor comparison;
- a run as the daemon launches it (the landing sensor's, the UI's Materialize): the files
  landed, then a fresh process executing the job through the executor named, in_process
  (the default on two cores) and multiprocess;
- re-ingest with nothing changed, which should cost a small fraction of the first ingest (no
  run is launched), and the same forced through a run.
Beside the wall-clock ratios, the CPU time (user + sys, every thread; Postgres's own not
counted) of the same work: on a machine others share, wall time follows their load, CPU time
much less (torch's waiting threads still spin more under load).

Run: make bench   (or .venv/bin/python benchmarks/bench_ingest_search.py)
"""

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
# The step processes' forkserver imports this module again: it must find the same home.
HOME = Path(os.environ.get("RAAG_BENCH_HOME") or tempfile.mkdtemp(prefix="raag-bench-"))
os.environ["RAAG_BENCH_HOME"] = os.environ["RAAG_HOME"] = str(HOME)
os.environ["RAAG_STEP_LOG"] = str(HOME / "steps.log")  # step processes' console output
os.environ.pop("RAAG_DATABASE_URL", None)
os.environ.pop("DAGSTER_HOME", None)

import dagster as dg  # noqa: E402

from raag_assets.core.settings import run_executor  # noqa: E402
from raag_assets.definitions import default_resources  # noqa: E402
from raag_assets.ingest.embedding import shared_embedder  # noqa: E402
from raag_assets.pipeline.run import (  # noqa: E402
    ingest,
    land,
    register_tenant,
    store_resources,
)
from raag_assets.retrieval.candidates import RetrievalPlan, retrieve  # noqa: E402
from raag_assets.store import db  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LICENSES = Path("/usr/share/common-licenses")
CORPUS = sorted(p for p in LICENSES.iterdir() if p.is_file() and not p.is_symlink())
QUERIES = [
    "What counts as the source code of a work?",
    "Can I distribute modified versions?",
    "What happens when the license is terminated?",
    "patent license granted by contributors",
    "disclaimer of warranty",
    "limitation of liability for damages",
    "How do I apply these terms to my program?",
    "Is a larger work covered by the license?",
    "translation of the document",
    "How many days of annual leave do full-time employees get?",
    "Who approves working from home?",
    "carry over unused leave",
    "maternity leave entitlement",
    "What is a Line Manager?",
    "equipment provided for remote work",
    "expense claims approval",
]
TENANT = "bench"


def step_seconds(instance: dg.DagsterInstance, run_id: str) -> dict[str, float]:
    """Wall time of each step (asset) of a run, from its event log."""
    starts: dict[str, float] = {}
    out: dict[str, float] = {}
    for record in instance.all_logs(run_id):
        event = record.dagster_event
        if event is None or event.step_key is None:
            continue
        if event.event_type == dg.DagsterEventType.STEP_START:
            starts[event.step_key] = record.timestamp
        elif event.event_type == dg.DagsterEventType.STEP_SUCCESS:
            out[event.step_key] = record.timestamp - starts[event.step_key]
    return out


def timeline(instance: dg.DagsterInstance, run_id: str, began: float) -> list[str]:
    """When the run and each step's process started and ended, in seconds from `began`
    (the wall clock when ingest() was called): where the time outside the stages goes."""
    kinds = {
        dg.DagsterEventType.RUN_START: "run start",
        dg.DagsterEventType.STEP_WORKER_STARTING: "worker starting",
        dg.DagsterEventType.STEP_START: "start",
        dg.DagsterEventType.STEP_SUCCESS: "done",
        dg.DagsterEventType.RUN_SUCCESS: "run success",
    }
    lines = []
    for record in instance.all_logs(run_id):
        event = record.dagster_event
        if event is not None and event.event_type in kinds:
            who = event.step_key or ""
            lines.append(f"{record.timestamp - began:7.2f} s  {who} {kinds[event.event_type]}")
    return lines


def children_cpu() -> float:
    """User + sys CPU seconds of this process's finished children (the `raag ingest` process)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# What the daemon's run worker does (`dagster api execute_run`): a fresh process that loads
# the code location and executes the tenant's run through the job's executor.
LAUNCHED_RUN = """
import sys
import dagster as dg
job = dg.build_reconstructable_job(
    "raag_assets.definitions", "ingest_job", reconstructable_kwargs={"executor": sys.argv[2]}
)
with dg.execute_job(
    job, instance=dg.DagsterInstance.get(), tags={"dagster/partition": sys.argv[1]}
) as result:
    sys.exit(0 if result.success else 1)
"""


def daemon_run(
    paths: list[Path], tenant: str, executor: str, instance: dg.DagsterInstance
) -> tuple[float, bool]:
    """The files landed and the tenant registered here, then its run in a fresh process, as
    the daemon launches one (the landing sensor's run, the UI's Materialize): seconds, ok."""
    resources = default_resources()
    postgres, landing = store_resources(resources)
    register_tenant(tenant, postgres, instance)
    land(paths, landing.tenant_dir(tenant))
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", LAUNCHED_RUN, tenant, executor],
        env={**os.environ, "DAGSTER_HOME": str(HOME / "dagster")},
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - started, done.returncode == 0


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main() -> None:
    (HOME / "dagster").mkdir()
    instance = dg.DagsterInstance.local_temp(str(HOME / "dagster"))
    started = time.perf_counter()
    with db.connect():
        pass
    print(f"embedded Postgres start + migrate: {time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    embedder = shared_embedder("all-MiniLM-L6-v2", 32)
    embedder.embed(["warm up"])
    print(f"model load: {time.perf_counter() - started:.2f} s")

    paths = [*CORPUS, ROOT / "examples"]
    began = time.time()
    cpu_before = children_cpu()
    started = time.perf_counter()
    cli = subprocess.run(
        [str(Path(sys.executable).parent / "raag"), "ingest", *map(str, paths)]
        + ["--tenant", TENANT, "--json"],
        env={**os.environ, "DAGSTER_HOME": str(HOME / "dagster")},
        capture_output=True,
        text=True,
        check=True,
    )
    ingest_s = time.perf_counter() - started
    ingest_cpu = children_cpu() - cpu_before
    first = json.loads(cli.stdout)
    c = {k: first[k] for k in ("documents", "sections", "chunks")}
    chosen = run_executor()
    print(
        f"\n`raag ingest` (fresh process, {chosen} executor): {c['documents']} documents, "
        f"{c['sections']} sections, {c['chunks']} chunks in {ingest_s:.2f} s "
        f"({len(first['skipped'])} skipped; load average {os.getloadavg()[0]:.2f}); "
        f"CPU {ingest_cpu:.2f} s"
    )
    steps = step_seconds(instance, first["run_id"])
    print(f"{'stage':<12} {'seconds':>8} {'sections/s':>11} {'chunks/s':>9}")
    for step, seconds in steps.items():
        print(
            f"{step:<12} {seconds:>8.2f} {c['sections'] / seconds:>11.1f} "
            f"{c['chunks'] / seconds:>9.1f}"
        )
    print("timeline (s from the command's start):")
    print("\n".join("  " + line for line in timeline(instance, first["run_id"], began)))

    with db.connect() as conn:
        texts = [
            r[0]
            for r in conn.execute(
                "SELECT content FROM chunks WHERE tenant_id = %s ORDER BY doc_id, chunk_index",
                [TENANT],
            )
        ]
    cpu = time.process_time()
    started = time.perf_counter()
    embedder.embed(texts)
    raw_s = time.perf_counter() - started
    raw_cpu = time.process_time() - cpu
    print(
        f"\nbaseline, model alone on the same {len(texts)} chunks: {raw_s:.2f} s "
        f"({len(texts) / raw_s:.1f} chunks/s; load average {os.getloadavg()[0]:.2f}); "
        f"CPU {raw_cpu:.2f} s"
    )
    # ingest embeds each distinct text once (store.documents.embedding_batches): the model
    # alone on those too, so the ratios show what dedup saves and what the rest still adds
    distinct = sorted(set(texts))
    started = time.perf_counter()
    embedder.embed(distinct)
    distinct_s = time.perf_counter() - started
    print(f"the model alone on the {len(distinct)} distinct texts among them: {distinct_s:.2f} s")
    print(
        f"ingest / raw embedding: {ingest_s / raw_s:.2f}x (CPU time: {ingest_cpu / raw_cpu:.2f}x); "
        f"against the distinct texts {ingest_s / distinct_s:.2f}x"
    )
    # steps overlap: what the other stages add is the ingest time beyond the embeddings step
    beyond = ingest_s - steps["embeddings"]
    print(f"ingest time beyond the embeddings step: {beyond:.2f} s ({beyond / ingest_s:.1%})")

    for executor in ("in_process", "multiprocess"):
        seconds, success = daemon_run(
            paths, f"{TENANT}-launched-{executor.replace('_', '-')}", executor, instance
        )
        assert success, f"the launched {executor} run failed"
        print(
            f"\na run as the daemon launches it ({executor} executor, a fresh process executing "
            f"the job): {seconds:.2f} s, {seconds / raw_s:.2f}x the model alone, "
            f"{seconds / distinct_s:.2f}x on the distinct texts "
            f"(load average {os.getloadavg()[0]:.2f})"
        )

    loaded = "steps one after another in this process (model loaded)"
    per_step = "each step in a process of its own (forkserver loads the models)"
    for n, (executor, prefetch, how) in enumerate(
        (
            ("multiprocess", "auto", per_step),
            # alternated: the embeddings started by the sections step (prefetch), and not
            ("in_process", "auto", loaded),
            ("in_process", "off", f"{loaded}, RAAG_EMBED_PREFETCH=off"),
            ("in_process", "auto", loaded),
            ("in_process", "off", f"{loaded}, RAAG_EMBED_PREFETCH=off"),
        )
    ):
        os.environ["RAAG_EXECUTOR"] = executor
        os.environ["RAAG_EMBED_PREFETCH"] = prefetch
        cpu = time.process_time()
        started = time.perf_counter()
        other = ingest(paths, f"{TENANT}-{executor.replace('_', '-')}-{n}", instance=instance)
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu
        os.environ.pop("RAAG_EXECUTOR")
        os.environ.pop("RAAG_EMBED_PREFETCH")
        assert other.success, other.error
        # step processes are the forkserver's children, not this process's: no CPU figure
        here = f"CPU {cpu:.2f} s, {cpu / raw_cpu:.2f}x; " if executor == "in_process" else ""
        print(
            f"\nthe same ingest, {how}: {seconds:.2f} s, {seconds / raw_s:.2f}x the model alone "
            f"({seconds / distinct_s:.2f}x on the distinct texts; {here}load "
            f"average {os.getloadavg()[0]:.2f})"
        )
        steps_other = step_seconds(instance, other.run_id)
        print("  " + ", ".join(f"{k} {v:.2f}" for k, v in steps_other.items()))
        ahead = other.stages["embeddings"]["embedded_ahead"]
        print(f"  texts embedded while the graph stages ran (prefetch): {ahead}")

    started = time.perf_counter()
    again = ingest(paths, TENANT, instance=instance)
    again_s = time.perf_counter() - started
    assert again.up_to_date, "nothing changed, yet a run was launched"
    print(
        f"\nre-ingest, nothing changed: {again_s:.2f} s ({again_s / ingest_s:.1%} of the first); "
        "up to date, no run launched"
    )
    started = time.perf_counter()
    forced = ingest(paths, TENANT, instance=instance, force=True)
    forced_s = time.perf_counter() - started
    print(
        f"the same, forced (--force: a run whose stages find nothing to do): {forced_s:.2f} s "
        f"({forced_s / ingest_s:.1%}); re-embedded {forced.stages['embeddings']['embedded_now']}"
    )

    latencies: dict[str, list[float]] = {"hybrid": [], "vector": [], "fulltext": []}
    with db.connect() as conn:
        for mode, times in latencies.items():
            plan = RetrievalPlan(mode=mode)  # type: ignore[arg-type]
            for query in QUERIES:
                retrieve(conn, query, TENANT, embedder.embed, plan)  # warm
            for _ in range(5):
                for query in QUERIES:
                    started = time.perf_counter()
                    retrieve(conn, query, TENANT, embedder.embed, plan)
                    times.append((time.perf_counter() - started) * 1000)
    print(f"\nretrieve(), warm, {len(QUERIES)} queries x 5, {c['chunks']} chunks in the tenant")
    print(f"{'mode':<9} {'p50 ms':>7} {'p95 ms':>7}")
    for mode, times in latencies.items():
        print(f"{mode:<9} {percentile(times, 50):>7.1f} {percentile(times, 95):>7.1f}")
    started = time.perf_counter()
    for query in QUERIES:
        embedder.embed([query])
    embed_ms = (time.perf_counter() - started) * 1000 / len(QUERIES)
    print(f"(of which query embedding: {embed_ms:.1f} ms per query)")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(HOME, ignore_errors=True)
