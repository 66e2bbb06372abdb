"""Ingest a tenant: register it, land files, materialise its partition through Dagster.

`raag ingest` calls this; so will the landing-folder sensor. The work itself happens in the
assets; this module only prepares and reports.
"""

import contextlib
import datetime as dt
import filecmp
import gc
import os
import shutil
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dagster as dg

from raag_assets.core.errors import DocumentNotFound
from raag_assets.core.identity import canonical_json, doc_id_from_name, sha256_hex, validate_tenant
from raag_assets.core.settings import dagster_home, run_executor
from raag_assets.ingest.parsing import is_sidecar
from raag_assets.pipeline.assets.documents import UP_TO_DATE
from raag_assets.pipeline.executor import LOCK_HELD
from raag_assets.pipeline.partitions import TENANTS
from raag_assets.store import db
from raag_assets.store import documents as store
from raag_assets.store import graph as graph_store
from raag_assets.store.runs import record_run_failure
from resources import LandingResource, PostgresResource

# what an IngestSummary carries of each stage's metadata (tables and previews stay in the UI)
_PLAIN = (
    dg.IntMetadataValue,
    dg.FloatMetadataValue,
    dg.TextMetadataValue,
    dg.BoolMetadataValue,
    dg.JsonMetadataValue,
)
# The first line of a dagster.yaml raag wrote: only such a file is ever rewritten.
WRITTEN_BY_RAAG = "# written by raag: edit it and remove this line, and raag leaves it alone"
QUIET_RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


@dataclass
class IngestSummary:
    tenant: str
    landed: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)
    counts: dict[str, int] = field(default_factory=dict)
    stages: dict[str, dict[str, Any]] = field(default_factory=dict)  # asset -> its metadata
    checks: dict[str, bool] = field(default_factory=dict)  # "asset:check" -> passed
    run_id: str | None = None
    success: bool = True
    error: str | None = None
    interrupted: bool = False  # stopped by Ctrl-C (SIGINT) or SIGTERM
    up_to_date: bool = False  # nothing changed since the run `run_id`: no run was launched

    @property
    def ingested(self) -> list[str]:
        """The files of this ingest now stored: landed and not skipped."""
        skipped = {name for name, _ in self.skipped}
        return [name for name in self.landed if name not in skipped]

    def as_dict(self) -> dict[str, Any]:
        return {
            "tenant": self.tenant,
            "success": self.success,
            "error": self.error,
            "run_id": self.run_id,
            "up_to_date": self.up_to_date,
            "landed": self.landed,
            "ingested": self.ingested,
            **self.counts,
            "stages": self.stages,
            "checks": self.checks,
            "skipped": [{"file": f, "reason": r} for f, r in self.skipped],
        }


def local_instance() -> dg.DagsterInstance:
    """The persistent Dagster instance under DAGSTER_HOME (default RAAG_HOME/dagster), shared
    with `raag ui`. An existing dagster.yaml that raag did not write is used as it is;
    otherwise raag writes one. Its storage is SQLite, or with RAAG_DAGSTER_STORAGE=postgres the
    `dagster` database on raag's Postgres server (dagster-postgres). Its run queue runs one
    run per tenant at a time and RAAG_MAX_CONCURRENT_RUNS (default 4) in all."""
    home = dagster_home()
    home.mkdir(parents=True, exist_ok=True)
    config = f"{WRITTEN_BY_RAAG}\ntelemetry:\n  enabled: false\n" + run_queue_config()
    if os.environ.get("RAAG_DAGSTER_STORAGE", "sqlite") == "postgres":
        # The embedded server's address can change between starts: read from the environment.
        os.environ["RAAG_DAGSTER_PG_URL"] = db.dagster_storage_url()
        config += "storage:\n  postgres:\n    postgres_url:\n      env: RAAG_DAGSTER_PG_URL\n"
    path = home / "dagster.yaml"
    # A deployment's own dagster.yaml (deploy/, say: Postgres storage, a run launcher) is
    # never touched; only one raag wrote follows the settings above.
    if not path.exists() or (_raag_wrote(path) and path.read_text() != config):
        path.write_text(config)
    os.environ.setdefault("DAGSTER_HOME", str(home))
    return dg.DagsterInstance.get()


