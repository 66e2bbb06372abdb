"""Hostile input fuzzing (over 200 generated inputs): each file is ingested correctly or
skipped with a one-line reason, each tenant name and query gets a clear error or a correct
answer, and no stored row of another document or tenant changes."""

import random

import pytest

from raag_assets.core.errors import InvalidTenant, RaagError
from raag_assets.pipeline.run import ingest
from raag_assets.retrieval.candidates import RetrievalPlan, retrieve
from raag_assets.retrieval.search import search
from resources import LandingResource
from tests import hostile
from tests.conftest import EXAMPLES

BASELINE = ("expenses", "wfh-policy")
ROWS = {
    "documents": "SELECT doc_id, content_hash, text, tags, metadata FROM documents "
    "WHERE tenant_id = %s AND doc_id = ANY(%s) ORDER BY doc_id",
    "sections": "SELECT section_id, text FROM sections WHERE tenant_id = %s AND doc_id = ANY(%s) "
    "ORDER BY section_id",
    "chunks": "SELECT doc_id, chunk_index, content, embedding::text FROM chunks "
    "WHERE tenant_id = %s AND doc_id = ANY(%s) ORDER BY doc_id, chunk_index",
}


@pytest.fixture(scope="module")
def fuzzed(make_store, tmp_path_factory):
    """A store holding two baseline documents, then every hostile file landed on top."""
    store = make_store()
    resources = {
        **store.resources,
        "landing": LandingResource(root=str(store.landing_root), max_file_mb=1.0),
    }
    base = tmp_path_factory.mktemp("baseline")
    for name in ("expenses.txt", "wfh-policy.md"):
        (base / name).write_bytes((EXAMPLES / name).read_bytes())
    assert ingest([base], "fuzz", resources=resources, instance=store.instance).success
    before = {k: store.rows(q, "fuzz", list(BASELINE)) for k, q in ROWS.items()}
    files = hostile.files(random.Random(7))
    folder = tmp_path_factory.mktemp("hostile")
    for name, data in files.items():
        (folder / name).write_bytes(data)
    summary = ingest([folder], "fuzz", resources=resources, instance=store.instance)
    return store, resources, files, before, summary


def test_every_hostile_file_is_ingested_or_skipped_with_a_reason(fuzzed):
    store, _, files, before, summary = fuzzed
    assert summary.success, summary.error
    assert all(summary.checks.values()), summary.checks
    stored = {
        r[0]
        for r in store.rows(
            "SELECT source_name FROM documents WHERE tenant_id = 'fuzz' AND version_of IS NULL"
        )
    }
    reasons = {name.rsplit("/", 1)[-1]: reason for name, reason in summary.skipped}
    unaccounted = [n for n in files if n not in stored and n not in reasons]
    assert unaccounted == []
    for name in files:
        if name in reasons:  # a clear error: one line that says what is wrong
            assert reasons[name].strip() and "\n" not in reasons[name], (name, reasons[name])
    # ingested ones are whole: sections and embedded chunks (the checks above), text kept
    assert store.rows(
        "SELECT count(*) FROM documents d WHERE tenant_id = 'fuzz' AND NOT EXISTS "
        "(SELECT 1 FROM chunks c WHERE c.tenant_id = d.tenant_id AND c.doc_id = d.doc_id)"
    ) == [(0,)]
    kinds = {name.split("-")[0] for name in files if name in stored}
    kinds_skipped = {name.split("-")[0] for name in files if name in reasons}
    assert {"bidi", "encoding", "nested", "metadata"} <= kinds  # these are documents
    assert {"truncated", "random", "enormous"} <= kinds_skipped
    # nothing of the baseline documents changed
    assert {k: store.rows(q, "fuzz", list(BASELINE)) for k, q in ROWS.items()} == before
    # hostile but valid metadata is stored as given, never executed
    tags = store.rows(
        "SELECT tags FROM documents WHERE tenant_id = 'fuzz' AND doc_id = 'metadata-00'"
    )
    assert "<script>alert(1)</script>" in tags[0][0]
    print(f"\n{len(files)} hostile files: {len(files) - len(reasons)} in, {len(reasons)} skipped")


def test_hostile_tenant_names_are_refused_without_side_effects(fuzzed):
    store, resources, _, _, _ = fuzzed
    names = hostile.tenants(random.Random(7))
    landing_before = sorted(p.name for p in store.landing_root.iterdir())
    tenants_before = store.rows("SELECT tenant_id FROM tenants ORDER BY 1")
    for name in names:
        with pytest.raises(InvalidTenant, match="invalid tenant id"):
            ingest([EXAMPLES / "expenses.txt"], name, resources=resources, instance=store.instance)
        with pytest.raises(InvalidTenant):
            search("leave", name, conn=None)
    assert sorted(p.name for p in store.landing_root.iterdir()) == landing_before
    assert store.rows("SELECT tenant_id FROM tenants ORDER BY 1") == tenants_before
    assert len(names) >= 30


def test_hostile_queries_and_filters_answer_or_fail_clearly(fuzzed, embedder):
    store, _, _, before, _ = fuzzed
    rng = random.Random(7)
    queries = hostile.queries(rng)
    answered = refused = 0
    with store.connect() as conn:
        tenant_docs = {
            r[0] for r in conn.execute("SELECT doc_id FROM documents WHERE tenant_id = 'fuzz'")
        }
        for i, q in enumerate(queries):
            plan = RetrievalPlan(
                tags_any=(rng.choice(hostile.SQL),) if i % 3 == 0 else (),
                metadata={rng.choice(hostile.SQL): rng.choice(hostile.TRAVERSAL)}
                if i % 4 == 0
                else {},
            )
            for call in (
                lambda q=q, plan=plan: retrieve(conn, q, "fuzz", embedder.embed, plan),
                lambda q=q: search(
                    q, "fuzz", conn=conn, embed=embedder.embed, scope_context=q[:50]
                ),
            ):
                try:
                    out = call()
                except RaagError as exc:
                    refused += 1
                    assert str(exc).strip() and "\n" not in str(exc)
                    continue
                answered += 1
                rows = out if isinstance(out, list) else out.results
                assert {
                    r.doc_id if hasattr(r, "doc_id") else r["doc_id"] for r in rows
                } <= tenant_docs
    assert answered + refused == 2 * len(queries) and answered > 0
    assert {k: store.rows(q, "fuzz", list(BASELINE)) for k, q in ROWS.items()} == before
