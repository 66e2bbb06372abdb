"""`raag`: a thin command line over the ingest path and the retrieval library."""

import datetime as dt
import json
import logging
import os
import signal
import sys
import threading
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import psycopg
from psycopg.conninfo import conninfo_to_dict
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from raag_assets.core.errors import DocumentNotFound, RaagError, TenantNotFound
from raag_assets.core.model import EDGE_TYPES
from raag_assets.core.settings import dagster_home, raag_home
from raag_assets.graph.rules import KINDS, Rule
from raag_assets.interfaces.lifecycle import STOP_GRACE, supervise
from raag_assets.store import db
from raag_assets.store import documents as store
from raag_assets.store import graph as graph_store

if TYPE_CHECKING:  # the retrieval library loads on first use: `raag --help` stays quick
    from raag_assets.quality.span_eval import SpanReport
    from raag_assets.retrieval.candidates import Mode

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Dagster's SQLite storage logs a traceback when Ctrl-C lands as it closes a connection, then
# lets the interrupt go on: the one sentence for it is ours.
logging.getLogger("sqlalchemy").setLevel(logging.CRITICAL)

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


# A PYTHONWARNINGS entry (a message prefix) for `dagster dev`'s notice about `dg dev`.
SUPERSEDED_DEV_WARNING = "ignore:Function `dev_command` is superseded"

# Exit codes, the same for every command (`raag --help` and the README list them).
OK, FAILED, USAGE, NOTHING_INGESTED, INTERRUPTED = 0, 1, 2, 3, 130


class RaagGroup(click.Group):
    """Shows raag's and the database's errors as one line instead of a traceback, with the
    exit code of their kind; Ctrl-C as one sentence and 130."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # The `raag` process itself (click's test runner calls `main`, not this).
        try:
            return self.main(*args, **kwargs)
        except SystemExit as exc:
            if not _QUICK_EXIT:
                raise
            _exit_now(exc.code)

    def main(  # one signature for both of click's overloads
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        # Ctrl-C can land outside `invoke` too (in a library's cleanup, say), where click would
        # print "Aborted!" and exit 1.
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except KeyboardInterrupt:
            _interrupted()
        except click.exceptions.Abort as exc:  # a prompt answered no, or Ctrl-C at it
            if isinstance(exc.__context__, KeyboardInterrupt):
                _interrupted()
            err.print("Aborted!")
            sys.exit(FAILED)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else OK)

    def invoke(self, ctx: click.Context) -> Any:
        # Outermost, so that Ctrl-C is caught also when it lands while another error (the
        # embedded server, in the same process group, stopping on the same SIGINT) is shown.
        try:
            return self._invoke_reporting(ctx)
        except KeyboardInterrupt:
            _interrupted()

    def _invoke_reporting(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RaagError as exc:  # raised on purpose: what was asked cannot be done as asked
            # a tenant, document or key not found may only be in another store: say which
            where = f" (in {store_in_use()})" if _not_found(exc) else ""
            err.print(f"[bold red]error:[/] {escape(str(exc))}{where}", highlight=False)
            sys.exit(USAGE)
        except psycopg.OperationalError as exc:  # the server went away or cannot be reached
            err.print(f"[bold red]error:[/] database unavailable: {_first(exc)}", highlight=False)
            sys.exit(FAILED)
        except psycopg.Error as exc:  # the database refused a statement: its own words
            err.print(f"[bold red]error:[/] database: {_first(exc)}", highlight=False)
            sys.exit(FAILED)


def _not_found(exc: RaagError) -> bool:
    from raag_assets.interfaces.service import KeyNotFound  # the retrieval library: on error only

    return isinstance(exc, TenantNotFound | DocumentNotFound | KeyNotFound)


def store_in_use() -> str:
    """The store a command reads and writes, as a user would look for it: the RAAG_HOME folder
    of the embedded server, or the database RAAG_DATABASE_URL names (without its password)."""
    url = os.environ.get("RAAG_DATABASE_URL")
    if not url:
        return f"the store at {raag_home()} (RAAG_HOME)"
    info = conninfo_to_dict(url)
    host = info.get("host") or "localhost"
    port = f":{info['port']}" if info.get("port") else ""
    name = info.get("dbname") or info.get("user") or ""
    return f"the database {name} on {host}{port} (RAAG_DATABASE_URL)"


# Set by commands that load the models (ingest): once their output is written, the process
# ends without the interpreter's teardown of torch, spaCy and Dagster (1-4 s measured on two
# cores), after the atexit handlers ran as they would.
_QUICK_EXIT: list[bool] = []


def _exit_now(code: object) -> None:
    if code is not None and not isinstance(code, int):
        err.print(str(code))
        code = FAILED
    sys.stdout.flush()
    sys.stderr.flush()
    import atexit

    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or OK)


def _interrupted() -> None:
    err.print(
        "\ninterrupted: stopped before the end; what is stored stays consistent, and running "
        "the same command again completes the work.",
        highlight=False,
    )
    sys.exit(INTERRUPTED)


def _first(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


@click.group(cls=RaagGroup)
@click.version_option(package_name="raag-assets")
def main() -> None:
    """raag: relationship-aware retrieval over a Dagster-built document graph.

    \b
    Exit codes:
      0    done (for `ingest`: at least one file ingested)
      1    failed (the run, or the database)
      2    bad usage (an unknown option, a bad value, a tenant that does not exist)
      3    nothing ingested (`ingest`: every file missing or skipped)
      130  interrupted (Ctrl-C)
    """


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--tenant", required=True, help="Tenant id (lowercase letters, digits, - and _).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--force",
    is_flag=True,
    help="Run even when nothing changed since the last successful run (files, code, settings).",
)
def ingest(paths: tuple[Path, ...], tenant: str, as_json: bool, force: bool) -> None:
    """Land files (or folders) for a tenant and materialise its partition through Dagster.

    Two ingests of one tenant take turns; exit code 3 when none of the files was ingested.
    When nothing changed since the tenant's last successful run, no run is launched."""
    _step_output_to_log()
    _embedding_worker_early()
    from raag_assets.pipeline.run import ingest as run_ingest

    _QUICK_EXIT.append(True)

    def waiting() -> None:
        err.print(f"another ingest of tenant {tenant!r} is running: waiting for it to finish")

    with _progress(tenant, enabled=not as_json):
        summary = run_ingest(list(paths), tenant, on_wait=waiting, force=force)
    if summary.interrupted:
        raise KeyboardInterrupt
    if as_json:
        click.echo(json.dumps(summary.as_dict(), indent=2))
    else:
        _print_summary(summary)
    if not summary.success:
        sys.exit(FAILED)
    if not summary.ingested:
        err.print(
            f"nothing ingested into {store_in_use()}: every file given was missing or skipped "
            "(reasons above)",
            highlight=False,
        )
        sys.exit(NOTHING_INGESTED)


