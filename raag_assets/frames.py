"""Stage outputs as polars frames at the asset boundary: one schema per table, binary COPY into
Postgres from the frame, and the Dagster table metadata (row count, column schema, column
lineage, a preview) read off the same frame."""

from collections.abc import Mapping, Sequence
from typing import Any

import dagster as dg
import polars as pl
import psycopg
from psycopg import sql

from raag_assets.chunking import Chunk
from raag_assets.graph.model import Edge, edge_id, ordered
from raag_assets.graph.terms import Term
from raag_assets.sectioning import Section

# Where each stored column comes from, for dagster/column_lineage.
SECTIONS_LINEAGE = {
    "doc_id": [("documents", "doc_id")],
    "label": [("documents", "lines")],
    "heading": [("documents", "lines")],
    "page_start": [("documents", "lines")],
    "page_end": [("documents", "lines")],
    "text": [("documents", "text")],
}
EDGES_LINEAGE = {
    "src_doc_id": [("sections", "doc_id")],
    "src_section_id": [("sections", "section_id")],
    "dst_doc_id": [("sections", "doc_id")],
    "dst_section_id": [("sections", "section_id")],
    "matched_text": [("sections", "text")],
    "normalized_target": [("sections", "text")],
    "term": [("sections", "text")],
    "date_from": [("sections", "text")],
    "date_to": [("sections", "text")],
    "scope": [("sections", "text")],
    "condition": [("sections", "text")],
}

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


def _columns(obj: object, schema: Mapping[str, tuple[Any, str]]) -> dict[str, Any]:
    """The table's columns an object has, read as attributes (asdict would deep-copy a
    section's per-character offsets only to drop them)."""
    return {c: getattr(obj, c) for c in schema if hasattr(obj, c)}


def sections_frame(tenant: str, sections: Sequence[Section]) -> pl.DataFrame:
    rows = [
        # text_start: where the body text begins in the raw text (offsets < 0 are made-up text)
        {
            **_columns(s, SECTIONS),
            "tenant_id": tenant,
            "text_start": next((o for o in s.offsets if o >= 0), None),
        }
        for s in sections
    ]
    return frame(SECTIONS, rows)


def chunks_frame(
    tenant: str,
    chunks: Sequence[Chunk],
    *,
    tags: list[str],
    metadata: object,
    kept: Mapping[str, object],
    live: bool,
) -> pl.DataFrame:
    """A document's chunks; `kept` maps content hashes to embeddings still valid."""
    rows = [
        {
            **_columns(c, CHUNKS),
            "tenant_id": tenant,
            "tags": tags,
            "metadata": metadata,
            "embedding": kept.get(c.content_hash),
            "live": live,
        }
        for c in chunks
    ]
    return frame(CHUNKS, rows)


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
                **_columns(e, EDGES),
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


def table_metadata(
    schema: Mapping[str, tuple[Any, str]],
    row_count: int,
    lineage: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    preview: pl.DataFrame | None = None,
) -> dict[str, Any]:
    """dagster/row_count, dagster/column_schema from the table's frame schema,
    dagster/column_lineage from `lineage` (column -> [(upstream asset, its column)]), and a
    preview table of `preview`'s rows, so the UI's lineage view goes down to columns."""
    out: dict[str, Any] = {
        "dagster/row_count": row_count,
        "dagster/column_schema": dg.TableSchema(
            columns=[dg.TableColumn(c, str(t)) for c, t in empty(schema).schema.items()]
        ),
    }
    if lineage:
        out["dagster/column_lineage"] = dg.TableColumnLineage(
            deps_by_column={
                column: [
                    dg.TableColumnDep(asset_key=dg.AssetKey(a), column_name=c) for a, c in deps
                ]
                for column, deps in lineage.items()
            }
        )
    if preview is not None and not preview.is_empty():
        out["preview_table"] = dg.MetadataValue.table(
            records=[
                dg.TableRecord({k: _cell(v) for k, v in row.items()})
                for row in preview.iter_rows(named=True)
            ],
            schema=dg.TableSchema(
                columns=[dg.TableColumn(c, str(t)) for c, t in preview.schema.items()]
            ),
        )
    return out


def read_frame(conn: psycopg.Connection, query: str, params: Mapping[str, Any]) -> pl.DataFrame:
    cur = conn.execute(query, params)
    names = [d.name for d in cur.description or []]
    return pl.DataFrame(cur.fetchall(), schema=names, orient="row")


def _cell(value: object) -> str | int | float | bool | None:
    if value is None or isinstance(value, (int, float, bool)):
        return value
    text = str(value).replace("\n", " ")
    return text if len(text) <= 80 else text[:79] + "…"
