"""Ingest through Dagster into real Postgres: partitions, idempotence, change detection,
determinism, and bad input that loses nothing."""

import gc
import shutil
import threading
from pathlib import Path

import pytest

from raag_assets.core.errors import InvalidTenant
from raag_assets.core.settings import run_executor
from raag_assets.pipeline.run import GC_THRESHOLD, fewer_collections
from tests.conftest import EXAMPLES, LICENSES, Store, at_once, copy_examples

CHUNK_ROWS = (
    "SELECT doc_id, chunk_index, section_id, content, content_hash, token_count, tags, "
    "metadata, embedding::text FROM chunks WHERE tenant_id = %s ORDER BY doc_id, chunk_index"
)
SECTION_ROWS = (
    "SELECT section_id, doc_id, ordinal, label, heading, level, parent_id, page_start, "
    "page_end, text FROM sections WHERE tenant_id = %s ORDER BY doc_id, ordinal"
)
EDGE_ROWS = (
    "SELECT stage, ordinal, edge_id, edge_type, layer, src_section_id, dst_doc_id, "
    "dst_section_id, term, matched_text, confidence FROM edges WHERE tenant_id = %s "
    "ORDER BY stage, ordinal"
)


def test_example_corpus_is_stored_in_tenant_partitions(demo_store: Store):
    docs = demo_store.rows("SELECT doc_id, format FROM documents__demo ORDER BY doc_id")
    assert docs == [
        ("expenses", "text"),
        ("hr-processes-handbook", "pdf"),
        ("leave-amendment-2025", "markdown"),
        ("leave-policy", "markdown"),
        ("leave-policy-rev-a", "markdown"),
        ("wfh-policy", "markdown"),
    ]
    [(chunks, embedded)] = demo_store.rows(
        "SELECT count(*), count(embedding) FROM chunks WHERE tenant_id = 'demo'"
    )
    assert chunks == embedded > 30
    [(parts,)] = demo_store.rows(
        "SELECT count(*) FROM pg_inherits WHERE inhparent = 'chunks'::regclass"
    )
    assert parts == 3  # demo, licenses, gold


def test_schema_indexes_and_migrations(demo_store: Store):
    indexes = {
        r[0]: r[1]
        for r in demo_store.rows(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'chunks__demo'"
        )
    }
    assert any(
        "hnsw (embedding vector_cosine_ops) WITH (m='16', ef_construction='128')" in d
        for d in indexes.values()
    )
    assert any("gin (tsv)" in d for d in indexes.values())
    assert any("(tenant_id, content_hash)" in d for d in indexes.values())
    assert demo_store.rows("SELECT version FROM schema_migrations") == [
        ("001_init",),
        ("002_graph",),
        ("003_stage_fingerprints",),
        ("004_tenant_readers",),
        ("005_document_versions",),
        ("006_api_keys",),
        ("007_live_chunk_counts",),
        ("008_document_dates",),
        ("009_heading_vectors",),
        ("010_char_offsets",),
        ("011_supersedes_index",),
        ("012_chunks_generation",),
        ("013_edge_rules",),
        ("014_api_key_lifecycle",),
        ("015_run_failures",),
        ("016_drop_tenant_locks",),
        ("017_hnsw_ef_construction",),
        ("018_documents_generation",),
        ("019_chunks_content_hash",),
    ]
    # search() looks up superseded documents on every query: a partial index, not a scan
    (edge_index,) = demo_store.rows(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'edges__demo' "
        "AND indexdef LIKE '%supersedes%'"
    )
    assert "(tenant_id, dst_doc_id) WHERE (edge_type = 'supersedes'::text)" in edge_index[0]