def _raag_wrote(path: Path) -> bool:
    with path.open(encoding="utf-8", errors="replace") as f:
        return f.readline().rstrip("\n") == WRITTEN_BY_RAAG


def run_queue_config(max_runs: int | None = None) -> str:
    """dagster.yaml's run queue: every run of ours is one tenant partition and carries its
    key in the `dagster/partition` tag, so a limit of 1 per unique value of that tag keeps
    two runs of one tenant (a backfill and a sensor run, say) from overlapping, while other
    tenants go on; the global limit keeps a large backfill from taking the machine."""
    limit = max_runs or int(os.environ.get("RAAG_MAX_CONCURRENT_RUNS", 4))
    return (
        "concurrency:\n"
        "  runs:\n"
        f"    max_concurrent_runs: {limit}\n"
        "    tag_concurrency_limits:\n"
        "      - key: dagster/partition\n"
        "        value:\n"
        "          applyLimitPerUniqueValue: true\n"
        "        limit: 1\n"
    )


def land(paths: Iterable[Path], folder: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """Copy files (folders recursively, in name order) into a tenant's landing folder.

    Returns the landed names and the refused ones with a reason. Only base names are used,
    so no path from the input can escape the folder.
    """
    folder.mkdir(parents=True, exist_ok=True)
    landed: list[str] = []
    refused: list[tuple[str, str]] = []
    sources: dict[str, Path] = {}
    for path in _expand(paths):
        name = path.name
        if not path.exists():
            refused.append((str(path), "no such file"))
        elif name.startswith("."):
            refused.append((str(path), "hidden file (name starts with '.')"))
        elif name in sources and sources[name] != path.resolve():
            refused.append(
                (
                    str(path),
                    f"another file named {name!r} was landed from "
                    f"{sources[name]}; rename one of them",
                )
            )
        else:
            sources[name] = path.resolve()
            target = folder / name
            if not (target.is_file() and filecmp.cmp(path, target, shallow=False)):
                shutil.copyfile(path, target)  # unchanged files keep their mtime
            if not is_sidecar(path):
                landed.append(name)
    return landed, refused


def _expand(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.is_file()))
        else:
            out.append(path)
    return out


def register_tenant(tenant: str, postgres: PostgresResource, instance: dg.DagsterInstance) -> None:
    """The tenant's Postgres partitions and its Dagster partition key."""
    validate_tenant(tenant)
    with postgres.connect() as conn:
        db.add_tenant(conn, tenant)
    if not instance.has_dynamic_partition(TENANTS, tenant):
        instance.add_dynamic_partitions(TENANTS, [tenant])


def store_resources(
    resources: Mapping[str, dg.ConfigurableResource],
) -> tuple[PostgresResource, LandingResource]:
    """The database and landing folders of a resource set (the environment's, or a test's)."""
    postgres, landing = resources["postgres"], resources["landing"]
    if not isinstance(postgres, PostgresResource) or not isinstance(landing, LandingResource):
        raise TypeError("resources need a PostgresResource 'postgres', a LandingResource 'landing'")
    return postgres, landing


def ingest(
    paths: Iterable[Path],
    tenant: str,
    *,
    resources: Mapping[str, dg.ConfigurableResource] | None = None,
    instance: dg.DagsterInstance | None = None,
    on_wait: Callable[[], None] | None = None,
    force: bool = False,
) -> IngestSummary:
    """Land `paths` for `tenant` and materialise its partition; summarise from the store.
    Ingests of one tenant take turns (a Postgres advisory lock per tenant); `on_wait` is
    called once if this one has to wait for another. When nothing changed since the last
    successful run (`up_to_date`) no run is launched, as the landing sensor launches none for
    a state a run covered; `force` runs it anyway."""
    validate_tenant(tenant)
    with fewer_collections():
        from raag_assets.definitions import default_resources

        resources = dict(resources or default_resources())
        instance = instance or local_instance()
        postgres, _ = store_resources(resources)
        # Another ingest of the tenant (another process, a cron job, a machine on the same
        # database) finishes first: landing, registering and the run all happen under the lock.
        with postgres.connect() as lock, db.tenant_ingest_lock(lock, tenant, on_wait):
            return _ingest_locked(paths, tenant, resources, instance, force)


