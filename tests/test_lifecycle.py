"""Retracting a document and dropping a tenant: only what was asked goes."""

import shutil

import pytest

from raag_assets import graph_store
from raag_assets.errors import DocumentNotFound, TenantNotFound
from raag_assets.ingest import delete_document, drop_tenant
from tests.conftest import EXAMPLES

SECTIONS = "SELECT section_id, text FROM sections WHERE tenant_id = %s AND doc_id = %s ORDER BY 1"
CHUNKS = "SELECT chunk_index, embedding::text FROM chunks WHERE tenant_id = %s AND doc_id = %s"


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