def test_reingest_changes_nothing_and_a_changed_file_reembeds_only_its_chunks(
    make_store, demo_store: Store, tmp_path: Path
):
    store = make_store()
    corpus = copy_examples(tmp_path / "corpus")
    first = store.ingest([corpus], "acme")
    assert first.success and first.stages["embeddings"]["embedded_now"] == first.counts["chunks"]
    # steps in one process: the chunks were embedded while the graph stages ran (prefetch)
    in_one_process = run_executor() == "in_process"
    ahead = first.stages["embeddings"]["embedded_ahead"]
    texts = first.stages["embeddings"]["texts_embedded"]
    assert ahead == (texts if in_one_process else 0)
    assert first.checks == {
        "documents:no_earlier_version_live": True,
        "sections:counts_match": True,
        "edges:edge_endpoints_exist": True,
        "term_uses:edge_endpoints_exist": True,
        "topic_links:edge_endpoints_exist": True,
        "embeddings:every_chunk_embedded": True,
        "resolved_references:edge_endpoints_exist": True,
        "resolved_references:parked_references_counted": True,
    }
    before = store.rows(CHUNK_ROWS, "acme"), store.rows(SECTION_ROWS, "acme")
    edges_before = store.rows(EDGE_ROWS, "acme")

    # Determinism: a different store built from the same files holds the same rows.
    assert before == (demo_store.rows(CHUNK_ROWS, "demo"), demo_store.rows(SECTION_ROWS, "demo"))
    assert edges_before == demo_store.rows(EDGE_ROWS, "demo")

    # nothing changed (files, code, settings, the graph stages' inputs): no run is launched
    runs = len(store.instance.get_run_records())
    same = store.ingest([corpus], "acme")
    assert same.success and same.up_to_date and same.run_id == first.run_id
    assert same.counts == first.counts and not same.stages
    assert len(store.instance.get_run_records()) == runs

    again = store.ingest([corpus], "acme", force=True)  # a run all the same
    assert again.success and not again.up_to_date and again.run_id != first.run_id
    assert again.stages["documents"]["unchanged"] == 6
    assert again.stages["embeddings"]["embedded_now"] == 0
    assert again.checks == first.checks  # checked on unchanged runs too
    assert (store.rows(CHUNK_ROWS, "acme"), store.rows(SECTION_ROWS, "acme")) == before
    assert store.rows(EDGE_ROWS, "acme") == edges_before  # same ids, same order

    wfh = corpus / "wfh-policy.md"
    wfh.write_text(
        wfh.read_text(encoding="utf-8").replace("a laptop and a headset", "a laptop and a monitor"),
        encoding="utf-8",
    )
    changed = store.ingest([corpus], "acme")
    assert changed.stages["documents"]["changed"] == 1
    new_rows = store.rows(CHUNK_ROWS, "acme")
    old_by_key = {(r[0], r[1]): r for r in before[0]}
    differing = {r[0] for r in new_rows if old_by_key.get((r[0], r[1])) != r}
    # the live document changed; the version it replaced is kept under its own id
    assert differing == {"wfh-policy", "wfh-policy@v1"}
    assert [r[3] for r in new_rows if r[0] == "wfh-policy@v1"] == [
        r[3] for r in before[0] if r[0] == "wfh-policy"
    ]
    new_rows = [r for r in new_rows if r[0] != "wfh-policy@v1"]
    reembedded = changed.stages["embeddings"]["embedded_now"]
    changed_chunks = sum(
        1
        for r in new_rows
        if r[0] == "wfh-policy" and old_by_key.get((r[0], r[1]), (None,) * 5)[4] != r[4]
    )
    assert 1 <= reembedded == changed_chunks < len([r for r in new_rows if r[0] == "wfh-policy"])


