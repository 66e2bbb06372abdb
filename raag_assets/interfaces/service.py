"""What the REST and MCP adapters expose, as plain functions over the library: each opens a
connection, reads as the tenant's reader role, and returns JSON-ready values. The adapters
add transport, validation and authentication; no behaviour of their own."""

import hashlib
import json
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg

from raag_assets.core.errors import DocumentNotFound, InvalidFilter, RaagError
from raag_assets.core.model import EDGE_TYPES
from raag_assets.retrieval import candidates as retrieval
from raag_assets.retrieval.candidates import Mode, RetrievalPlan
from raag_assets.retrieval.passages import context_pack
from raag_assets.retrieval.search import default_embed, default_embedder, search
from raag_assets.store import db
from raag_assets.store import documents as store
from raag_assets.store import graph as graph_store


class Unauthorized(RaagError):
    """A missing API key, or one that does not belong to the tenant asked for."""


@contextmanager
def reading(tenant: str, url: str | None = None) -> Iterator[psycopg.Connection]:
    with db.connect(url) as conn, db.tenant_reader(conn, tenant):
        yield conn


# --- API keys ----------------------------------------------------------------------------


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def create_api_key(tenant: str, label: str = "", url: str | None = None) -> str:
    """A new key for `tenant`; only its hash is stored, so this is the one time it is seen."""
    key = "raag_" + secrets.token_urlsafe(32)
    with db.connect(url) as conn, conn.transaction():
        db.require_tenant(conn, tenant)
        conn.execute(
            db.load_sql("insert_api_key"),
            {"key_hash": _hash(key), "tenant": tenant, "label": label},
        )
    return key


def authorize(key: str | None, tenant: str, url: str | None = None) -> None:
    """Raise Unauthorized unless `key` is one of `tenant`'s keys."""
    if not key:
        raise Unauthorized("missing API key: send it in the X-API-Key header")
    with db.connect(url) as conn:
        row = conn.execute(
            db.load_sql("select_api_key_tenant"), {"key_hash": _hash(key)}
        ).fetchone()
    if row is None or row[0] != tenant:
        raise Unauthorized(f"this API key does not give access to tenant {tenant!r}")


# --- reads -------------------------------------------------------------------------------


def status(tenant: str, url: str | None = None) -> dict[str, Any]:
    """Counts, earlier versions and skipped files: what the last ingest left."""
    with db.connect(url) as conn:
        db.require_tenant(conn, tenant)
        counts = store.tenant_summary(conn, tenant)
        skipped = store.skipped_files(conn, tenant)
    return {
        "tenant": tenant,
        **counts,
        "skipped_files": [{"file": f, "reason": r} for f, r in skipped],
    }


def retrieve(
    tenant: str,
    query: str,
    *,
    k: int = 12,
    mode: Mode = "hybrid",
    tags_any: Sequence[str] = (),
    tags_all: Sequence[str] = (),
    metadata: dict[str, Any] | None = None,
    url: str | None = None,
) -> list[dict[str, Any]]:
    plan = RetrievalPlan(
        k=k, mode=mode, tags_any=tuple(tags_any), tags_all=tuple(tags_all), metadata=metadata or {}
    )
    with db.connect(url) as conn:
        found = retrieval.retrieve(conn, query, tenant, default_embed(), plan)
    return [{**c.as_dict(), "score": round(c.score, 6)} for c in found]


def search_results(tenant: str, query: str, url: str | None = None, **options: Any) -> dict:
    """search()'s EnrichedResults as canonical JSON values (rounded as in `to_json`)."""
    with db.connect(url) as conn:
        result = search(query, tenant, conn=conn, **options)
    return json.loads(result.to_json(indent=None))