def _embedding_worker_early() -> None:
    """Where the run's steps will run in this process, the embedding model starts loading in
    its worker process now, before this process imports Dagster and the stages (1-2 s), so
    that it is ready when the embeddings step starts. An ingest that launches no run (nothing
    changed) ends the worker at its exit: a fraction of a second of another core."""
    from raag_assets.core.settings import run_executor
    from raag_assets.ingest.embedding import configured_embedder

    if run_executor() == "in_process":
        configured_embedder().start_worker()  # the run's own embedder: the same shared object


def _step_output_to_log() -> None:
    """Step processes write their console output to RAAG_HOME/logs/steps.log (read by
    raag_assets/preload.py), so the terminal shows our lines and progress bar only."""
    from raag_assets.core.settings import raag_home

    logs = raag_home() / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("RAAG_STEP_LOG", str(logs / "steps.log"))


def _retrieval_options(f: Any) -> Any:
    for option in reversed(
        [
            click.argument("query"),
            click.option("--tenant", required=True),
            click.option(
                "--k", default=None, type=click.IntRange(1), help="How many results (1 or more)."
            ),
            click.option(
                "--tag", "tags_any", multiple=True, help="Keep chunks with any of these tags."
            ),
            click.option(
                "--all-tags", "tags_all", multiple=True, help="Keep chunks with all these tags."
            ),
            click.option(
                "--meta", multiple=True, help="Metadata equality filter, key=value (repeatable)."
            ),
            click.option(
                "--mode",
                type=click.Choice(["hybrid", "vector", "fulltext"]),
                default="hybrid",
                show_default=True,
            ),
            click.option("--json", "as_json", is_flag=True, help="Print results as JSON."),
        ]
    ):
        f = option(f)
    return f


@main.command()
@_retrieval_options
@click.option(
    "--hops", default=1, show_default=True, type=click.IntRange(0, 2), help="Graph expansion hops."
)
@click.option("--as-of", "as_of", default=None, help="Date the answer must hold on (YYYY-MM-DD).")
@click.option("--scope", default=None, help="Who is asking, e.g. 'full-time employee'.")
@click.option(
    "--passages",
    is_flag=True,
    help="Show each result's passage (the sentences that answer) instead of its section.",
)
def search(
    query: str,
    tenant: str,
    k: int | None,
    tags_any: tuple[str, ...],
    tags_all: tuple[str, ...],
    meta: tuple[str, ...],
    mode: "Mode",
    as_json: bool,
    hops: int,
    as_of: str | None,
    scope: str | None,
    passages: bool,
) -> None:
    """Relationship-aware search: hybrid candidates, graph expansion, explained scores,
    conflicts. `#tag` and "in document X" in the query become filters."""
    from raag_assets.retrieval.search import DEFAULT_K
    from raag_assets.retrieval.search import search as run_search

    result = run_search(
        query,
        tenant,
        k=k or DEFAULT_K,
        tags_any=tags_any,
        tags_all=tags_all,
        metadata=_parse_meta(meta),
        mode=mode,
        max_expansion_hops=hops,
        as_of_date=as_of,
        scope_context=scope,
        granularity="passage" if passages else "section",
    )
    if as_json:
        click.echo(result.to_json())
        return
    summary = result.retrieval_summary
    out.print(
        f"[bold]{query}[/]  [dim]({tenant}: {summary['primary_hits']} hits, "
        f"{summary['expanded']} expanded, {summary['conflicts_detected']} conflicts)[/]"
    )
    for r in result.results:
        where = _titled(r["doc_id"], r["label"], r["heading"], r["page_start"])
        out.print(
            f"\n[bold cyan][{r['rank']}][/] [bold]{where}[/]  [dim]score {r['score']:.4f}[/]",
            highlight=False,
        )
        out.print(f"    [dim]why:[/] {r['retrieval_reason']}", highlight=False)
        if r["char_start"] is not None:
            out.print(f"    [dim]chars:[/] {r['char_start']}-{r['char_end']}", highlight=False)
        if r["conflict"]:
            winner = r["conflict"]["lost_to"]
            out.print(
                f"    [yellow]conflict:[/] yields to {winner['doc_id']} § {winner['label']} "
                f"({r['conflict']['rule']})",
                highlight=False,
            )
        body = r["text"]
        out.print("    " + (body[:300] + ("…" if len(body) > 300 else "")), highlight=False)
    if result.result_graph:
        out.print("\n[bold]edges between results[/]")
        for e in result.result_graph:
            src = e["src"]["doc_id"] + (f" § {e['src']['label']}" if e["src"]["label"] else "")
            dst = e["dst"]["doc_id"] + (f" § {e['dst']['label']}" if e["dst"]["label"] else "")
            out.print(f"  {src} —{e['type']}→ {dst}: {e['matched_text']!r}", highlight=False)
    for c in summary["conflicts"]:
        a, b = (f"{x['doc_id']} § {x['label']}" for x in c["between"])
        out.print(f"[yellow]conflict[/] {a} vs {b}: {c['reason']} ({c['rule']})", highlight=False)