def test_bad_files_are_skipped_with_reasons_and_nothing_stored_is_lost(make_store, tmp_path: Path):
    store = make_store()
    good = tmp_path / "good"
    good.mkdir()
    shutil.copy(EXAMPLES / "expenses.txt", good / "expenses.txt")
    shutil.copy(EXAMPLES / "wfh-policy.md", good / "wfh-policy.md")
    assert store.ingest([good], "ops").success
    stored = store.rows(CHUNK_ROWS, "ops")

    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.pdf").write_bytes(b"")
    (bad / "corrupt.pdf").write_bytes(b"%PDF-1.4\n1 0 obj <<\n broken")
    (bad / "junk.txt").write_bytes(bytes(range(256)) * 100)
    (bad / "latin1.txt").write_bytes("Politique de cong\xe9s".encode("latin-1"))
    with (bad / "huge.txt").open("wb") as fh:
        fh.truncate(200_000_000)
    # a name with quotes is read into a safe id; an unsafe id given in metadata is refused
    (bad / 'it\'s "quoted".md').write_text("# Quoted\nA file with quotes in its name.\n")
    (bad / "hostile-id.md").write_text("---\ndoc_id: ../../etc/passwd\n---\n# X\nText.\n")
    # The stored expenses.txt is replaced by junk: it is skipped and its rows stay.
    (bad / "expenses.txt").write_bytes(b"\x00\x01\x02" * 1000)
    escape = tmp_path / "bad" / ".." / "escape.md"
    escape.write_text("# Escape\nThis tries to leave the landing folder.\n")
    new = tmp_path / "new.md"
    new.write_text("# New Doc\n\n## 1 Scope\nThis one is fine.\n")

    summary = store.ingest([bad, escape, new], "ops")
    assert summary.success
    reasons = dict(summary.skipped)
    assert reasons["empty.pdf"] == "empty file (0 bytes)"
    assert reasons["corrupt.pdf"].startswith("not a readable PDF")
    assert reasons["junk.txt"].startswith("binary data")
    assert reasons["latin1.txt"].startswith("not UTF-8 text")
    assert reasons["huge.txt"].startswith("file is 200.0 MB")
    assert reasons["expenses.txt"].startswith("binary data")
    assert reasons["hostile-id.md"].startswith("unsafe doc_id '../../etc/passwd' from metadata")
    assert 'it\'s "quoted".md' not in reasons
    assert all("\n" not in r for r in reasons.values())
    # escape.md landed inside the tenant folder under its base name, nowhere else
    assert (store.landing_root / "ops" / "escape.md").is_file()
    assert not (store.landing_root / "escape.md").exists()

    docs = [r[0] for r in store.rows("SELECT doc_id FROM documents__ops ORDER BY doc_id")]
    assert docs == ["escape", "expenses", "its quoted", "new", "wfh-policy"]
    after = {r[0]: r for r in store.rows(CHUNK_ROWS, "ops")}
    assert [r for r in stored if r[0] == "expenses"] == [
        r for r in store.rows(CHUNK_ROWS, "ops") if r[0] == "expenses"
    ]
    assert set(after) == {"escape", "expenses", "its quoted", "new", "wfh-policy"}


def test_a_refused_copy_keeps_a_document_its_metadata_named(make_store, tmp_path: Path):
    store = make_store()
    notes = tmp_path / "notes.md"
    notes.write_text("---\ndoc_id: team-notes\n---\n# Notes\n\n## 1 Scope\nKept.\n")
    assert store.ingest([notes], "named").success
    notes.write_bytes(b"\x00\x01\x02" * 1000)  # the same file, now unreadable
    summary = store.ingest([notes], "named")
    assert dict(summary.skipped)["notes.md"].startswith("binary data")
    docs = [r[0] for r in store.rows("SELECT doc_id FROM documents__named ORDER BY doc_id")]
    assert docs == ["team-notes"]


def test_removed_file_removes_its_rows(make_store, tmp_path: Path):
    store = make_store()
    shutil.copy(EXAMPLES / "expenses.txt", tmp_path / "expenses.txt")
    assert store.ingest([tmp_path / "expenses.txt"], "gone").counts["documents"] == 1
    (store.landing_root / "gone" / "expenses.txt").unlink()
    summary = store.ingest([], "gone")
    assert summary.counts == {
        "documents": 0,
        "earlier_versions": 0,
        "sections": 0,
        "chunks": 0,
        "embedded": 0,
    }


@pytest.mark.parametrize("tenant", ["x'; DROP TABLE chunks; --", "Demo", "a/b"])
def test_hostile_tenant_refused_before_anything_is_written(make_store, tenant: str):
    store = make_store()
    with pytest.raises(InvalidTenant):
        store.ingest([LICENSES / "MPL-2.0"], tenant)
    assert not any(store.landing_root.iterdir())
    with store.connect() as conn:
        assert conn.execute("SELECT count(*) FROM tenants").fetchone() == (0,)
        # and the database refuses it too, should anything bypass the Python check
        with pytest.raises(Exception, match="invalid tenant id"):
            conn.execute("SELECT raag_add_tenant(%s)", [tenant])


