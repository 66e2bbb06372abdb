"""Retracting a document and dropping a tenant: only what was asked goes."""

import datetime as dt
import shutil

import pytest

from raag_assets.core.errors import DocumentNotFound, TenantNotFound
from raag_assets.pipeline.run import delete_document, drop_tenant
from raag_assets.retrieval.search import search
from raag_assets.store import graph as graph_store
from tests.conftest import EXAMPLES

SECTIONS = "SELECT section_id, text FROM sections WHERE tenant_id = %s AND doc_id = %s ORDER BY 1"
CHUNKS = "SELECT chunk_index, embedding::text FROM chunks WHERE tenant_id = %s AND doc_id = %s "
CHUNKS += "ORDER BY chunk_index"


def test_delete_document_retracts_it_and_parks_references_again(make_store, tmp_path):
    store = make_store()
    for name in ("leave-policy.md", "hr-processes-handbook.pdf"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    assert store.ingest([tmp_path], "hr").success
    kept = store.rows(SECTIONS, "hr", "leave-policy"), store.rows(CHUNKS, "hr", "leave-policy")
    with store.connect() as conn:
        assert not [
            r for _, r, s in graph_store.unresolved(conn, "hr") if "Handbook" in r.normalized_target
        ]

    summary = delete_document(
        "hr", "hr-processes-handbook", resources=store.resources, instance=store.instance
    )
    assert summary.success and summary.counts["documents"] == 1
    assert store.rows(SECTIONS, "hr", "hr-processes-handbook") == []
    assert (
        store.rows(SECTIONS, "hr", "leave-policy"),
        store.rows(CHUNKS, "hr", "leave-policy"),
    ) == kept
    with store.connect() as conn:
        edges = graph_store.edges(conn, "hr")
        parked = [r.normalized_target for _, r, _ in graph_store.unresolved(conn, "hr")]
    assert not any(e["dst_doc_id"] == "hr-processes-handbook" for e in edges)
    assert "5.1 of the HR Processes Handbook" in parked
    assert not (store.landing_root / "hr" / "hr-processes-handbook.pdf").exists()
    with pytest.raises(DocumentNotFound):
        delete_document("hr", "nope", resources=store.resources, instance=store.instance)


def test_drop_tenant_removes_only_that_tenant(make_store, tmp_path):
    store = make_store()
    shutil.copy(EXAMPLES / "expenses.txt", tmp_path / "expenses.txt")
    assert store.ingest([tmp_path / "expenses.txt"], "keep").success
    assert store.ingest([tmp_path / "expenses.txt"], "gone").success
    kept = store.rows("SELECT * FROM chunks__keep ORDER BY chunk_index")
    drop_tenant("gone", resources=store.resources, instance=store.instance)
    assert store.rows("SELECT tenant_id FROM tenants") == [("keep",)]
    partitions = "SELECT count(*) FROM pg_class WHERE relname LIKE '%\\_\\_gone'"
    assert store.rows(partitions) == [(0,)]
    assert store.rows("SELECT count(*) FROM pg_namespace WHERE nspname = 'tenant_gone'") == [(0,)]
    roles = "SELECT count(*) FROM pg_roles WHERE rolname = raag_reader_role('gone')"
    assert store.rows(roles) == [(0,)]
    assert store.rows("SELECT * FROM chunks__keep ORDER BY chunk_index") == kept
    assert not store.instance.has_dynamic_partition("tenants", "gone")
    assert not (store.landing_root / "gone").exists()
    with pytest.raises(TenantNotFound):
        drop_tenant("gone", resources=store.resources, instance=store.instance)


TRAVEL = "# Travel Rules\n\n## 1 Trains\n\nStaff travel {cls} class on trains.\n\n## 2 Hotels\n\n"
TRAVEL += "Hotels cost up to 120 euros per night.\n"
DOCS = "SELECT doc_id, version, version_of, effective_from, effective_to FROM documents "
DOCS += "WHERE tenant_id = %s ORDER BY doc_id"


def test_a_changed_file_becomes_a_new_version_and_the_old_one_answers_as_of_queries(
    make_store, embedder, tmp_path
):
    store = make_store()
    shutil.copy(EXAMPLES / "expenses.txt", tmp_path / "expenses.txt")
    travel = tmp_path / "travel.md"
    travel.write_text(TRAVEL.format(cls="second"), encoding="utf-8")
    assert store.ingest([tmp_path], "ver").success
    other = store.rows(SECTIONS, "ver", "expenses"), store.rows(CHUNKS, "ver", "expenses")

    travel.write_text(TRAVEL.format(cls="first"), encoding="utf-8")
    summary = store.ingest([tmp_path], "ver")
    assert summary.success and all(summary.checks.values())
    assert summary.stages["documents"]["earlier_versions_kept"] == ["travel@v1"]
    today = dt.date.today()
    yesterday = today - dt.timedelta(days=1)
    assert store.rows(DOCS, "ver") == [
        # expenses states its date: "Version 2, issued 15 August 2024"
        ("expenses", 1, None, dt.date(2024, 8, 15), None),
        ("travel", 2, None, today, None),
        ("travel@v1", 1, "travel", None, yesterday),
    ]
    with store.connect() as conn:
        supersedes = [
            (e["src_doc_id"], e["dst_doc_id"])
            for e in graph_store.edges(conn, "ver")
            if e["edge_type"] == "supersedes" and e["src_section_id"] is None
        ]
        # each section of the earlier version is linked to the one that replaced it
        linked = {
            (e["src_label"], e["dst_doc_id"], e["dst_label"])
            for e in graph_store.edges(conn, "ver")
            if e["edge_type"] == "supersedes" and e["src_section_id"] is not None
        }
        live = search(
            "which class do staff travel on trains", "ver", conn=conn, embed=embedder.embed
        )
        then = search(
            "which class do staff travel on trains",
            "ver",
            as_of_date=yesterday,
            conn=conn,
            embed=embedder.embed,
        )
    assert supersedes == [("travel", "travel@v1")]
    v1_labels = {
        r[0]
        for r in store.rows(
            "SELECT label FROM sections WHERE tenant_id = %s AND doc_id = %s", "ver", "travel@v1"
        )
    }
    assert v1_labels
    assert {(label, "travel@v1", label) for label in v1_labels} <= linked
    # live search never shows the earlier version; as-of search finds it and prefers it
    assert {r["doc_id"] for r in live.results} <= {"travel", "expenses"}
    assert live.results[0]["doc_id"] == "travel" and "first class" in live.results[0]["text"]
    assert then.results[0]["doc_id"] == "travel@v1" and "second class" in then.results[0]["text"]
    # nothing of another document changed
    assert (store.rows(SECTIONS, "ver", "expenses"), store.rows(CHUNKS, "ver", "expenses")) == other

    travel.write_text(TRAVEL.format(cls="economy"), encoding="utf-8")
    assert store.ingest([tmp_path], "ver").success
    with store.connect() as conn:
        chain = sorted(
            (e["src_doc_id"], e["dst_doc_id"])
            for e in graph_store.edges(conn, "ver")
            if e["edge_type"] == "supersedes" and e["src_section_id"] is None
        )
    assert chain == [("travel", "travel@v2"), ("travel@v2", "travel@v1")]

    # a removed file takes its earlier versions with it
    (store.landing_root / "ver" / "travel.md").unlink()
    summary = store.ingest([], "ver")
    assert summary.success and summary.counts["earlier_versions"] == 0
    assert [r[0] for r in store.rows(DOCS, "ver")] == ["expenses"]
    assert (store.rows(SECTIONS, "ver", "expenses"), store.rows(CHUNKS, "ver", "expenses")) == other