# The youngest generation's threshold while an ingest runs (Python's default: 700 objects).
GC_THRESHOLD = 50_000


class _Collector:
    """Who is inside `fewer_collections`, and what to restore when the last one leaves."""

    lock = threading.Lock()
    inside = 0
    saved = gc.get_threshold()
    froze = False  # only what this module froze is unfrozen (a caller may freeze its own)


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """While an ingest runs, Python's cyclic garbage collector passes less often and leaves out
    what was alive before it (the imported modules, loaded models: half a million objects),
    which it would otherwise walk again on every full pass. A run allocates millions of
    objects (imports, spaCy's parses, Dagster's events): at the default threshold a fresh
    `raag ingest` made 9 full passes of 0.1-0.5 s each, 1.6-2.1 s of CPU, and a run with the
    models loaded one of 0.3-0.4 s; with this, 0.1 s and 0.05 s (`make bench`'s corpus).
    Memory the collector frees (reference cycles) is freed later, never lost: what was frozen
    goes back to it at the end (`gc.unfreeze`). Runs in several threads share one setting
    until the last one ends."""
    with _Collector.lock:
        if _Collector.inside == 0:
            _Collector.saved = gc.get_threshold()
            _Collector.froze = gc.get_freeze_count() == 0
            if _Collector.froze:
                gc.freeze()
            gc.set_threshold(max(GC_THRESHOLD, _Collector.saved[0]), *_Collector.saved[1:])
        _Collector.inside += 1
    try:
        yield
    finally:
        with _Collector.lock:
            _Collector.inside -= 1
            if _Collector.inside == 0:
                gc.set_threshold(*_Collector.saved)
                if _Collector.froze:
                    gc.unfreeze()


def _ingest_locked(
    paths: Iterable[Path],
    tenant: str,
    resources: dict[str, dg.ConfigurableResource],
    instance: dg.DagsterInstance,
    force: bool,
) -> IngestSummary:
    postgres, landing = store_resources(resources)
    register_tenant(tenant, postgres, instance)
    landed, refused = land(paths, landing.tenant_dir(tenant))
    summary = IngestSummary(tenant, landed=landed)
    covering = None if force else _up_to_date(tenant, resources, instance)
    if covering is not None:
        summary.run_id, summary.up_to_date = covering, True
        with postgres.connect() as conn:
            _stored(conn, summary, refused)
        return summary
    result = _execute(tenant, resources, instance)
    summary.run_id = result.run_id
    summary.stages = _stage_metadata(result)
    summary.checks = {
        f"{e.asset_key.to_user_string()}:{e.check_name}": e.passed
        for e in result.get_asset_check_evaluations()
    }
    summary.success = result.success
    summary.interrupted = not result.success and any(
        _interrupted(e) for e in _failure_events(result, instance)
    )
    if not result.success:
        failures = [e for e in result.all_events if e.is_step_failure]
        summary.error = (
            "; ".join(f"{e.step_key}: {root_cause(e.step_failure_data.error)}" for e in failures)
            or "run failed"
        )
    if result.success and all(summary.checks.values()):
        _record_up_to_date(tenant, resources, instance)
    with postgres.connect() as conn:
        _stored(conn, summary, refused)
        if summary.error and not summary.interrupted:  # where the daemon's sensor puts its own
            failed = sorted({e.step_key for e in result.all_events if e.is_step_failure})
            record_run_failure(
                conn, result.run_id, "ingest_tenant", tenant, _now(), failed, summary.error
            )
    return summary