@main.command()
@_retrieval_options
def retrieve(
    query: str,
    tenant: str,
    k: int | None,
    tags_any: tuple[str, ...],
    tags_all: tuple[str, ...],
    meta: tuple[str, ...],
    mode: "Mode",
    as_json: bool,
) -> None:
    """The plain candidate stage: hybrid (vector + full-text, RRF) chunks, no graph."""
    from raag_assets.retrieval.candidates import RetrievalPlan
    from raag_assets.retrieval.candidates import retrieve as run_retrieve
    from raag_assets.retrieval.search import default_embed

    plan = RetrievalPlan(
        k=k or 12, mode=mode, tags_any=tags_any, tags_all=tags_all, metadata=_parse_meta(meta)
    )
    with db.connect() as conn:
        results = run_retrieve(conn, query, tenant, default_embed(), plan)
    if as_json:
        payload = {
            "query": query,
            "tenant": tenant,
            "plan": {
                "k": plan.k,
                "mode": mode,
                "tags_any": tags_any,
                "tags_all": tags_all,
                "metadata": plan.metadata,
            },
            "results": [_result_json(c) for c in results],
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    out.print(f"[bold]{query}[/]  [dim]({tenant}, {len(results)} results, {mode})[/]")
    for n, c in enumerate(results, start=1):
        where = _titled(c.doc_id, c.label, c.heading, c.page_start)
        ranks = f"vector #{c.vector_rank or '-'}, text #{c.fulltext_rank or '-'}"
        out.print(
            f"\n[bold cyan][{n}][/] [bold]{where}[/]  [dim]score {c.score:.4f} ({ranks})[/]",
            highlight=False,
        )
        body = c.content.split("\n", 1)[-1]
        out.print("    " + (body[:400] + ("…" if len(body) > 400 else "")), highlight=False)


@main.command()
@click.option("--tenant", required=True)
@click.option("--json", "as_json", is_flag=True)
def documents(tenant: str, as_json: bool) -> None:
    """Every document and earlier version: the file it came from, dates, version, supersedes
    and amends."""
    with db.connect() as conn:
        db.require_tenant(conn, tenant)
        rows = store.documents(conn, tenant)
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str))
        return
    table = Table("doc_id", "source", "v", "in force", "title", "supersedes", "amends")
    for r in rows:
        period = f"{r['effective_from'] or '…'} – {r['in_force_to'] or '…'}"
        table.add_row(
            r["doc_id"],
            _shown_name(r["source"]),
            str(r["version"]),
            period,
            escape((r["title"] or "")[:50]),
            ", ".join(r["supersedes"]),
            ", ".join(r["amends"]),
        )
    out.print(table)


def _shown_name(name: str) -> str:
    """A file name for the terminal: control and invisible characters (an escape sequence, a
    newline) written as Python escapes (\\x1b, \\n), and "[...]" kept as text rather than
    read as rich's markup."""
    shown = "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in ("Cc", "Cf")
        else ch
        for ch in name
    )
    return escape(shown)


@main.command()
@click.option("--tenant", required=True)
@click.option("--json", "as_json", is_flag=True)
def sections(tenant: str, as_json: bool) -> None:
    """Every section of a tenant's documents, in document order."""
    with db.connect() as conn:
        db.require_tenant(conn, tenant)
        rows = store.sections(conn, tenant)
    if as_json:
        keys = (
            "doc_id",
            "label",
            "heading",
            "level",
            "section_id",
            "parent_id",
            "page_start",
            "page_end",
        )
        click.echo(
            json.dumps([{k: r[k] for k in keys} for r in rows], indent=2, ensure_ascii=False)
        )
        return
    table = Table("doc_id", "label", "heading", "pages")
    for r in rows:
        pages = f"{r['page_start']}-{r['page_end']}" if r["page_start"] else ""
        table.add_row(r["doc_id"], "  " * (r["level"] - 1) + r["label"], r["heading"], pages)
    out.print(table)


@main.command()
@click.option("--tenant", required=True)
@click.option(
    "--type", "edge_type", type=click.Choice(EDGE_TYPES), default=None, help="Only this edge type."
)
@click.option("--json", "as_json", is_flag=True)
def edges(tenant: str, edge_type: str | None, as_json: bool) -> None:
    """Every edge of a tenant's relationship graph, with its evidence."""
    with db.connect() as conn:
        db.require_tenant(conn, tenant)
        rows = graph_store.edges(conn, tenant, edge_type)
    if as_json:
        click.echo(json.dumps([_edge_json(r) for r in rows], indent=2, ensure_ascii=False))
        return
    table = Table("type", "layer", "source", "target", "evidence", "conf.", "rule")
    for r in rows:
        e = _edge_json(r)
        table.add_row(
            e["type"],
            str(e["layer"]),
            _where(e["src"]),
            _where(e["dst"]) if e["dst"] else e["term"] or e["scope"] or e["normalized_target"],
            e["matched_text"],
            f"{e['confidence']:.2f}",
            e["rule"] or "",
        )
    out.print(table)


@main.command()
@click.option("--kind", type=click.Choice(KINDS), default=None, help="Only rules of this kind.")
@click.option("--json", "as_json", is_flag=True)
def rules(kind: str | None, as_json: bool) -> None:
    """The extraction rules: what each recognises, the edges it makes, its examples."""
    from raag_assets.quality.rules import all_rules  # imports every extraction module

    table_rows = [r for r in all_rules() if kind is None or r.kind == kind]
    if as_json:
        click.echo(json.dumps([_rule_json(r) for r in table_rows], indent=2, ensure_ascii=False))
        return
    table = Table("rule", "kind", "makes", "conf.", "recognises", "example")
    for r in table_rows:
        table.add_row(
            r.id,
            r.kind,
            r.edge_type or "",
            "" if r.confidence is None else f"{r.confidence:.2f}",
            r.doc,
            r.examples[0] if r.examples else "",
        )
    out.print(table)