def test_tenants_are_isolated(demo_store: Store):
    demo = {r[0] for r in demo_store.rows("SELECT DISTINCT doc_id FROM chunks__demo")}
    licenses = {r[0] for r in demo_store.rows("SELECT DISTINCT doc_id FROM chunks__licenses")}
    assert licenses == {"GPL-3", "MPL-2.0"}
    assert not demo & licenses


def test_tenant_reader_sees_one_tenant_and_postgres_refuses_the_rest(demo_store: Store):
    import psycopg

    from raag_assets.store import db

    with demo_store.connect() as conn:
        with db.tenant_reader(conn, "demo"):
            assert conn.execute("SELECT DISTINCT tenant_id FROM chunks").fetchall() == [("demo",)]
            assert conn.execute("SELECT tenant_id FROM tenants").fetchall() == [("demo",)]
            # the indexes stay usable (row-level security's barrier would forbid them)
            conn.execute("SET LOCAL enable_seqscan = off")
            plan = " ".join(
                r[0]
                for r in conn.execute(
                    "EXPLAIN SELECT doc_id FROM chunks WHERE tsv @@ to_tsquery('simple', 'leav')"
                )
            )
            assert "tsv_idx" in plan
        for forbidden in ("public.chunks", '"chunks__licenses"', "tenant_licenses.chunks"):
            with (
                pytest.raises(psycopg.errors.InsufficientPrivilege),
                db.tenant_reader(conn, "demo"),
            ):
                conn.execute(f"SELECT count(*) FROM {forbidden}")


def test_concurrent_ingests_of_one_tenant_take_turns(make_store, tmp_path: Path):
    """Two ingests of one new tenant at once (`raag ingest a/ --tenant t & raag ingest b/
    --tenant t`), ten times over, each pair on a new tenant: both succeed every time and the
    tenant holds both folders' documents, as one ingest of both would leave it."""
    store = make_store()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(EXAMPLES / "expenses.txt", tmp_path / "a")
    shutil.copy(EXAMPLES / "wfh-policy.md", tmp_path / "b")
    reference = store.ingest([tmp_path / "a", tmp_path / "b"], "reference")
    assert reference.success, reference.error
    for n in range(10):
        tenant = f"pair-{n}"
        results = at_once([lambda f=f, t=tenant: store.ingest([tmp_path / f], t) for f in "ab"])
        for folder, result in zip("ab", results, strict=True):
            assert not isinstance(result, Exception), f"pair {n}, {folder}: {result!r}"
            assert result.success, f"pair {n}, {folder}: {result.error}"
        counts = store.rows(
            "SELECT count(*), sum(sections) FROM (SELECT doc_id, (SELECT count(*) FROM sections s"
            " WHERE s.tenant_id = d.tenant_id AND s.doc_id = d.doc_id) AS sections"
            " FROM documents d WHERE tenant_id = %s) AS x",
            tenant,
        )
        assert counts == [(2, reference.counts["sections"])], n
        assert store.rows(
            "SELECT count(*) FROM chunks WHERE tenant_id = %s AND embedding IS NOT NULL", tenant
        ) == [(reference.counts["chunks"],)]


def test_a_plain_text_standard_keeps_its_indent_through_the_store(make_store, tmp_path: Path):
    """Lines are stored with their indent and the sections stage reads them back: a request
    named over its indented fields stays an item of its section, as build_sections finds."""
    spec = tmp_path / "widgetproto.txt"
    spec.write_text(
        "The WIDGET Extension\nVersion 1.0\n\n1. Introduction\n\nWidgets watch drawables.\n\n"
        "2. Requests\n\nA client asks for its widgets.\n\nListWidgets\n\n"
        "\t\tdrawable:\tDrawable\n\t\tmask:\t\tCARD32\n\n\tReturns the widgets.\n"
    )
    store = make_store()
    assert store.ingest([spec], "spec").success
    [(lines,)] = store.rows("SELECT lines FROM documents WHERE tenant_id = 'spec'")
    assert [ln[6] for ln in lines if ln[0].startswith("drawable:")] == [16]
    labels = [
        r[0]
        for r in store.rows("SELECT label FROM sections WHERE tenant_id = 'spec' ORDER BY ordinal")
    ]
    assert labels == ["Title", "1", "2"]


