"""What the REST and MCP adapters expose, as plain functions over the library: each opens a
connection, reads as the tenant's reader role, and returns JSON-ready values. The adapters
add transport, validation and authentication; no behaviour of their own."""

import datetime as dt
import hashlib
import json
import re
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
# Keys guard the REST service: each reads one tenant. (`raag mcp` takes none: it serves the
# one tenant it was started for, to the process that started it.)

_DURATION = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_KEY_ID = re.compile(r"^[0-9a-f]{12}$")


class KeyNotFound(RaagError):
    """An API key id (or key) that no tenant has."""


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def parse_duration(text: str) -> dt.timedelta:
    """'90s', '15m', '12h', '30d', '2w' as a timedelta."""
    match = _DURATION.match(text)
    if match is None or int(match[1]) == 0:
        raise InvalidFilter(f"{text!r} is not a duration: a positive number and s, m, h, d or w")
    return dt.timedelta(**{_UNITS[match[2]]: int(match[1])})


def parse_expiry(
    expires_in: str | None, expires_at: str | None, now: dt.datetime | None = None
) -> dt.datetime | None:
    """When a new key expires: `expires_in` a duration ('30d'), or `expires_at` a date
    (midnight UTC at its start) or an ISO date-time (UTC unless it names its offset)."""
    now = now or dt.datetime.now(dt.UTC)
    if expires_in and expires_at:
        raise InvalidFilter("give --expires-in or --expires-at, not both")
    if expires_in:
        return now + parse_duration(expires_in)
    if not expires_at:
        return None
    try:
        when = dt.datetime.fromisoformat(expires_at.strip())
    except ValueError:
        raise InvalidFilter(
            f"{expires_at!r} is not a date (2027-01-31) or date-time (2027-01-31T12:00+02:00)"
        ) from None
    when = when if when.tzinfo else when.replace(tzinfo=dt.UTC)
    if when <= now:
        raise InvalidFilter(f"{expires_at!r} is in the past: a key must expire later than now")
    return when


def create_api_key(
    tenant: str, label: str = "", url: str | None = None, expires_at: dt.datetime | None = None
) -> str:
    """A new key for `tenant`; only its hash is stored, so this is the one time it is seen."""
    return new_api_key(tenant, label, url, expires_at)[0]


def new_api_key(
    tenant: str, label: str = "", url: str | None = None, expires_at: dt.datetime | None = None
) -> tuple[str, str]:
    """A new key for `tenant` and its key_id (how `raag api-key list` names it)."""
    key = "raag_" + secrets.token_urlsafe(32)
    with db.connect(url) as conn, conn.transaction():
        db.require_tenant(conn, tenant)
        (key_id,) = db.one(
            conn.execute(db.load_sql("insert_api_key"), _new_row(key, tenant, label, expires_at))
        )
    return key, key_id


def _new_row(key: str, tenant: str, label: str, expires_at: dt.datetime | None) -> dict[str, Any]:
    return {"key_hash": _hash(key), "tenant": tenant, "label": label, "expires_at": expires_at}


def list_api_keys(tenant: str | None = None, url: str | None = None) -> list[dict[str, Any]]:
    """Every key (of one tenant, or all): key_id, tenant, label, created, expiry, revocation,
    last use and state (active, expired, revoked); never the key or its hash."""
    with db.connect(url) as conn:
        if tenant is not None:
            db.require_tenant(conn, tenant)
        return db.records(conn.execute(db.load_sql("select_api_keys"), {"tenant": tenant}))


def key_id_of(key_or_id: str) -> str:
    """The key_id named on the command line: a key id as listed, or the key itself."""
    text = key_or_id.strip()
    if text.startswith("raag_"):
        return _hash(text)[:12]
    if not _KEY_ID.match(text):
        raise InvalidFilter(
            f"{key_or_id!r} is neither a key id (12 hex digits, see `raag api-key list`) nor a key"
        )
    return text


def revoke_api_key(key_or_id: str, url: str | None = None) -> dict[str, Any]:
    """Revoke a key now: the REST service refuses it from the next request on."""
    key_id = key_id_of(key_or_id)
    with db.connect(url) as conn, conn.transaction():
        row = _key_row(conn, key_id)
        conn.execute(
            db.load_sql("update_api_key_revoked"),
            {"key_id": key_id, "expires_at": None, "replaced_by": None},
        )
    return row


def rotate_api_key(
    key_or_id: str,
    grace: dt.timedelta | None = None,
    expires_at: dt.datetime | None = None,
    url: str | None = None,
) -> tuple[str, str, dict[str, Any]]:
    """A new key for the old key's tenant and label, and the old key revoked, or expiring
    after `grace` so clients can switch over. The new key expires at `expires_at`, else after
    the old key's lifetime if it had one. Returns the new key, its id and the old key's row."""
    key_id = key_id_of(key_or_id)
    key = "raag_" + secrets.token_urlsafe(32)
    now = dt.datetime.now(dt.UTC)
    with db.connect(url) as conn, conn.transaction():
        old = _key_row(conn, key_id)
        if old["revoked_at"] is not None:
            raise InvalidFilter(
                f"key {key_id} was revoked at {old['revoked_at']:%Y-%m-%d %H:%M %Z}: "
                f"create a new one with `raag api-key create --tenant {old['tenant_id']}`"
            )
        if expires_at is None and old["expires_at"] is not None:
            expires_at = now + (old["expires_at"] - old["created_at"])
        row = _new_row(key, old["tenant_id"], old["label"], expires_at)
        (new_id,) = db.one(conn.execute(db.load_sql("insert_api_key"), row))
        conn.execute(
            db.load_sql("update_api_key_revoked"),
            {"key_id": key_id, "expires_at": now + grace if grace else None, "replaced_by": new_id},
        )
    return key, new_id, old


def _key_row(conn: psycopg.Connection, key_id: str) -> dict[str, Any]:
    rows = db.records(conn.execute(db.load_sql("select_api_key_by_id"), {"key_id": key_id}))
    if not rows:
        raise KeyNotFound(f"no API key {key_id}: see `raag api-key list`")
    return rows[0]


def authorize(key: str | None, tenant: str, url: str | None = None) -> None:
    """Raise Unauthorized unless `key` is one of `tenant`'s keys, neither revoked nor expired;
    record its use (to the minute)."""
    if not key:
        raise Unauthorized("missing API key: send it in the X-API-Key header")
    with db.connect(url) as conn:
        cur = conn.execute(db.load_sql("select_api_key"), {"key_hash": _hash(key)})
        found = db.records(cur)
        if not found or found[0]["tenant_id"] != tenant:
            raise Unauthorized(f"this API key does not give access to tenant {tenant!r}")
        row = found[0]
        if row["revoked_at"] is not None:
            raise Unauthorized(f"this API key was revoked at {row['revoked_at']:%Y-%m-%d %H:%M %Z}")
        if row["expired"]:
            raise Unauthorized(f"this API key expired at {row['expires_at']:%Y-%m-%d %H:%M %Z}")
        if row["stale_use"]:
            conn.execute(db.load_sql("update_api_key_used"), {"key_id": row["key_id"]})


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
