"""How far a tenant's run has got, read from the run's own event log: the step running now,
and during `embeddings` the chunks embedded so far (the asset logs a line per committed
batch). `raag ingest` draws its progress bar from this, so the bar names the stage that is
really running and moves with each embedding batch."""

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

import dagster as dg

# The line the embeddings asset logs after each committed batch.
EMBEDDED_LINE = "embedded {done}/{total} chunks"
_EMBEDDED = re.compile(r"embedded (\d+)/(\d+) chunks")

# What each step does, as the bar says it.
STEP_LABELS = {
    "documents": "reading and parsing documents",
    "sections": "sectioning and chunking",
    "edges": "extracting the graph (patterns, spaCy)",
    "term_uses": "linking defined terms",
    "topic_links": "linking related topics",
    "embeddings": "embedding chunks",
    "resolved_references": "resolving parked references",
}


@dataclass(frozen=True)
class RunProgress:
    run_id: str | None = None
    cursor: str | None = None  # where the event log was read up to
    step: str | None = None  # the step that started last
    embedded: int = 0  # chunks embedded by this run so far
    to_embed: int | None = None  # chunks this run embeds (known from the first batch on)

    @property
    def label(self) -> str:
        if self.step is None:
            return "starting the run"
        return STEP_LABELS.get(self.step, self.step)

    @property
    def embedding(self) -> bool:
        return self.step == "embeddings" and self.to_embed is not None


def follow(
    progress: RunProgress, entries: Iterable[tuple[str | None, str | None, str]]
) -> RunProgress:
    """The progress after the run's next log entries, each (event type or None for a plain log
    line, step key, message)."""
    for kind, step, message in entries:
        if kind == dg.DagsterEventType.STEP_START.value and step:
            progress = replace(progress, step=step)
        elif kind is None and step == "embeddings":
            found = _EMBEDDED.search(message)
            if found:
                done, total = int(found[1]), int(found[2])
                progress = replace(progress, step=step, embedded=done, to_embed=total)
    return progress


def poll(
    instance: dg.DagsterInstance, tenant: str, since: dt.datetime, progress: RunProgress
) -> RunProgress:
    """Read what the tenant's run (the one started after `since`) logged since the last poll."""
    if progress.run_id is None:
        runs = instance.get_runs(
            filters=dg.RunsFilter(tags={"dagster/partition": tenant}, created_after=since),
            limit=1,
        )
        if not runs:
            return progress
        progress = replace(progress, run_id=runs[0].run_id)
    assert progress.run_id is not None
    page = instance.get_records_for_run(progress.run_id, cursor=progress.cursor, limit=500)
    return replace(follow(progress, log_entries(page.records)), cursor=page.cursor)


def log_entries(
    records: Iterable[dg.EventLogRecord],
) -> list[tuple[str | None, str | None, str]]:
    """(event type or None for a plain log line, step key, message) of each record."""
    return [
        (
            r.event_log_entry.dagster_event.event_type_value
            if r.event_log_entry.dagster_event
            else None,
            r.event_log_entry.step_key,
            r.event_log_entry.user_message,
        )
        for r in records
    ]