def test_the_collector_is_set_back_when_the_last_of_overlapping_ingests_ends():
    """fewer_collections (around every ingest): the collector passes less often and skips
    what was alive before, until the last of overlapping runs ends; then it is as it was."""
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    inside, leave = threading.Event(), threading.Event()

    def other_run() -> None:
        with fewer_collections():
            inside.set()
            leave.wait(5)

    with fewer_collections():
        assert gc.get_threshold() == (GC_THRESHOLD, *before[1:])
        assert gc.get_freeze_count() > 0  # the objects alive before the run
        thread = threading.Thread(target=other_run)
        thread.start()
        assert inside.wait(5)
    assert gc.get_threshold()[0] == GC_THRESHOLD  # the other run goes on
    leave.set()
    thread.join(5)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_an_ingest_leaves_a_callers_frozen_objects_frozen():
    gc.freeze()
    try:
        with fewer_collections():
            pass
        assert gc.get_freeze_count() > 0  # not unfrozen: the caller froze them, not the run
    finally:
        gc.unfreeze()


def test_without_prefetch_a_run_embeds_in_its_step_and_stores_the_same_vectors(
    make_store, demo_store: Store, monkeypatch
):
    # demo_store was built with the default, RAAG_EMBED_PREFETCH=auto
    monkeypatch.setenv("RAAG_EMBED_PREFETCH", "off")
    store = make_store()
    summary = store.ingest([EXAMPLES], "demo")
    assert summary.success and summary.stages["embeddings"]["embedded_ahead"] == 0
    assert summary.stages["embeddings"]["embedded_now"] == summary.counts["chunks"]
    # the vectors, to the last digit Postgres prints, whichever thread embedded them
    assert store.rows(CHUNK_ROWS, "demo") == demo_store.rows(CHUNK_ROWS, "demo")


def test_chunks_of_the_same_text_are_embedded_once_and_share_the_vector(make_store, tmp_path: Path):
    # two versions of one licence, which repeat most of their clauses word for word
    for name in ("GFDL-1.2", "GFDL-1.3"):
        shutil.copy(LICENSES / name, tmp_path / name)
    store = make_store()
    summary = store.ingest([tmp_path], "once")
    assert summary.success
    stage = summary.stages["embeddings"]
    rows = store.rows(
        "SELECT content, embedding::text FROM chunks WHERE tenant_id = %s "
        "ORDER BY doc_id, chunk_index",
        "once",
    )
    distinct = {content for content, _ in rows}
    assert stage["embedded_now"] == summary.counts["chunks"] == len(rows)
    assert stage["texts_embedded"] == len(distinct) < len(rows)
    vectors: dict[str, set[str]] = {}
    for content, vector in rows:
        vectors.setdefault(content, set()).add(vector)
    assert all(len(v) == 1 for v in vectors.values())  # one vector per text, wherever it is


def test_a_later_run_gives_new_chunks_the_vector_the_tenant_holds_for_their_text(
    make_store, tmp_path: Path
):
    shutil.copy(LICENSES / "GFDL-1.3", tmp_path / "GFDL-1.3")
    store = make_store()
    first = store.ingest([tmp_path], "reuse")
    assert first.success and first.stages["sections"]["embeddings_reused"] == 0
    query = (
        "SELECT doc_id, content, embedding::text FROM chunks WHERE tenant_id = %s "
        "ORDER BY doc_id, chunk_index"
    )
    before = store.rows(query, "reuse")
    known = {content: vector for _, content, vector in before}

    # the earlier version arrives later, under its own name: most of its clauses are known
    shutil.copy(LICENSES / "GFDL-1.2", tmp_path / "GFDL-1.2")
    second = store.ingest([tmp_path], "reuse")
    assert second.success
    new = [row for row in store.rows(query, "reuse") if row not in before]
    reused = [row for row in new if row[1] in known]
    assert 0 < second.stages["sections"]["embeddings_reused"] == len(reused) < len(new)
    assert all(vector == known[content] for _, content, vector in reused)
    stage = second.stages["embeddings"]
    assert stage["embedded_now"] == len(new) - len(reused)
    assert stage["texts_embedded"] == len({content for _, content, _ in new} - set(known))
