"""Tables as polars frames: one schema per table, the frames the stages read from the store,
and binary COPY into Postgres from a frame. The Dagster table metadata read off the same
frames is in pipeline/metadata.py."""

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl
import psycopg
from psycopg import sql

from raag_assets.core.model import Edge, Line, Term, edge_id, ordered

# column -> (polars dtype, Postgres type for binary COPY), in table order
SECTIONS: dict[str, tuple[Any, str]] = {
    "tenant_id": (pl.String, "text"),
    "section_id": (pl.String, "text"),
    "doc_id": (pl.String, "text"),
    "ordinal": (pl.Int32, "int4"),
    "label": (pl.String, "text"),
    "heading": (pl.String, "text"),
    "level": (pl.Int32, "int4"),
    "parent_id": (pl.String, "text"),
    "page_start": (pl.Int32, "int4"),
    "page_end": (pl.Int32, "int4"),
    "text": (pl.String, "text"),
    "char_start": (pl.Int32, "int4"),
    "char_end": (pl.Int32, "int4"),
    "text_start": (pl.Int32, "int4"),
}
CHUNKS: dict[str, tuple[Any, str]] = {
    "tenant_id": (pl.String, "text"),
    "doc_id": (pl.String, "text"),
    "chunk_index": (pl.Int32, "int4"),
    "section_id": (pl.String, "text"),
    "content": (pl.String, "text"),
    "content_hash": (pl.String, "text"),
    "token_count": (pl.Int32, "int4"),
    "tags": (pl.List(pl.String), "text[]"),
    "metadata": (pl.Object, "jsonb"),
    "embedding": (pl.Object, "vector"),
    "live": (pl.Boolean, "bool"),
    "char_start": (pl.Int32, "int4"),
    "char_end": (pl.Int32, "int4"),
}
EDGES: dict[str, tuple[Any, str]] = {
    "tenant_id": (pl.String, "text"),
    "edge_id": (pl.String, "text"),
    "stage": (pl.String, "text"),
    "ordinal": (pl.Int32, "int4"),
    "edge_type": (pl.String, "text"),
    "layer": (pl.Int16, "int2"),
    "src_doc_id": (pl.String, "text"),
    "src_section_id": (pl.String, "text"),
    "dst_doc_id": (pl.String, "text"),
    "dst_section_id": (pl.String, "text"),
    "term": (pl.String, "text"),
    "date_from": (pl.Date, "date"),
    "date_to": (pl.Date, "date"),
    "scope": (pl.String, "text"),
    "matched_text": (pl.String, "text"),
    "normalized_target": (pl.String, "text"),
    "raw_target": (pl.String, "text"),
    "confidence": (pl.Float32, "float4"),
    "condition": (pl.String, "text"),
    "rule": (pl.String, "text"),
}
TERMS: dict[str, tuple[Any, str]] = {
    "tenant_id": (pl.String, "text"),
    "doc_id": (pl.String, "text"),
    "term_key": (pl.String, "text"),
    "term": (pl.String, "text"),
    "section_id": (pl.String, "text"),
}


def frame(schema: Mapping[str, tuple[Any, str]], rows: Sequence[Mapping[str, Any]]) -> pl.DataFrame:
    """Rows as a frame with exactly the table's columns and types (an empty frame too)."""
    return pl.DataFrame(
        [{c: r.get(c) for c in schema} for r in rows],
        schema={c: t for c, (t, _) in schema.items()},
        orient="row",
    )


def columns_of(obj: object, schema: Mapping[str, tuple[Any, str]]) -> dict[str, Any]:
    """The table's columns an object has, read as attributes (asdict would deep-copy a
    section's per-character offsets only to drop them)."""
    return {c: getattr(obj, c) for c in schema if hasattr(obj, c)}


def edges_frame(tenant: str, stage: str, edges: Sequence[tuple[str, Edge]]) -> pl.DataFrame:
    """(edge_id, edge) pairs in their stored order; the ordinal is the position."""
    return frame(
        EDGES,
        [
            {
                "tenant_id": tenant,
                "edge_id": eid,
                "stage": stage,
                "ordinal": n,
                **columns_of(e, EDGES),
            }
            for n, (eid, e) in enumerate(edges)
        ],
    )


def stage_edges(
    tenant: str, stage: str, edges: Sequence[Edge], section_order: Mapping[str, int]
) -> pl.DataFrame:
    """A graph stage's output as stored: the deterministic order (model.ordered), the first of
    duplicates by edge id, the ordinal the position after that."""
    in_order = ordered(edges, dict(section_order))
    rows = edges_frame(tenant, stage, [(edge_id(e), e) for e in in_order])
    return rows.unique("edge_id", keep="first", maintain_order=True).with_columns(
        ordinal=pl.int_range(pl.len(), dtype=pl.Int32)
    )


def terms_frame(tenant: str, terms: Sequence[Term]) -> pl.DataFrame:
    rows = [
        {
            "tenant_id": tenant,
            "doc_id": t.doc_id,
            "term_key": t.key,
            "term": t.term,
            "section_id": t.section_id,
        }
        for t in terms
    ]
    return frame(TERMS, rows)


def copy_frame(
    conn: psycopg.Connection, table: str, schema: Mapping[str, tuple[Any, str]], df: pl.DataFrame
) -> int:
    """Binary COPY of a frame into `table` (inside the caller's transaction). Returns rows."""
    if df.is_empty():
        return 0
    statement = sql.SQL("COPY {} ({}) FROM STDIN (FORMAT BINARY)").format(
        sql.Identifier(table), sql.SQL(", ").join(sql.Identifier(c) for c in schema)
    )
    with conn.cursor() as cur, cur.copy(statement) as copy:
        copy.set_types([pg for _, pg in schema.values()])
        for row in df.select(list(schema)).iter_rows():
            copy.write_row(row)
    return df.height


def empty(schema: Mapping[str, tuple[Any, str]]) -> pl.DataFrame:
    return frame(schema, [])


def read_frame(conn: psycopg.Connection, query: str, params: Mapping[str, Any]) -> pl.DataFrame:
    cur = conn.execute(query, params)
    names = [d.name for d in cur.description or []]
    return pl.DataFrame(cur.fetchall(), schema=names, orient="row")


# The documents rows the sections stage reads (select_documents_to_section), as a frame.
DOCUMENTS_TO_SECTION: dict[str, Any] = {
    "doc_id": pl.String,
    "format": pl.String,
    "lines": pl.Object,  # the parsed lines (parsing.Line), one document's tuple per row
    "tags": pl.List(pl.String),
    "metadata": pl.Object,
}


def documents_frame(
    rows: Sequence[tuple[str, str, Sequence[Line], list[str], Any]],
) -> pl.DataFrame:
    """(doc_id, format, lines, tags, metadata) rows as the sections stage's input frame."""
    return pl.DataFrame(
        [(d, f, tuple(lines), list(tags), m) for d, f, lines, tags, m in rows],
        schema=DOCUMENTS_TO_SECTION,
        orient="row",
    )


# The sections rows the graph stages read (select_graph_sections), as a frame.
GRAPH_SECTIONS: dict[str, Any] = {
    "section_id": pl.String,
    "doc_id": pl.String,
    "ordinal": pl.Int32,
    "label": pl.String,
    "heading": pl.String,
    "level": pl.Int32,
    "parent_id": pl.String,
    "text": pl.String,
}


def sections_rows(rows: Sequence[tuple[Any, ...]]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=GRAPH_SECTIONS, orient="row")
