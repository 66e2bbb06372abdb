"""Writing and reading the ingest tables. Each function takes an open connection; callers
own the transaction boundaries (one per document, so a failure loses nothing stored)."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
import psycopg
from psycopg.types.json import Jsonb

from raag_assets.core.model import Line, ParsedDocument
from raag_assets.store import frames
from raag_assets.store.db import columns, load_sql, one, records
from raag_assets.store.frames import copy_frame


@dataclass(frozen=True)
class StoredVersion:
    doc_id: str  # the live doc_id, or `<doc_id>@v<n>` for an earlier version
    version: int
    content_hash: str
    effective_from: dt.date | None
    live: bool


@dataclass(frozen=True)
class Placement:
    """Where a landed file goes in its document's history.

    action: "new" (a document not seen before), "unchanged" (the live version's content),
    "returned" (the content of an earlier version: recognised as that version, nothing new),
    "live" (a version that starts after the live one: it replaces it) or "earlier" (a version
    that arrives late, stating a date before the live one's: it joins the history there)."""

    action: str
    version: int
    starts: dt.date | None
    same_as: str | None = None  # the stored version with this content


def place_version(
    versions: list[StoredVersion], content_hash: str, stated: dt.date | None, today: dt.date
) -> Placement:
    """Versions are ordered by the dates they state, then by arrival (their number); a file
    that states no date starts the day it arrived."""
    if not versions:
        return Placement("new", 1, stated)
    for v in versions:
        if v.content_hash == content_hash:
            return Placement(
                "unchanged" if v.live else "returned", v.version, v.effective_from, v.doc_id
            )
    live = next(v for v in versions if v.live)
    number = max(v.version for v in versions) + 1
    starts = stated or today
    if (starts, number) > (live.effective_from or dt.date.min, live.version):
        return Placement("live", number, starts)
    return Placement("earlier", number, starts)


def document_versions(conn: psycopg.Connection, tenant: str, doc_id: str) -> list[StoredVersion]:
    rows = conn.execute(
        load_sql("select_document_versions"), {"tenant": tenant, "doc_id": doc_id}
    ).fetchall()
    return [StoredVersion(*r) for r in rows]


def update_version_periods(conn: psycopg.Connection, tenant: str, doc_id: str) -> None:
    """Each version in force until the day before the next one by stated date."""
    conn.execute(load_sql("update_version_periods"), {"tenant": tenant, "doc_id": doc_id})


def archive_version(
    conn: psycopg.Connection, tenant: str, doc_id: str, declared: dt.date | None, today: dt.date
) -> str | None:
    """Keep the live version of `doc_id` as `<doc_id>@v<n>` before a changed file replaces it,
    in force until the new version starts (`declared` effective_from, else `today`). Returns
    the archived id (None if the document is new)."""
    params = {"tenant": tenant, "doc_id": doc_id, "declared": declared, "today": today}
    archived: str | None = one(conn.execute(load_sql("archive_version"), params))[0]
    return archived


def upsert_document(
    conn: psycopg.Connection,
    tenant: str,
    doc: ParsedDocument,
    in_force_from: dt.date | None = None,
    version: int = 1,
) -> None:
    """Insert or replace the live version of a document. `in_force_from` dates a new version
    that states no effective date (the day it replaced the one before)."""
    conn.execute(load_sql("upsert_document"), _document_row(tenant, doc, in_force_from, version))


def insert_earlier_version(
    conn: psycopg.Connection,
    tenant: str,
    doc: ParsedDocument,
    starts: dt.date | None,
    version: int,
) -> str:
    """Keep a late-arriving file as an earlier version of its document, in force from the
    date it states, else `starts`; returns its id."""
    row = _document_row(tenant, doc, starts, version)
    doc_id: str = one(conn.execute(load_sql("insert_earlier_version"), row))[0]
    return doc_id


def _document_row(
    tenant: str, doc: ParsedDocument, in_force_from: dt.date | None, version: int
) -> dict[str, Any]:
    meta = doc.meta
    return {
        "tenant": tenant,
        "doc_id": doc.doc_id,
        "source_name": doc.source_name,
        "format": doc.format,
        "title": meta.title,
        "doc_type": meta.doc_type,
        "authority_level": meta.authority_level,
        "tags": list(meta.tags),
        "metadata": Jsonb(meta.metadata()),
        "effective_from": doc.effective_from or in_force_from,
        "effective_to": meta.effective_to,
        "supersedes": meta.supersedes,
        "content_hash": doc.content_hash,
        "page_count": doc.page_count,
        "raw_text": doc.raw_text,
        "text": doc.text,
        "lines": Jsonb(
            [
                [ln.text, ln.page, ln.size, ln.bold, ln.start, ln.end, ln.indent, ln.shifts]
                for ln in doc.lines
            ]
        ),
        "effective_evidence": doc.effective.evidence if doc.effective else None,
        "version": version,
    }


def delete_documents_not_in(
    conn: psycopg.Connection, tenant: str, keep: Iterable[str], sources: Iterable[str] = ()
) -> list[str]:
    """Delete the documents not in `keep` and not read from one of `sources` (files still
    landed but refused this time); the ids deleted."""
    params = {
        "tenant": tenant,
        "doc_ids": sorted(keep),
        "sources": sorted({storable_name(s) for s in sources}),
    }
    rows = conn.execute(load_sql("delete_documents_not_in"), params).fetchall()
    return sorted(r[0] for r in rows)


def replace_skipped_files(conn: psycopg.Connection, tenant: str, skipped: dict[str, str]) -> None:
    conn.execute(load_sql("delete_skipped_files"), {"tenant": tenant})
    for file_name, reason in sorted(skipped.items()):
        conn.execute(
            load_sql("insert_skipped_file"),
            {"tenant": tenant, "file_name": storable_name(file_name), "reason": reason},
        )


def storable_name(file_name: str) -> str:
    """A file name as Postgres text can hold it: a name that is not UTF-8 (Python reads its
    bytes as lone surrogates) keeps them as \\udcNN escapes, so the report still names it."""
    return file_name.encode("utf-8", "backslashreplace").decode("utf-8")


def documents_to_section(conn: psycopg.Connection, tenant: str, version: str) -> pl.DataFrame:
    """The documents whose sections are not of this content and version, as the sections
    stage's input frame (frames.DOCUMENTS_TO_SECTION)."""
    rows = conn.execute(
        load_sql("select_documents_to_section"), {"tenant": tenant, "version": version}
    ).fetchall()
    return frames.documents_frame(
        [(r[0], r[1], [_line(ln) for ln in r[2]], r[3], r[4]) for r in rows]
    )


def _line(stored: list) -> Line:
    """A parsed line as stored (JSON): its shifts as tuples again, absent in rows stored
    before lines kept them."""
    text, page, size, bold, start, end, indent, *rest = stored
    shifts = tuple((i, d) for i, d in rest[0]) if rest and rest[0] is not None else None
    return Line(text, page, size, bold, start, end, indent, shifts)


def replace_sections(
    conn: psycopg.Connection,
    tenant: str,
    doc_id: str,
    sections: pl.DataFrame,
    chunks: pl.DataFrame,
    version: str,
) -> tuple[int, int]:
    """Replace one document's sections and chunks (its rows of
    pipeline.stages.section_frames), giving each chunk the vector the tenant already holds
    for its text: the document's own unchanged chunk, else another chunk of the same text
    (the store is pinned to one model: `db.check_collection`).

    Returns how many chunks kept their own vector, and how many took one from elsewhere.
    """
    key = {"tenant": tenant, "doc_id": doc_id}
    hashes = chunks["content_hash"].unique().sort().to_list()
    found = conn.execute(
        load_sql("select_chunk_embeddings_of_document"), {**key, "hashes": hashes}
    ).fetchall()
    vectors: dict[str, Any] = {h: v for h, v, _ in found}
    own = [h for h, _, is_own in found if is_own]
    # a chunk is live (found by retrieval) when its document is the live version
    (live,) = one(conn.execute(load_sql("select_document_is_live"), key))
    conn.execute(load_sql("delete_chunks_of_document"), key)
    conn.execute(load_sql("delete_sections_of_document"), key)
    copy_frame(conn, "sections", frames.SECTIONS, sections)
    chunks = chunks.with_columns(
        pl.Series("embedding", [vectors.get(h) for h in chunks["content_hash"]], dtype=pl.Object),
        pl.Series("metadata", [Jsonb(m) for m in chunks["metadata"]], dtype=pl.Object),
        live=pl.lit(live, dtype=pl.Boolean),
    )
    copy_frame(conn, "chunks", frames.CHUNKS, chunks)
    conn.execute(load_sql("mark_document_sectioned"), {**key, "version": version})
    kept = int(chunks["content_hash"].is_in(own).sum())
    return kept, int(chunks["content_hash"].is_in(list(vectors)).sum()) - kept


def chunks_to_embed(conn: psycopg.Connection, tenant: str) -> list[tuple[str, int, str]]:
    return conn.execute(load_sql("select_chunks_to_embed"), {"tenant": tenant}).fetchall()


# Texts the embeddings step embeds and commits per transaction: a killed run keeps what it
# finished. A text many documents repeat makes its batch write that many more rows.
EMBED_BATCH = 128

# A text to embed and the chunks (doc_id, chunk_index) that carry it.
ToEmbed = tuple[str, list[tuple[str, int]]]


def embedding_batches(conn: psycopg.Connection, tenant: str) -> list[list[ToEmbed]]:
    """The tenant's chunks to embed, in the batches the embeddings step embeds and writes
    them. Each distinct text once, with every chunk that carries it: a policy's next version,
    an amendment restating its agreement, a licence's boilerplate repeat whole chunks, and one
    vector serves them all (in `make bench`, two GFDL versions share dozens of chunks).
    Longest first, so that each batch pads to texts of like length as one encode() call over
    all of them would (sorted within 128 texts only, padding cost ~20% more); among texts of
    one length, by their first chunk, compared here rather than in the database's collation."""
    keys: dict[str, list[tuple[str, int]]] = {}
    for doc_id, chunk_index, text in chunks_to_embed(conn, tenant):
        keys.setdefault(text, []).append((doc_id, chunk_index))
    todo = sorted(keys.items(), key=lambda item: (-len(item[0]), min(item[1])))
    return [todo[i : i + EMBED_BATCH] for i in range(0, len(todo), EMBED_BATCH)]


def batch_texts(batch: list[ToEmbed]) -> list[str]:
    """A batch's texts, as the model embeds them: the sections step's prefetch and the
    embeddings step must ask for exactly these to meet (`Embedder.prefetch`)."""
    return [text for text, _ in batch]


def write_embeddings(
    conn: psycopg.Connection, tenant: str, batch: list[ToEmbed], vectors: np.ndarray
) -> int:
    """Each text's vector into every chunk that carries it; returns how many chunks."""
    rows = [
        {"tenant": tenant, "doc_id": d, "chunk_index": i, "embedding": v}
        for (_, keys), v in zip(batch, vectors, strict=True)
        for d, i in keys
    ]
    with conn.cursor() as cur:
        cur.executemany(load_sql("update_chunk_embedding"), rows)
    return len(rows)


def tenant_summary(conn: psycopg.Connection, tenant: str) -> dict[str, int]:
    cur = conn.execute(load_sql("select_tenant_summary"), {"tenant": tenant})
    return {name: int(v) for name, v in zip(columns(cur), one(cur), strict=True)}


def skipped_files(conn: psycopg.Connection, tenant: str) -> list[tuple[str, str]]:
    return conn.execute(load_sql("select_skipped_files"), {"tenant": tenant}).fetchall()


def sections(
    conn: psycopg.Connection, tenant: str, doc_id: str | None = None
) -> list[dict[str, Any]]:
    """The section tree (of one document, or all), without texts."""
    return records(conn.execute(load_sql("select_sections"), {"tenant": tenant, "doc_id": doc_id}))


def count_live_chunks(conn: psycopg.Connection, tenant: str) -> None:
    """Keep tenants.live_chunks (full-text IDF's N) equal to the tenant's live chunks."""
    conn.execute(load_sql("update_live_chunks"), {"tenant": tenant})


def documents(conn: psycopg.Connection, tenant: str) -> list[dict[str, Any]]:
    """Every document and earlier version with its source (the file name as given), dates,
    version and document relations; versions of one document together in numeric order, the
    live one last."""
    out = []
    for r in records(conn.execute(load_sql("select_documents"), {"tenant": tenant})):
        for key in ("effective_from", "in_force_to"):
            r[key] = r[key].isoformat() if r[key] else None
        r["tags"] = list(r["tags"] or [])
        out.append(r)
    return out