@main.command()
@click.option("--tenant", required=True)
@click.option("--all", "show_all", is_flag=True, help="Include references Layer 3 resolved.")
@click.option("--json", "as_json", is_flag=True)
def unresolved(tenant: str, show_all: bool, as_json: bool) -> None:
    """References no layer could resolve yet, with the reason (retried on every run)."""
    from raag_assets.interfaces import service

    rows = service.unresolved(tenant, show_all)
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    table = Table("source", "reference", "status", "reason")
    for r in rows:
        table.add_row(_where(r["src"]), r["matched_text"], r["status"], r["reason"])
    out.print(table)


@main.command()
@click.option("--tenant", required=True)
@click.option("--doc", "doc_id", required=True, help="The doc_id whose text to print.")
@click.option("--from", "start", default=0, show_default=True, type=click.IntRange(0))
@click.option("--to", "end", default=None, type=click.IntRange(0), help="End offset (exclusive).")
@click.option("--json", "as_json", is_flag=True)
def show(tenant: str, doc_id: str, start: int, end: int | None, as_json: bool) -> None:
    """A document's raw text, or characters [--from, --to) of it: the text that search
    results' char_start/char_end index (for PDFs the extracted text, pages split by \\f)."""
    from raag_assets.interfaces import service

    found = service.show(tenant, doc_id, start, end)
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False, indent=2))
    else:
        click.echo(found["text"], nl=False)


@main.command()
@click.option("--json", "as_json", is_flag=True)
def tenants(as_json: bool) -> None:
    """Registered tenants with their document, section and chunk counts."""
    with db.connect() as conn:
        rows = [{"tenant": t, **store.tenant_summary(conn, t)} for t in db.tenants(conn)]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    table = Table("tenant", "documents", "earlier versions", "sections", "chunks", "embedded")
    for r in rows:
        table.add_row(*(str(v) for v in r.values()))
    out.print(table)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the database and what was applied.")
def migrate(as_json: bool) -> None:
    """Apply raag's schema migrations (sql/migrations) to the configured database
    (RAAG_DATABASE_URL, else the embedded server) and say which were applied. Running it
    again applies nothing; several at once take turns. A deploy runs it once before the
    services start (every other command also migrates on first connect)."""
    url = db.database_url()
    with psycopg.connect(url, autocommit=True) as conn:
        applied = db.migrate(conn)
    where = _database_name(url)
    if as_json:
        click.echo(json.dumps({"database": where, "applied": applied}, indent=2))
    elif applied:
        out.print(f"applied {len(applied)} migrations to {where}:", highlight=False)
        for name in applied:
            out.print(f"  {name}", highlight=False)
    else:
        out.print(f"{where} is up to date: no migration to apply", highlight=False)


def _database_name(url: str) -> str:
    """The database a URL points at, without its password: `raag on db:5432`."""
    from psycopg.conninfo import conninfo_to_dict

    info = conninfo_to_dict(url)
    name = info.get("dbname") or info.get("user")
    return f"{name} on {info.get('host') or 'localhost'}:{info.get('port') or 5432}"


@main.command()
@click.option("--tenant", required=True)
@click.option(
    "--prune",
    is_flag=True,
    help="Remove the refused files (never one a stored document was read from).",
)
@click.option("--json", "as_json", is_flag=True)
def landing(tenant: str, prune: bool, as_json: bool) -> None:
    """The tenant's landed files and what the last run made of each: ingested, refused (with
    the reason) or pending (landed since). --prune removes the refused ones."""
    from raag_assets.pipeline.run import landed_files, prune_refused

    removed = prune_refused(tenant) if prune else []
    files = landed_files(tenant)
    if as_json:
        rows = [
            {"file": f.name, "state": f.state, "reason": f.reason or None, "stored": f.stored}
            for f in files
        ]
        click.echo(json.dumps({"tenant": tenant, "files": rows, "removed": removed}, indent=2))
        return
    for name in removed:
        err.print(f"removed {_shown_name(name)}", highlight=False)
    if not files:
        folder = raag_home() / "landing" / tenant
        err.print(f"no files landed for tenant {tenant!r} (in {folder})", highlight=False)
        return
    table = Table("file", "state", "reason")
    for f in files:
        reason = f.reason + ("  (its earlier text stays ingested)" if f.stored else "")
        table.add_row(_shown_name(f.name), f.state, escape(reason) if f.state == "refused" else "")
    out.print(table)
    refused = [f for f in files if f.prunable]
    if refused and not prune:
        err.print(f"{len(refused)} refused: `raag landing --tenant {tenant} --prune` removes them")


@main.command()
@click.option("--tenant", default=None, help="Only this tenant's runs.")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1))
@click.option("--json", "as_json", is_flag=True)
def failures(tenant: str | None, limit: int, as_json: bool) -> None:
    """Failed pipeline runs, the latest first: from `raag ingest`, and from the UI, the landing
    sensor or the nightly schedule (recorded by the record_run_failures sensor)."""
    from raag_assets.store.runs import run_failures

    with db.connect() as conn:
        rows = run_failures(conn, tenant, limit)
    if as_json:
        click.echo(json.dumps(rows, indent=2, default=lambda v: v.isoformat()))
        return
    if not rows:
        which = f" for tenant {tenant!r}" if tenant else ""
        err.print(f"no failed runs recorded{which} in {store_in_use()}", highlight=False)
        return
    table = Table("failed at", "job", "tenant", "steps", "error", "run")
    for r in rows:
        table.add_row(
            _when(r["failed_at"]),
            r["job_name"],
            r["tenant_id"] or "",
            ", ".join(r["steps"]),
            escape(r["error"]),
            r["run_id"][:8],
        )
    out.print(table)