def context(
    tenant: str,
    query: str,
    budget_tokens: int = 1024,
    redact: bool = False,
    url: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """search(), then its results packed under a token budget with [n] citations."""
    results = search_results(tenant, query, url, **options)["results"]
    counter = default_embedder().count_tokens
    pack = context_pack(results, budget_tokens, counter, redact=redact)
    return {
        "query": query,
        "tenant": tenant,
        "text": pack.text,
        "tokens": pack.tokens,
        "citations": pack.citations,
        "dropped": pack.dropped,
        "redactions": pack.redactions,
    }


def sections(tenant: str, doc_id: str | None = None, url: str | None = None) -> list[dict]:
    retrieval.check_text(doc_id, "doc_id")
    with reading(tenant, url) as conn:
        return store.sections(conn, tenant, doc_id)


def documents(tenant: str, url: str | None = None) -> list[dict[str, Any]]:
    """Every document and earlier version: source (its file name), dates, version,
    supersedes/amends both ways."""
    with reading(tenant, url) as conn:
        return store.documents(conn, tenant)


def unresolved(tenant: str, show_all: bool = False, url: str | None = None) -> list[dict]:
    """References no layer could resolve yet, with the reason (and, with `show_all`, those
    Layer 3 resolved since)."""
    with reading(tenant, url) as conn:
        labels = {s.section_id: s.label for s in graph_store.sections(conn, tenant)}
        return [
            {
                "src": {"doc_id": ref.src_doc_id, "label": labels.get(ref.src_section_id)},
                "kind": ref.kind,
                "matched_text": ref.matched_text,
                "normalized_target": ref.normalized_target,
                "target_doc": ref.target_doc,
                "target_label": ref.target_label,
                "status": status,
                "reason": ref.reason,
                "candidates": [{"section_id": c[0], "similarity": c[1]} for c in ref.candidates],
            }
            for _, ref, status in graph_store.unresolved(conn, tenant)
            if show_all or status == "parked"
        ]


def section(tenant: str, section_id: str, url: str | None = None) -> dict[str, Any]:
    """One section's text with every edge that touches it."""
    retrieval.check_text(section_id, "section_id")
    with reading(tenant, url) as conn:
        found = _section(conn, tenant, section_id)
        found["edges"] = [_edge(e) for e in graph_store.edges(conn, tenant, None, section_id)]
    return found


def edges(
    tenant: str,
    edge_type: str | None = None,
    section_id: str | None = None,
    limit: int = 500,
    url: str | None = None,
) -> list[dict[str, Any]]:
    retrieval.check_text(section_id, "section_id")
    with reading(tenant, url) as conn:
        return _edges(conn, tenant, edge_type, section_id, limit)


def follow(
    tenant: str, section_id: str, edge_type: str | None = None, url: str | None = None
) -> list[dict[str, Any]]:
    """The sections one edge away from `section_id` (either direction), with the edge."""
    retrieval.check_text(section_id, "section_id")
    out = []
    with reading(tenant, url) as conn:
        for e in _edges(conn, tenant, edge_type, section_id, 500):
            src, dst = e["src_section_id"], e["dst_section_id"]
            other = dst if src == section_id else src
            if other and other != section_id:
                out.append({"edge": e, "section": _section(conn, tenant, other)})
    return out


def show(
    tenant: str,
    doc_id: str,
    start: int = 0,
    end: int | None = None,
    url: str | None = None,
) -> dict[str, Any]:
    """A document's raw text, or the slice [start, end) of it: the text search results'
    char_start/char_end point into (the file as read for text and Markdown, the extracted
    text for PDFs, pages separated by form feeds)."""
    retrieval.check_text(doc_id, "doc_id")
    if start < 0 or (end is not None and end < start):
        raise InvalidFilter(f"need 0 <= from <= to, got from={start} to={end}")
    limit = 2**31 - 2  # Postgres substr takes int positions; no text is longer
    start, end = min(start, limit), None if end is None else min(end, limit)
    count = None if end is None else end - start
    with reading(tenant, url) as conn:
        cur = conn.execute(
            db.load_sql("select_document_text"),
            {
                "tenant": tenant,
                "doc_id": doc_id,
                "start": start,
                "count": limit if count is None else count,
            },
        )
        row = cur.fetchone()
        if row is None:
            raise DocumentNotFound(f"tenant {tenant!r} has no document {doc_id!r}")
        found = dict(zip(db.columns(cur), row, strict=True))
    text = found["text"] if count is None or count > 0 else ""
    return {**found, "char_start": start, "char_end": start + len(text), "text": text}


def _section(conn: psycopg.Connection, tenant: str, section_id: str) -> dict[str, Any]:
    cur = conn.execute(db.load_sql("select_section"), {"tenant": tenant, "section_id": section_id})
    row = cur.fetchone()
    if row is None:
        raise DocumentNotFound(f"tenant {tenant!r} has no section {section_id!r}")
    return dict(zip(db.columns(cur), row, strict=True))


def _edges(
    conn: psycopg.Connection,
    tenant: str,
    edge_type: str | None,
    section_id: str | None,
    limit: int,
) -> list[dict[str, Any]]:
    if edge_type is not None and edge_type not in EDGE_TYPES:
        raise InvalidFilter(f"edge type must be one of {', '.join(EDGE_TYPES)}; got {edge_type!r}")
    return [_edge(e) for e in graph_store.edges(conn, tenant, edge_type, section_id, limit)]


def _edge(e: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in e.items()}
