"""Reading and writing the graph tables. Each asset replaces only its own rows, inside one
transaction the caller opens, so a failed run leaves the previous graph in place."""

from collections.abc import Iterable, Sequence
from typing import Any

import polars as pl
import psycopg
from psycopg.types.json import Jsonb

from raag_assets.core.identity import canonical_json, sha256_hex
from raag_assets.core.model import DocInfo, Edge, SectionInfo, Term, Unresolved
from raag_assets.store import frames
from raag_assets.store.db import load_sql, records
from raag_assets.store.frames import copy_frame


def documents(conn: psycopg.Connection, tenant: str, *, history: bool = False) -> list[DocInfo]:
    """The tenant's live documents; with `history`, also earlier versions of changed ones."""
    params = {"tenant": tenant, "history": history}
    rows = conn.execute(load_sql("select_graph_documents"), params).fetchall()
    return [DocInfo(*row) for row in rows]


def sections(conn: psycopg.Connection, tenant: str) -> list[SectionInfo]:
    rows = conn.execute(load_sql("select_graph_sections"), {"tenant": tenant}).fetchall()
    return [SectionInfo(*row) for row in rows]


def sections_frame(conn: psycopg.Connection, tenant: str, *, earlier: bool = False) -> pl.DataFrame:
    """The live sections (frames.GRAPH_SECTIONS), or those of earlier versions of changed
    documents."""
    query = "select_earlier_sections" if earlier else "select_graph_sections"
    return frames.sections_rows(conn.execute(load_sql(query), {"tenant": tenant}).fetchall())


def write_edges(conn: psycopg.Connection, tenant: str, stage: str, edges: pl.DataFrame) -> int:
    """Replace a stage's edges with a frame of stages' output (frames.EDGES)."""
    conn.execute(load_sql("delete_edges_of_stage"), {"tenant": tenant, "stage": stage})
    return copy_frame(conn, "edges", frames.EDGES, edges)


def write_terms(conn: psycopg.Connection, tenant: str, terms: pl.DataFrame) -> int:
    conn.execute(load_sql("delete_terms"), {"tenant": tenant})
    return copy_frame(conn, "terms", frames.TERMS, terms)


def replace_edges(
    conn: psycopg.Connection,
    tenant: str,
    stage: str,
    edges: Iterable[Edge],
    section_order: dict[str, int],
) -> int:
    return write_edges(
        conn, tenant, stage, frames.stage_edges(tenant, stage, list(edges), section_order)
    )


def terms(conn: psycopg.Connection, tenant: str) -> list[Term]:
    rows = conn.execute(load_sql("select_terms"), {"tenant": tenant}).fetchall()
    return [Term(*row) for row in rows]


def replace_topics(
    conn: psycopg.Connection, tenant: str, topics: dict[str, list[str]], doc_of: dict[str, str]
) -> None:
    conn.execute(load_sql("delete_section_topics"), {"tenant": tenant})
    with conn.cursor() as cur:
        cur.executemany(
            load_sql("insert_section_topics"),
            [
                {"tenant": tenant, "section_id": sid, "doc_id": doc_of[sid], "topics": topics[sid]}
                for sid in sorted(topics)
            ],
        )


def topics(conn: psycopg.Connection, tenant: str) -> dict[str, list[str]]:
    return dict(conn.execute(load_sql("select_section_topics"), {"tenant": tenant}).fetchall())


def replace_unresolved(conn: psycopg.Connection, tenant: str, parked: Sequence[Unresolved]) -> None:
    conn.execute(load_sql("delete_unresolved"), {"tenant": tenant})
    with conn.cursor() as cur:
        cur.executemany(
            load_sql("insert_unresolved"),
            [
                {
                    "tenant": tenant,
                    "ordinal": n,
                    "src_doc_id": p.src_doc_id,
                    "src_section_id": p.src_section_id,
                    "kind": p.kind,
                    "matched_text": p.matched_text,
                    "normalized_target": p.normalized_target,
                    "target_doc": p.target_doc,
                    "target_label": p.target_label,
                    "reason": p.reason,
                    "status": "parked",
                    "candidates": Jsonb([]),
                }
                for n, p in enumerate(parked)
            ],
        )


def unresolved(conn: psycopg.Connection, tenant: str) -> list[tuple[int, Unresolved, str]]:
    """(ordinal, reference, status) for every reference parked by the edges stage."""
    out = []
    for row in conn.execute(load_sql("select_unresolved"), {"tenant": tenant}):
        ordinal, src_doc, src_section, kind, text, target, doc, label, reason, status, cands = row
        unresolved_ref = Unresolved(
            src_doc,
            src_section,
            text,
            target,
            doc,
            label,
            reason,
            kind=kind,
            candidates=tuple((c[0], c[1]) for c in cands),
        )
        out.append((ordinal, unresolved_ref, status))
    return out