@main.command()
@click.option("--tenant", required=True)
@click.option("--doc", "doc_id", required=True, help="The doc_id to retract.")
@click.option("--json", "as_json", is_flag=True)
def delete(tenant: str, doc_id: str, as_json: bool) -> None:
    """Retract one document: its rows and edges go, references to it are parked again."""
    from raag_assets.pipeline.run import delete_document

    _step_output_to_log()
    summary = delete_document(tenant, doc_id)
    if as_json:
        click.echo(json.dumps(summary.as_dict(), indent=2))
    else:
        out.print(f"removed {doc_id} from {tenant}", highlight=False)
        _print_summary(summary)
    if not summary.success:
        sys.exit(1)


@main.command(name="drop-tenant")
@click.argument("tenant")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def drop_tenant(tenant: str, yes: bool) -> None:
    """Remove a tenant: its Postgres partitions, its Dagster partition and landing folder."""
    from raag_assets.pipeline.run import drop_tenant as run_drop

    if not yes:
        click.confirm(f"Drop tenant {tenant!r} and everything stored for it?", abort=True)
    run_drop(tenant)
    out.print(f"dropped tenant {tenant}", highlight=False)


@main.command()
@click.option("--port", default=3000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True)
def ui(port: int, host: str) -> None:
    """Start the Dagster UI (and daemon) on this code location: `dagster dev`."""
    from raag_assets.pipeline.run import local_instance

    local_instance()  # DAGSTER_HOME, and its dagster.yaml unless it has one of its own
    os.environ["DAGSTER_HOME"] = str(dagster_home())
    with db.connect():
        pass  # starts the embedded Postgres (or checks RAAG_DATABASE_URL) before the UI
    target = (
        ["-w", "workspace.yaml"]
        if Path("workspace.yaml").is_file()
        else ["-m", "raag_assets.definitions"]
    )
    dagster = str(Path(sys.executable).parent / "dagster")
    # `dagster dev` warns that `dg dev` (the dagster-dg-cli package, not a dependency) supersedes
    # it; the command is still Dagster's supported one, so that warning is noise to our users.
    os.environ["PYTHONWARNINGS"] = ",".join(
        filter(None, [os.environ.get("PYTHONWARNINGS"), SUPERSEDED_DEV_WARNING])
    )
    err.print(f"Dagster UI on http://{host}:{port}  (DAGSTER_HOME={os.environ['DAGSTER_HOME']})")
    code = supervise([dagster, "dev", *target, "--host", host, "--port", str(port)])
    sys.exit(code)


@main.command()
@click.option("--port", default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True)
def serve(port: int, host: str) -> None:
    """Start the REST service (OpenAPI at /docs, the explorer page at /explore/); each request
    needs a key of its tenant (`raag api-key create`)."""
    with db.connect():
        pass  # starts the embedded Postgres (or checks RAAG_DATABASE_URL) before serving
    _serve(host, port)


