"""Writing and reading the ingest tables. Each function takes an open connection; callers
own the transaction boundaries (one per document, so a failure loses nothing stored)."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from raag_assets.chunking import Chunk
from raag_assets.db import load_sql
from raag_assets.parsing import Line, ParsedDocument
from raag_assets.sectioning import Section


@dataclass(frozen=True)
class StoredDocument:
    doc_id: str
    format: str
    lines: tuple[Line, ...]
    tags: list[str]
    metadata: dict[str, Any]
    content_hash: str


def document_hashes(conn: psycopg.Connection, tenant: str) -> dict[str, str]:
    return dict(conn.execute(load_sql("select_document_hashes"), {"tenant": tenant}).fetchall())


def archive_version(
    conn: psycopg.Connection, tenant: str, doc_id: str, declared: dt.date | None, today: dt.date
) -> str | None:
    """Keep the live version of `doc_id` as `<doc_id>@v<n>` before a changed file replaces it,
    in force until the new version starts (`declared` effective_from, else `today`). Returns
    the archived id (None if the document is new)."""
    params = {"tenant": tenant, "doc_id": doc_id, "declared": declared, "today": today}
    return conn.execute(load_sql("archive_version"), params).fetchone()[0]


def upsert_document(
    conn: psycopg.Connection, tenant: str, doc: ParsedDocument, in_force_from: dt.date | None = None
) -> None:
    """Insert or replace the live version of a document. `in_force_from` dates a new version
    whose metadata gives no effective_from (the day it replaced the one before)."""
    meta = doc.meta
    conn.execute(
        load_sql("upsert_document"),
        {
            "tenant": tenant,
            "doc_id": doc.doc_id,
            "source_name": doc.source_name,
            "format": doc.format,
            "title": meta.title,
            "doc_type": meta.doc_type,
            "authority_level": meta.authority_level,
            "tags": list(meta.tags),
            "metadata": Jsonb(meta.metadata()),
            "effective_from": meta.effective_from or in_force_from,
            "effective_to": meta.effective_to,
            "supersedes": meta.supersedes,
            "content_hash": doc.content_hash,
            "page_count": doc.page_count,
            "raw_text": doc.raw_text,
            "text": doc.text,
            "lines": Jsonb(
                [[ln.text, ln.page, ln.size, ln.bold, ln.start, ln.end] for ln in doc.lines]
            ),
        },
    )


def delete_documents_not_in(
    conn: psycopg.Connection, tenant: str, keep: Iterable[str]
) -> list[str]:
    rows = conn.execute(
        load_sql("delete_documents_not_in"), {"tenant": tenant, "doc_ids": sorted(keep)}
    ).fetchall()
    return sorted(r[0] for r in rows)


def replace_skipped_files(conn: psycopg.Connection, tenant: str, skipped: dict[str, str]) -> None:
    conn.execute(load_sql("delete_skipped_files"), {"tenant": tenant})
    for file_name, reason in sorted(skipped.items()):
        conn.execute(
            load_sql("insert_skipped_file"),
            {"tenant": tenant, "file_name": file_name, "reason": reason},
        )


def documents_to_section(
    conn: psycopg.Connection, tenant: str, version: str
) -> list[StoredDocument]:
    rows = conn.execute(
        load_sql("select_documents_to_section"), {"tenant": tenant, "version": version}
    ).fetchall()
    return [
        StoredDocument(r[0], r[1], tuple(Line(*ln) for ln in r[2]), list(r[3]), r[4], r[5])
        for r in rows
    ]


def replace_sections(
    conn: psycopg.Connection,
    tenant: str,
    doc: StoredDocument,
    sections: list[Section],
    chunks: list[Chunk],
    version: str,
) -> int:
    """Replace one document's sections and chunks, keeping embeddings of unchanged chunks.

    Returns how many chunks kept an embedding (were not changed).
    """
    key = {"tenant": tenant, "doc_id": doc.doc_id}
    kept = dict(conn.execute(load_sql("select_chunk_embeddings_of_document"), key).fetchall())
    conn.execute(load_sql("delete_chunks_of_document"), key)
    conn.execute(load_sql("delete_sections_of_document"), key)
    with conn.cursor() as cur:
        cur.executemany(
            load_sql("insert_section"),
            [
                {
                    "tenant": tenant,
                    "section_id": s.section_id,
                    "doc_id": s.doc_id,
                    "ordinal": s.ordinal,
                    "label": s.label,
                    "heading": s.heading,
                    "level": s.level,
                    "parent_id": s.parent_id,
                    "page_start": s.page_start,
                    "page_end": s.page_end,
                    "text": s.text,
                    "char_start": s.char_start,
                    "char_end": s.char_end,
                    "text_start": next((o for o in s.offsets if o >= 0), None),
                }
                for s in sections
            ],
        )
        cur.executemany(
            load_sql("insert_chunk"),
            [
                {
                    "tenant": tenant,
                    "doc_id": c.doc_id,
                    "chunk_index": c.chunk_index,
                    "section_id": c.section_id,
                    "content": c.content,
                    "content_hash": c.content_hash,
                    "token_count": c.token_count,
                    "tags": doc.tags,
                    "metadata": Jsonb(doc.metadata),
                    "embedding": kept.get(c.content_hash),
                    "char_start": c.char_start,
                    "char_end": c.char_end,
                }
                for c in chunks
            ],
        )
    conn.execute(load_sql("mark_document_sectioned"), {**key, "version": version})
    return sum(1 for c in chunks if c.content_hash in kept)


def chunks_to_embed(conn: psycopg.Connection, tenant: str) -> list[tuple[str, int, str]]:
    return conn.execute(load_sql("select_chunks_to_embed"), {"tenant": tenant}).fetchall()


def write_embeddings(
    conn: psycopg.Connection, tenant: str, keys: list[tuple[str, int]], vectors: np.ndarray
) -> None:
    with conn.cursor() as cur:
        cur.executemany(
            load_sql("update_chunk_embedding"),
            [
                {"tenant": tenant, "doc_id": d, "chunk_index": i, "embedding": v}
                for (d, i), v in zip(keys, vectors, strict=True)
            ],
        )


def tenant_summary(conn: psycopg.Connection, tenant: str) -> dict[str, int]:
    cur = conn.execute(load_sql("select_tenant_summary"), {"tenant": tenant})
    row = cur.fetchone()
    return {col.name: int(v) for col, v in zip(cur.description, row, strict=True)}


def skipped_files(conn: psycopg.Connection, tenant: str) -> list[tuple[str, str]]:
    return conn.execute(load_sql("select_skipped_files"), {"tenant": tenant}).fetchall()


def sections(
    conn: psycopg.Connection, tenant: str, doc_id: str | None = None
) -> list[dict[str, Any]]:
    """The section tree (of one document, or all), without texts."""
    cur = conn.execute(load_sql("select_sections"), {"tenant": tenant, "doc_id": doc_id})
    names = [c.name for c in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def count_live_chunks(conn: psycopg.Connection, tenant: str) -> None:
    """Keep tenants.live_chunks (full-text IDF's N) equal to the tenant's live chunks."""
    conn.execute(load_sql("update_live_chunks"), {"tenant": tenant})