def _stored(conn: Any, summary: IngestSummary, refused: list[tuple[str, str]]) -> None:
    """The summary's counts and skipped files, as the store holds them now."""
    summary.counts = store.tenant_summary(conn, summary.tenant)
    summary.skipped = refused + list(store.skipped_files(conn, summary.tenant))


def chain_state(
    landing: str, code_versions: Mapping[str, str | None], settings: Any, stages: Mapping[str, str]
) -> str:
    """One hash of what a tenant's ingest depends on: its landing folder's state, each
    stage's code version, the resources' settings (models, database, folders) and what each
    graph stage last computed from."""
    others = {k: v for k, v in stages.items() if k != UP_TO_DATE}
    return sha256_hex(canonical_json([landing, dict(code_versions), settings, others]))


def _current_state(
    tenant: str, resources: dict[str, dg.ConfigurableResource], instance: dg.DagsterInstance
) -> tuple[str, str | None, str | None]:
    """The tenant's chain state now, the one stored by its last successful ingest, and the run
    of its latest `documents` materialisation when that run read the landing state of now."""
    from raag_assets.definitions import ingest_assets, resources_config
    from raag_assets.pipeline.automation import covering_run

    postgres, landing = store_resources(resources)
    folder = landing.fingerprint(tenant)
    with postgres.connect() as conn:
        stages = graph_store.fingerprints(conn, tenant)
    versions = {
        k.to_user_string(): v for a in ingest_assets for k, v in a.code_versions_by_key.items()
    }
    state = chain_state(folder, versions, resources_config(resources), stages)
    read, run_id = covering_run(instance, tenant)
    return state, stages.get(UP_TO_DATE), run_id if read == folder else None


def _up_to_date(
    tenant: str, resources: dict[str, dg.ConfigurableResource], instance: dg.DagsterInstance
) -> str | None:
    """The run that left the tenant as it would be made now, if nothing changed since."""
    state, stored, run_id = _current_state(tenant, resources, instance)
    return run_id if run_id is not None and state == stored else None


def _record_up_to_date(
    tenant: str, resources: dict[str, dg.ConfigurableResource], instance: dg.DagsterInstance
) -> None:
    state, _, run_id = _current_state(tenant, resources, instance)
    if run_id is not None:  # the folder changed while the run read it: the next ingest runs
        postgres, _ = store_resources(resources)
        with postgres.connect() as conn:
            graph_store.set_fingerprint(conn, tenant, UP_TO_DATE, state)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _failure_events(result: Any, instance: dg.DagsterInstance) -> list[dg.DagsterEvent]:
    """The step failures of a run and its own failure (which execute_in_process's result
    leaves out: it is in the instance's event log)."""
    logged = instance.all_logs(
        result.run_id, of_type={dg.DagsterEventType.RUN_FAILURE, dg.DagsterEventType.RUN_CANCELED}
    )
    run_level = [r.dagster_event for r in logged if r.dagster_event is not None]
    return [e for e in result.all_events if e.is_failure] + run_level


def _interrupted(event: dg.DagsterEvent) -> bool:
    """A failure Dagster recorded for a run it stopped on SIGINT or SIGTERM."""
    error = getattr(event.event_specific_data, "error", None)
    while error is not None:
        if error.cls_name in ("DagsterExecutionInterruptedError", "KeyboardInterrupt"):
            return True
        error = error.cause
    return False


def root_cause(error: Any) -> str:
    """The first line of the error underneath Dagster's wrappers (a step failure's error is
    "Error occurred while executing op ...", its cause the database's or the parser's own)."""
    while error.cause is not None:
        error = error.cause
    lines = [line.strip() for line in error.message.strip().splitlines() if line.strip()]
    if not lines:
        return error.cls_name or "error"
    if lines[0].endswith(":"):  # a heading over what failed (a blocking check names its checks)
        return " ".join(lines[:4])
    return lines[0]