@main.command()
@click.option("--tenant", required=True, help="The tenant to explore.")
@click.option("--port", default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--no-browser", is_flag=True, help="Print the page's address, open nothing.")
def explore(tenant: str, port: int, host: str, no_browser: bool) -> None:
    """Serve the REST service with the explorer page and open it on TENANT, with a new key
    for it (labelled `raag explore`) in the address's fragment, which the page keeps for the
    browser tab and takes out of the address bar."""
    from raag_assets.interfaces.service import create_api_key

    with db.connect() as conn:
        db.require_tenant(conn, tenant)
    key = create_api_key(tenant, "raag explore")
    url = f"http://{host}:{port}/explore/#tenant={tenant}&key={key}"
    err.print(f"explorer on http://{host}:{port}/explore/ (tenant {tenant}); Ctrl-C stops it")
    click.echo(url)
    if not no_browser:
        threading.Thread(target=_open_when_up, args=(host, port, url), daemon=True).start()
    # the embedding model loads while the page opens, not on its first search (~10 s)
    threading.Thread(target=_load_model, daemon=True).start()
    _serve(host, port)


def _load_model() -> None:
    from raag_assets.retrieval.candidates import default_embedder

    default_embedder().embed_here(["warm up"])  # the weights, not only the object


def _open_when_up(host: str, port: int, url: str) -> None:
    import socket
    import time
    import webbrowser

    for _ in range(600):
        with socket.socket() as s:
            if s.connect_ex((host, port)) == 0:
                webbrowser.open(url)
                return
        time.sleep(0.1)


def _serve(host: str, port: int) -> None:
    import uvicorn

    from raag_assets.interfaces.rest import create_app

    # uvicorn re-raises SIGTERM once it has shut down; exiting normally on it (as on SIGINT)
    # lets the embedded Postgres this process started stop too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # Open connections get STOP_GRACE seconds to finish, then the server exits regardless.
    # access_log=False: the service writes its own line per request (with the tenant)
    uvicorn.run(
        create_app(),
        host=host,
        port=port,
        log_level="info",
        access_log=False,
        timeout_graceful_shutdown=STOP_GRACE,
    )


@main.group(name="api-key")
def api_key() -> None:
    """Keys for the REST service (`raag serve`): each key reads one tenant, sent in the
    X-API-Key header. Only a key's hash is stored. `raag mcp` takes no key: it serves the one
    tenant it is started for, to the program that starts it."""


def _expiry_options(f: Any) -> Any:
    f = click.option(
        "--expires-at",
        default=None,
        metavar="DATE",
        help="Expire at this date (midnight UTC) or ISO date-time, e.g. 2027-01-31.",
    )(f)
    return click.option(
        "--expires-in",
        default=None,
        metavar="DURATION",
        help="Expire after this long: 90m, 12h, 30d, 2w.",
    )(f)


def _when(value: Any) -> str:
    return value.strftime("%Y-%m-%d %H:%M %Z") if value is not None else ""


@api_key.command(name="create")
@click.option("--tenant", required=True)
@click.option("--label", default="", help="What the key is for, e.g. 'support bot'.")
@_expiry_options
def api_key_create(tenant: str, label: str, expires_in: str | None, expires_at: str | None) -> None:
    """Create a key for a tenant and print it, the only time it is shown (stdout: the key
    alone; stderr: its id and expiry)."""
    from raag_assets.interfaces import service

    expiry = service.parse_expiry(expires_in, expires_at)
    key, key_id = service.new_api_key(tenant, label, expires_at=expiry)
    click.echo(key)
    err.print(f"key id {key_id}" + (f", expires {_when(expiry)}" if expiry else ""))


@api_key.command(name="list")
@click.option("--tenant", default=None, help="Only this tenant's keys.")
@click.option("--json", "as_json", is_flag=True)
def api_key_list(tenant: str | None, as_json: bool) -> None:
    """Every key: id, tenant, label, created, expires, last used, state (never the key)."""
    from raag_assets.interfaces import service

    rows = service.list_api_keys(tenant)
    if as_json:
        click.echo(json.dumps(rows, indent=2, default=lambda v: v.isoformat()))
        return
    table = Table("key id", "tenant", "label", "state", "created", "expires", "last used")
    for r in rows:
        state = r["state"] + (f" → {r['replaced_by']}" if r["replaced_by"] else "")
        table.add_row(
            r["key_id"],
            r["tenant"],
            r["label"],
            state,
            _when(r["created_at"]),
            _when(r["expires_at"]),
            _when(r["last_used_at"]) or "never",
        )
    out.print(table)


@api_key.command(name="revoke")
@click.argument("key")
def api_key_revoke(key: str) -> None:
    """Revoke KEY (its id from `raag api-key list`, or the key itself) now."""
    from raag_assets.interfaces import service

    old = service.revoke_api_key(key)
    out.print(f"revoked key {old['key_id']} of tenant {old['tenant_id']}", highlight=False)


@api_key.command(name="rotate")
@click.argument("key")
@click.option(
    "--grace",
    default=None,
    metavar="DURATION",
    help="Let the old key work this long more (e.g. 1h), for clients to switch; else revoked now.",
)
@_expiry_options
def api_key_rotate(
    key: str, grace: str | None, expires_in: str | None, expires_at: str | None
) -> None:
    """Replace KEY (id or key) by a new key of the same tenant and label, printed once; the
    new key expires as asked, else after the old key's lifetime, if it had one."""
    from raag_assets.interfaces import service

    expiry = service.parse_expiry(expires_in, expires_at)
    delay = service.parse_duration(grace) if grace else None
    new_key, new_id, old = service.rotate_api_key(key, delay, expiry)
    click.echo(new_key)
    ends = f"expires in {grace}" if grace else "is revoked"
    err.print(f"key id {new_id} replaces {old['key_id']}, which {ends}", highlight=False)


@main.command()
@click.option("--tenant", required=True, help="The tenant the agent may read.")
def mcp(tenant: str) -> None:
    """Serve the MCP tools (search, get_section, follow_edge) for one tenant over stdio."""
    from raag_assets.interfaces.mcp import build_server

    with db.connect() as conn:
        db.require_tenant(conn, tenant)
    build_server(tenant).run("stdio")


@main.command()
@click.option(
    "--new-version",
    "reason",
    default=None,
    metavar="REASON",
    help="Write the current outputs as the next expected version, saying why.",
)
def conformance(reason: str | None) -> None:
    """Re-ingest the golden corpus into a fresh tenant and compare with the expected outputs."""
    from raag_assets.definitions import default_resources
    from raag_assets.pipeline.run import local_instance
    from raag_assets.quality import conformance as golden

    _step_output_to_log()

    resources, instance = default_resources(), local_instance()
    if reason is not None:
        folder = golden.new_version(reason, resources, instance)
        out.print(f"wrote {folder}")
        return
    report = golden.check(resources, instance)
    for part, lines in report.differences.items():
        out.print(f"[bold red]{part} differs[/] from v{report.version}:")
        for line in lines:
            out.print(line, highlight=False, markup=False)
    if not report.passed:
        sys.exit(1)
    out.print(
        f"conformance v{report.version}: passed (sections, chunks, edges, retrieve and search "
        f"ids exact; embeddings within {golden.TOLERANCE}, max drift "
        f"{report.embedding_drift:.1e})"
    )


@main.command(name="eval")
@click.argument("folder", type=click.Path(path_type=Path, exists=True))
@click.option("--tenant", default=None, help="Tenant to ingest into (default: beir-<folder>).")
@click.option("--split", default="test", show_default=True, help="qrels/<split>.tsv")
@click.option("--max-queries", type=int, default=None, help="A fixed sample of queries.")
@click.option("--max-docs", type=int, default=None, help="Judged documents plus others up to N.")
@click.option(
    "--corpus",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=None,
    help="Span sets: the folder the snippets' file_path are in (default: the set's 'corpus').",
)
@click.option(
    "--contracts",
    type=click.IntRange(1),
    default=None,
    help="Span sets with halves: the first N contracts of each half (default 40).",
)
@click.option("--all", "all_contracts", is_flag=True, help="Span sets with halves: every contract.")
@click.option(
    "--half",
    type=click.Choice(["look", "scored"]),
    default=None,
    help="Span sets with halves: score this half only (default both).",
)
@click.option("--json", "as_json", is_flag=True)
def eval_(
    folder: Path,
    tenant: str | None,
    split: str,
    max_queries: int | None,
    max_docs: int | None,
    corpus: Path | None,
    contracts: int | None,
    all_contracts: bool,
    half: str | None,
    as_json: bool,
) -> None:
    """nDCG@10, recall@10, MRR@10 on a BEIR folder: raag's retrieval modes and a BM25 baseline.

    Given a span-labelled set (a .json file: {"tests": [{"query", "snippets": [{"file_path",
    "span": [start, end]}]}]}), character precision, recall and hit rate at 1, 4 and 10 for
    raag's chunks and passages, next to BM25 and dense retrieval over fixed 500-character
    chunks. A set whose tests carry a half (golden/spans/cuad.json) is scored half by half, on
    a fixed sample of each half's contracts (--contracts N, --all; --half look|scored for one),
    with hit@10 per category."""
    if folder.is_file():
        from raag_assets.quality import cuad_spans

        if contracts is not None and all_contracts:
            raise click.UsageError("--contracts and --all exclude each other")
        sample = None if all_contracts else (contracts or cuad_spans.SAMPLE)
        _eval_spans(folder, corpus, tenant, max_queries, sample, as_json, half)
        return
    from raag_assets.core.settings import raag_home
    from raag_assets.pipeline.run import ingest as run_ingest
    from raag_assets.quality import evaluation
    from raag_assets.retrieval.search import default_embed

    _step_output_to_log()

    data = evaluation.subset(evaluation.load_beir(folder, split), max_queries, max_docs)
    tenant = tenant or f"beir-{folder.name.lower()}"[:40]
    files = evaluation.write_corpus(data, raag_home() / "eval" / tenant)
    err.print(f"{len(data.corpus)} documents, {len(data.queries)} queries: ingesting {tenant!r}")
    with _progress(tenant, enabled=not as_json):
        summary = run_ingest(files, tenant)
    if not summary.success:
        raise RaagError(f"ingest failed: {summary.error}")
    embed = default_embed()
    with db.connect() as conn:
        rankers = {
            "BM25 (bm25s)": evaluation.bm25_ranker(data),
            **evaluation.raag_rankers(conn, tenant, embed),
        }
        scores = evaluation.evaluate(data, rankers)
    rows: list[dict[str, Any]] = [
        {
            "system": s.name,
            "ndcg@10": round(s.ndcg, 4),
            "recall@10": round(s.recall, 4),
            "mrr@10": round(s.mrr, 4),
            "ms_per_query": round(s.ms_per_query, 1),
        }
        for s in scores
    ]
    if as_json:
        click.echo(
            json.dumps(
                {"documents": len(data.corpus), "queries": len(data.queries), "systems": rows},
                indent=2,
            )
        )
        return
    table = Table(
        "system",
        "nDCG@10",
        "recall@10",
        "MRR@10",
        "ms/query",
        title=f"{folder.name} ({split}): {len(data.queries)} queries, {len(data.corpus)} documents",
    )
    for r in rows:
        table.add_row(
            r["system"],
            f"{r['ndcg@10']:.3f}",
            f"{r['recall@10']:.3f}",
            f"{r['mrr@10']:.3f}",
            f"{r['ms_per_query']:.0f}",
        )
    out.print(table)


def _eval_spans(
    path: Path,
    corpus: Path | None,
    tenant: str | None,
    max_queries: int | None,
    contracts: int | None,
    as_json: bool,
    only: str | None = None,
) -> None:
    from raag_assets.core.settings import raag_home
    from raag_assets.pipeline.run import ingest as run_ingest
    from raag_assets.quality import evaluation, span_eval
    from raag_assets.retrieval.search import default_embed

    data = evaluation.load_spans(path, corpus)
    base = tenant or f"spans-{path.stem.lower().replace('_', '-')}"[:40]
    halves = span_eval.halves(data, contracts)
    runs = (
        [
            (f"{path.name} {part}", half, span_eval.half_tenant(base, part, contracts))
            for part, half in halves.items()
            if only is None or part == only
        ]
        if halves
        else [(path.name, data, base)]
    )
    _step_output_to_log()
    reports = []
    for name, half, half_tenant in runs:
        if max_queries is not None:
            half = evaluation.SpanSet(half.corpus, half.tests[:max_queries])
        files = half.files()
        err.print(
            f"{name}: {len(files)} files, {len(half.tests)} queries: ingesting {half_tenant!r}"
        )
        with _progress(half_tenant, enabled=not as_json):
            summary = run_ingest(files, half_tenant)
        if not summary.success:
            raise RaagError(f"ingest failed: {summary.error}")
        with db.connect() as conn:
            report = span_eval.score_span_set(
                conn,
                half,
                half_tenant,
                default_embed(),
                name=name,
                systems=span_eval.HALF_SYSTEMS if halves else None,
                chunk_vectors=raag_home() / "eval" / f"{half_tenant}-500.npz",
            )
        for file in report.dropped:
            err.print(f"left out (not ingested): {file}")
        reports.append(report)
        if not as_json:
            _print_span_report(report)
    if as_json:
        click.echo(json.dumps({"sets": [r.as_dict() for r in reports]}, indent=2))


def _print_span_report(report: "SpanReport") -> None:
    from raag_assets.quality.evaluation import SPAN_KS as ks

    table = Table(
        "system",
        *(f"P@{k}" for k in ks),
        *(f"R@{k}" for k in ks),
        "hit@10",
        "ms/query",
        title=f"{report.name}: {report.tests} queries over {report.files} files, tenant "
        f"{report.tenant} (character precision / recall; hit: share of queries whose spans "
        "touch a labelled one)",
    )
    for r in report.scores:
        table.add_row(
            r["system"],
            *(f"{r[f'precision@{k}']:.3f}" for k in ks),
            *(f"{r[f'recall@{k}']:.3f}" for k in ks),
            f"{r['hit@10']:.3f}",
            f"{r['ms_per_query']:.0f}",
        )
    out.print(table)
    if not report.categories:
        return
    systems = [r["system"] for r in report.scores]
    short = [s.split(",")[0].replace(" passages", "") for s in systems]
    by_category = Table("category", "tests", *short, title=f"{report.name}: hit@10 by category")
    for row in report.categories:
        by_category.add_row(row["category"], str(row["tests"]), *(f"{row[s]:.2f}" for s in systems))
    out.print(by_category)


def _parse_meta(pairs: tuple[str, ...]) -> dict[str, Any]:
    out_: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} is not key=value", param_hint="--meta")
        try:
            out_[key] = json.loads(value)  # numbers and booleans compare as such
        except json.JSONDecodeError:
            out_[key] = value
        if not isinstance(out_[key], str | int | float | bool):
            out_[key] = value
    return out_


