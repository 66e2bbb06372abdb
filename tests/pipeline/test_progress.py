"""The ingest progress read from a run's event log: the stage that is running, and while
embedding a count that moves with each committed batch."""

import datetime as dt
import shutil

import dagster as dg

from raag_assets.pipeline.progress import RunProgress, follow, log_entries, poll
from raag_assets.store import documents as store_documents
from tests.conftest import EXAMPLES

START = dg.DagsterEventType.STEP_START.value


def test_the_stage_is_named_and_no_embedding_count_shows_before_embedding_starts():
    state = follow(RunProgress(), [(START, "sections", ""), (START, "edges", "")])
    assert state.label == "extracting the graph (patterns, spaCy)"
    assert not state.embedding  # the graph stage runs: no "embedding 0/N" standing still
    state = follow(state, [(START, "embeddings", "")])
    assert state.label == "embedding chunks" and not state.embedding
    state = follow(state, [(None, "embeddings", "embedded 8/20 chunks")])
    assert state.embedding and (state.embedded, state.to_embed) == (8, 20)
    state = follow(state, [(None, "edges", "embedded 9/9 chunks"), (START, "term_uses", "")])
    assert not state.embedding and state.embedded == 8  # another step's line is not a count


def test_a_real_run_logs_a_count_per_embedding_batch(make_store, monkeypatch, tmp_path):
    monkeypatch.setattr(store_documents, "EMBED_BATCH", 4)
    store = make_store()
    shutil.copy(EXAMPLES / "leave-policy.md", tmp_path / "leave-policy.md")
    since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    summary = store.ingest([tmp_path], "progress")
    assert summary.success
    chunks = summary.counts["chunks"]
    assert chunks > 8  # several batches
    # each chunk opens with its own section's heading: no two share a text, so a batch of
    # four texts is four chunks
    assert summary.stages["embeddings"]["texts_embedded"] == chunks

    # what the CLI's poller reads, record by record as the run wrote them
    state = poll(store.instance, "progress", since, RunProgress())
    assert state.run_id == summary.run_id
    assert state.embedded == state.to_embed == chunks
    records = store.instance.get_records_for_run(summary.run_id).records
    seen, state = [], RunProgress()
    for entry in log_entries(records):
        state = follow(state, [entry])
        if state.embedding and (not seen or seen[-1] != state.embedded):
            seen.append(state.embedded)
    assert seen == [0, *(min(n, chunks) for n in range(4, chunks + 4, 4))]  # one per batch