def _execute(
    tenant: str, resources: dict[str, dg.ConfigurableResource], instance: dg.DagsterInstance
) -> Any:
    """Run the tenant's ingest job. On a persistent instance (`raag ingest`) with cores for
    more than one step at a time its steps run in their own processes, graph stages beside
    embeddings; otherwise (`executor_for`) they run one after another here.
    """
    from raag_assets.definitions import build_defs, resources_config
    from raag_assets.pipeline.automation import covered_state

    postgres, landing = store_resources(resources)
    # A landing state a materialisation already read leaves every stage with nothing new to do
    # (at most a code-version re-run): loading both models into a forkserver would cost more.
    covered = covered_state(instance, tenant) == landing.fingerprint(tenant)
    executor = run_executor()
    if covered or instance.is_ephemeral or executor == "in_process":
        job = build_defs(resources).resolve_job_def("ingest_tenant")
        return job.execute_in_process(
            partition_key=tenant,
            instance=instance,
            run_config=QUIET_RUN_CONFIG,
            tags={LOCK_HELD: "true"},
            raise_on_error=False,
        )
    start_forkserver()
    # Step processes get this process's database and landing root, not what their
    # environment would make of empty settings.
    config = resources_config(resources)
    config["postgres"]["config"]["database_url"] = db.database_url(
        postgres.database_url or None, Path(postgres.home) if postgres.home else None
    )
    config["landing"]["config"]["root"] = str(landing.root_dir)
    recon = dg.build_reconstructable_job(
        "raag_assets.definitions",
        "ingest_job",
        reconstructable_kwargs={"resources": config, "executor": "multiprocess"},
    )
    return dg.execute_job(
        recon,
        instance=instance,
        run_config=QUIET_RUN_CONFIG,
        tags={"dagster/partition": tenant, LOCK_HELD: "true"},  # `ingest` holds the lock
        raise_on_error=False,
    )


def start_forkserver() -> None:
    """Start the step processes' forkserver now, as the executor would at its first step: its
    imports and model loading then overlap the run's launch instead of following it. It stays
    up for the life of this process, so a later run from it starts warm."""
    import multiprocessing
    from multiprocessing import forkserver

    from raag_assets.definitions import PRELOAD_MODULES

    multiprocessing.get_context("forkserver").set_forkserver_preload(PRELOAD_MODULES)
    forkserver.ensure_running()


def _stage_metadata(result: Any) -> dict[str, dict[str, Any]]:
    """Each materialised asset's numeric and text metadata (tables and previews left out)."""
    stages: dict[str, dict[str, Any]] = {}
    for event in result.get_asset_materialization_events():
        mat = event.step_materialization_data.materialization
        stages[mat.asset_key.to_user_string()] = {
            key: value.value for key, value in mat.metadata.items() if isinstance(value, _PLAIN)
        }
    return stages


def delete_document(
    tenant: str,
    doc_id: str,
    *,
    resources: Mapping[str, dg.ConfigurableResource] | None = None,
    instance: dg.DagsterInstance | None = None,
) -> IngestSummary:
    """Retract a document: remove its landed file (and sidecar), then re-materialise the
    tenant, which deletes its rows and edges and parks again the references that pointed to
    it. Nothing of other documents changes."""
    from raag_assets.definitions import default_resources

    validate_tenant(tenant)
    resources = dict(resources or default_resources())
    postgres, landing = store_resources(resources)
    with postgres.connect() as conn:
        db.require_tenant(conn, tenant)
        row = conn.execute(
            db.load_sql("select_document_source"), {"tenant": tenant, "doc_id": doc_id}
        ).fetchone()
    if row is None:
        raise DocumentNotFound(f"tenant {tenant!r} has no document {doc_id!r}: see `raag sections`")
    folder = landing.tenant_dir(tenant)
    source = folder / row[0]
    for path in (source, *_sidecars(source)):
        if path.parent == folder and path.is_file():
            path.unlink()
    return ingest([], tenant, resources=resources, instance=instance)