def _result_json(c: Any) -> dict[str, Any]:
    return {
        "doc_id": c.doc_id,
        "label": c.label,
        "heading": c.heading,
        "text": c.content,
        "score": c.score,
        "chunk_index": c.chunk_index,
        "section_id": c.section_id,
        "page_start": c.page_start,
        "page_end": c.page_end,
        "vector_rank": c.vector_rank,
        "fulltext_rank": c.fulltext_rank,
        "tags": c.tags,
        "metadata": c.metadata,
    }


def _rule_json(r: Rule) -> dict[str, Any]:
    return {
        "id": r.id,
        "kind": r.kind,
        "doc": r.doc,
        "edge_type": r.edge_type,
        "confidence": r.confidence,
        "layer": r.layer,
        "pattern": r.pattern.pattern if r.pattern is not None else None,
        "examples": list(r.examples),
        "counter": list(r.counter),
    }


def _edge_json(r: dict[str, Any]) -> dict[str, Any]:
    dst = None
    if r["dst_doc_id"]:
        dst = {"doc_id": r["dst_doc_id"], "label": r["dst_label"]}
    return {
        "type": r["edge_type"],
        "src": {"doc_id": r["src_doc_id"], "label": r["src_label"]},
        "dst": dst,
        "term": r["term"],
        "layer": r["layer"],
        "confidence": round(float(r["confidence"]), 4),
        "matched_text": r["matched_text"],
        "normalized_target": r["normalized_target"],
        "raw_target": r["raw_target"],
        "scope": r["scope"],
        "date_from": r["date_from"].isoformat() if r["date_from"] else None,
        "date_to": r["date_to"].isoformat() if r["date_to"] else None,
        "condition": r["condition"],
        "rule": r["rule"],
        "edge_id": r["edge_id"],
        "stage": r["stage"],
    }