def update_unresolved(
    conn: psycopg.Connection,
    tenant: str,
    ordinal: int,
    status: str,
    reason: str,
    candidates: Sequence[tuple[str, float]],
) -> None:
    conn.execute(
        load_sql("update_unresolved"),
        {
            "tenant": tenant,
            "ordinal": ordinal,
            "status": status,
            "reason": reason,
            "candidates": Jsonb([list(c) for c in candidates]),
        },
    )


def referenced_documents(conn: psycopg.Connection, tenant: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for src, dst in conn.execute(load_sql("select_referenced_documents"), {"tenant": tenant}):
        out.setdefault(src, set()).add(dst)
    return out


def superseded_documents(conn: psycopg.Connection, tenant: str) -> set[str]:
    rows = conn.execute(load_sql("select_superseded_documents"), {"tenant": tenant})
    return {r[0] for r in rows}


def replaced_documents(conn: psycopg.Connection, tenant: str) -> set[str]:
    """The superseded documents no longer in force: not an earlier numbered version ('GPL-2'
    beside 'GPL-3'), which stays answerable."""
    rows = conn.execute(load_sql("select_replaced_documents"), {"tenant": tenant})
    return {r[0] for r in rows}


def replace_errors(
    conn: psycopg.Connection, tenant: str, stage: str, errors: dict[str, str]
) -> None:
    conn.execute(load_sql("delete_extraction_errors"), {"tenant": tenant, "stage": stage})
    for doc_id, reason in sorted(errors.items()):
        conn.execute(
            load_sql("insert_extraction_error"),
            {"tenant": tenant, "stage": stage, "doc_id": doc_id, "reason": reason},
        )


def edges(
    conn: psycopg.Connection,
    tenant: str,
    edge_type: str | None = None,
    section_id: str | None = None,
    limit: int | None = None,
) -> list[dict[str, Any]]:
    """The tenant's edges (of one type, or touching one section), in graph order; the first
    `limit` of them if given."""
    params = {"tenant": tenant, "edge_type": edge_type, "section_id": section_id, "limit": limit}
    return records(conn.execute(load_sql("select_edges"), params))


def edge_counts(conn: psycopg.Connection, tenant: str) -> dict[str, dict[int, int]]:
    out: dict[str, dict[int, int]] = {}
    for edge_type, layer, count in conn.execute(load_sql("select_edge_counts"), {"tenant": tenant}):
        out.setdefault(edge_type, {})[layer] = count
    return out


def fingerprint(conn: psycopg.Connection, tenant: str, stage: str) -> str | None:
    row = conn.execute(
        load_sql("select_stage_fingerprint"), {"tenant": tenant, "stage": stage}
    ).fetchone()
    return row[0] if row else None


def fingerprints(conn: psycopg.Connection, tenant: str) -> dict[str, str]:
    """Every stage's fingerprint of the tenant, by stage name."""
    rows = conn.execute(load_sql("select_stage_fingerprints"), {"tenant": tenant})
    return dict(rows.fetchall())


def forget_fingerprints(conn: psycopg.Connection, tenant: str, stages: Sequence[str]) -> None:
    """Later stages must run again after the edges stage rewrote what they also write (the
    parked references' status), even if the edges come out the same."""
    conn.execute(load_sql("delete_stage_fingerprints"), {"tenant": tenant, "stages": list(stages)})


def set_fingerprint(conn: psycopg.Connection, tenant: str, stage: str, value: str) -> None:
    conn.execute(
        load_sql("upsert_stage_fingerprint"),
        {"tenant": tenant, "stage": stage, "fingerprint": value},
    )


def inputs_fingerprint(
    docs: Sequence[DocInfo], sections: Sequence[SectionInfo], *extra: str
) -> str:
    """A hash of everything the graph is extracted from, and of the code that extracts it."""
    return sha256_hex(
        canonical_json(
            [
                [
                    d.doc_id,
                    d.title,
                    d.doc_type,
                    d.authority_level,
                    d.effective_from,
                    d.effective_to,
                    d.supersedes,
                    d.metadata,
                    d.superseded_by,
                    d.effective_evidence,
                ]
                for d in docs
            ]
        ),
        canonical_json(
            [[s.section_id, s.label, s.heading, s.level, s.parent_id, s.text] for s in sections]
        ),
        *extra,
    )