@dataclass(frozen=True)
class LandedFile:
    """A file in a tenant's landing folder and what the last run made of it."""

    name: str
    state: str  # "ingested", "refused" (reason given) or "pending" (landed after the last run)
    reason: str = ""
    stored: bool = False  # a stored document was read from it (refused now: its earlier text)

    @property
    def prunable(self) -> bool:
        """Refused, and no stored document depends on it (removing the file would retract it)."""
        return self.state == "refused" and not self.stored


def landing_states(
    names: Iterable[str], stored: Mapping[str, str], skipped: Mapping[str, str]
) -> list[LandedFile]:
    """Each landed document file's state, from the stored documents (doc_id -> the file it was
    read from) and the files the last run refused (file -> reason)."""
    sources = set(stored.values())
    out: list[LandedFile] = []
    for name in sorted(names):
        kept = name in sources or doc_id_from_name(name) in stored
        if name in skipped:
            out.append(LandedFile(name, "refused", skipped[name], stored=kept))
        elif name in sources:
            out.append(LandedFile(name, "ingested", stored=True))
        else:
            out.append(LandedFile(name, "pending"))
    return out


def landed_files(
    tenant: str, *, resources: Mapping[str, dg.ConfigurableResource] | None = None
) -> list[LandedFile]:
    """The tenant's landed files with their state (`raag landing`)."""
    from raag_assets.definitions import default_resources

    validate_tenant(tenant)
    postgres, landing = store_resources(dict(resources or default_resources()))
    with postgres.connect() as conn:
        if tenant not in db.tenants(conn) and not landing.tenant_dir(tenant).is_dir():
            db.require_tenant(conn, tenant)  # neither registered nor landed: not found
        stored = dict(conn.execute(db.load_sql("select_document_source_names"), {"tenant": tenant}))
        skipped = dict(store.skipped_files(conn, tenant))
    return landing_states([p.name for p in landing.files(tenant)], stored, skipped)


def prune_refused(
    tenant: str, *, resources: Mapping[str, dg.ConfigurableResource] | None = None
) -> list[str]:
    """Remove the tenant's refused files (and their sidecars) from its landing folder; never a
    file a stored document was read from. Under the tenant's ingest lock, so no ingest is
    reading the folder meanwhile. Returns the removed file names."""
    from raag_assets.definitions import default_resources

    resources = dict(resources or default_resources())
    postgres, landing = store_resources(resources)
    removed: list[str] = []
    with postgres.connect() as lock, db.tenant_ingest_lock(lock, tenant):
        folder = landing.tenant_dir(tenant)
        for f in landed_files(tenant, resources=resources):
            if not f.prunable:
                continue
            source = folder / f.name
            for path in (source, *_sidecars(source)):
                if path.parent == folder and path.is_file():
                    path.unlink()
            removed.append(f.name)
    return removed


def _sidecars(source: Path) -> tuple[Path, Path]:
    return (
        source.with_name(source.name + ".meta.json"),
        source.with_name(source.stem + ".meta.json"),
    )


def drop_tenant(
    tenant: str,
    *,
    resources: Mapping[str, dg.ConfigurableResource] | None = None,
    instance: dg.DagsterInstance | None = None,
) -> None:
    """Remove a tenant everywhere: its Postgres partitions, its Dagster partition key and its
    landing folder."""
    from raag_assets.definitions import default_resources

    validate_tenant(tenant)
    resources = dict(resources or default_resources())
    postgres, landing = store_resources(resources)
    instance = instance or local_instance()
    with postgres.connect() as conn:
        db.require_tenant(conn, tenant)
        db.drop_tenant(conn, tenant)
    if instance.has_dynamic_partition(TENANTS, tenant):
        instance.delete_dynamic_partition(TENANTS, tenant)
    shutil.rmtree(landing.tenant_dir(tenant), ignore_errors=True)