def _titled(doc_id: str, label: str, heading: str, page: int | None) -> str:
    """'leave-policy § 3.3 Carry-Over, p. 2' (the heading only when it is not the label)."""
    title = f"{doc_id} § {label}" + ("" if label == heading else f" {heading}")
    return title + (f", p. {page}" if page else "")


def _where(ref: dict[str, Any]) -> str:
    return ref["doc_id"] + (f" § {ref['label']}" if ref.get("label") else "")


def _print_summary(summary: Any) -> None:
    status = "[green]ok[/]" if summary.success else "[red]failed[/]"
    c = summary.counts
    out.print(
        f"tenant [bold]{summary.tenant}[/]: {status} — {c.get('documents', 0)} documents, "
        f"{c.get('sections', 0)} sections, {c.get('chunks', 0)} chunks "
        f"({c.get('embedded', 0)} embedded); landed {len(summary.landed)} files"
    )
    if summary.error:
        out.print(f"[red]error:[/] {summary.error}", highlight=False)
    failed = [name for name, passed in summary.checks.items() if not passed]
    if failed:
        out.print(f"[red]checks failed:[/] {', '.join(failed)}", highlight=False)
    elif summary.checks:
        out.print(f"[green]{len(summary.checks)} asset checks passed[/]")
    if summary.skipped:
        out.print(f"skipped {len(summary.skipped)} files:")
        for name, reason in summary.skipped:
            out.print(f"  - {name}: {reason}", highlight=False, markup=False)
    if summary.up_to_date:
        out.print(
            f"[dim]up to date: nothing changed since run {summary.run_id}, so no run was "
            "launched (`--force` runs one anyway)[/]"
        )
    else:
        out.print(f"[dim]run {summary.run_id} — inspect it with `raag ui`[/]")


class _progress:
    """A progress bar fed by the run's own event log (pipeline/progress.py): the stage running
    now, and while embedding, a bar that moves per batch with the time left."""

    def __init__(self, tenant: str, enabled: bool):
        self.tenant = tenant
        self.enabled = enabled and err.is_terminal
        self.stop = threading.Event()

    def __enter__(self) -> "_progress":
        if self.enabled:
            from raag_assets.pipeline.run import local_instance

            self.instance = local_instance()
            self.since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
            # A copy of the terminal's descriptor: while a run executes here, Dagster's compute
            # log capture points descriptor 2 at a log file, which froze the bar once drawn.
            self.tty = os.fdopen(os.dup(sys.stderr.fileno()), "w", buffering=1)
            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=Console(file=self.tty, soft_wrap=True),
                transient=True,
            )
            self.task = self.bar.add_task("starting the run", total=None)
            self.bar.start()
            self.thread = threading.Thread(target=self._poll, daemon=True)
            self.thread.start()
        return self

    def _poll(self) -> None:
        from raag_assets.pipeline.progress import RunProgress, poll

        state, shown = RunProgress(), ""
        try:
            while not self.stop.wait(0.5):
                state = poll(self.instance, self.tenant, self.since, state)
                if state.embedding:
                    if shown != "embedding":  # elapsed time and ETA count from here
                        self._stage(state.label, state.to_embed)
                        shown = "embedding"
                    self.bar.update(self.task, completed=state.embedded)
                elif state.label != shown:  # a stage without a count: its name and its time
                    self._stage(state.label, None)
                    shown = state.label
        except Exception:  # progress is cosmetic; the run reports real errors
            return

    def _stage(self, label: str, total: int | None) -> None:
        """A new task for the stage, so its time (and the embedding's ETA) start from zero."""
        self.bar.remove_task(self.task)
        self.task = self.bar.add_task(label, total=total)

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.stop.set()
            self.thread.join(timeout=2)
            self.bar.stop()
            self.tty.close()
