"""Dagster table metadata read off a table's frame: row count, column schema with each
column's meaning, column lineage (where each stored column comes from) and a preview, so the
UI's lineage view goes down to columns; and each asset's definition metadata (its table and
schema, shown before anything is materialised)."""

from collections.abc import Mapping, Sequence
from typing import Any

import dagster as dg
import polars as pl

from raag_assets.store.frames import CHUNKS, empty

# Who answers for the assets (Dagster owners: an e-mail or `team:NAME`).
OWNERS = ["team:raag"]

# What each stored column holds, by table (`COMMON` for columns every table means alike).
COMMON = {
    "tenant_id": "the tenant (one Dagster partition, one Postgres LIST partition)",
    "doc_id": "the document: its metadata id, else its file name without the extension",
    "section_id": "stable id of a section (same on re-ingest of the same text)",
    "ordinal": "position in the deterministic order of the stage's output",
    "tags": "the document's tags (sidecar metadata), for search filters",
    "metadata": "the document's metadata (sidecar .meta.json and PDF info), JSON",
    "content_hash": "sha256 of the text, to skip unchanged work on re-ingest",
}
COLUMNS: dict[str, dict[str, str]] = {
    "documents": {
        "source_name": "the landed file the document was read from",
        "format": "pdf, markdown or text",
        "title": "the title, from metadata or the text",
        "doc_type": "the kind of document (policy, contract, ...), from metadata",
        "authority_level": "rank when two documents conflict (higher wins)",
        "effective_from": "first day the version is in force",
        "effective_to": "last day the version is in force (null: still in force)",
        "supersedes": "doc_id of the document this one replaces",
        "version": "1 for the first version, +1 for each changed content",
        "version_of": "null for the live version; the live doc_id for an earlier one",
        "page_count": "pages of a PDF",
        "text": "the normalised text (NFC, ligatures, de-hyphenation); raw_text kept beside",
    },
    "sections": {
        "label": "the section's number as written (4.2, Article IV) or its heading",
        "heading": "the heading text",
        "level": "depth in the section tree (1 = top)",
        "parent_id": "section_id of the enclosing section",
        "page_start": "first page of a PDF section",
        "page_end": "last page of a PDF section",
        "text": "the section's normalised text",
        "char_start": "offset of the section in the document's text",
        "char_end": "end offset (exclusive) in the document's text",
        "text_start": "offset of the body after the heading",
    },
    "edges": {
        "edge_id": "stable id of the edge (hash of its endpoints, type and evidence)",
        "stage": "the asset that wrote the edge (edges, term_uses, ...)",
        "edge_type": "references, overrides, defines, depends_on, uses_term, ...",
        "layer": "1 patterns, 2 spaCy parse, 3 embedding similarity",
        "src_doc_id": "document of the source section",
        "src_section_id": "the section the evidence is in",
        "dst_doc_id": "the target document (null for a date or scope edge)",
        "dst_section_id": "the target section (null: the whole document)",
        "term": "the defined term (defines, uses_term)",
        "date_from": "start of the date an effective_on edge states",
        "date_to": "end of the date an effective_on edge states",
        "scope": "who the edge applies to (applies_to_scope)",
        "matched_text": "the evidence: the text the rule matched",
        "normalized_target": "the target as normalised for matching",
        "raw_target": "the target as written",
        "confidence": "the rule's confidence (0-1)",
        "condition": "a condition the edge holds under (unless, subject to)",
        "rule": "id of the rule that made the edge (`raag rules`)",
    },
    "embeddings": {
        "chunk_index": "position of the chunk in its document",
        "embedding": "the chunk's vector (pgvector, cosine HNSW index)",
        "live": "false for chunks of an earlier version: out of live search",
    },
}

# Each asset's table, as `dagster/table_name` (schema.table: the database is the
# deployment's). The graph stages write one table, told apart by its `stage` column.
TABLES = {
    "documents": "public.documents",
    "sections": "public.sections",
    "edges": "public.edges",
    "term_uses": "public.edges",
    "topic_links": "public.edges",
    "resolved_references": "public.edges",
    "embeddings": "public.chunks",
}

# The columns the documents and embeddings assets stand for (their tables hold more: the raw
# text and layout lines, the chunks' text and its search vector, which `sections` writes).
DOCUMENTS: dict[str, tuple[Any, str]] = {
    "tenant_id": (pl.String, "text"),
    "doc_id": (pl.String, "text"),
    "source_name": (pl.String, "text"),
    "format": (pl.String, "text"),
    "title": (pl.String, "text"),
    "doc_type": (pl.String, "text"),
    "authority_level": (pl.Int32, "int4"),
    "tags": (pl.List(pl.String), "text[]"),
    "metadata": (pl.Object, "jsonb"),
    "effective_from": (pl.Date, "date"),
    "effective_to": (pl.Date, "date"),
    "supersedes": (pl.String, "text"),
    "version": (pl.Int32, "int4"),
    "version_of": (pl.String, "text"),
    "content_hash": (pl.String, "text"),
    "page_count": (pl.Int32, "int4"),
    "text": (pl.String, "text"),
}
EMBEDDINGS: dict[str, tuple[Any, str]] = {  # the chunks' columns the asset writes
    k: CHUNKS[k]
    for k in ("tenant_id", "doc_id", "chunk_index", "content_hash", "embedding", "live")
}
EMBEDDINGS_LINEAGE = {  # a chunk is a piece of a section's text
    "doc_id": [("sections", "doc_id")],
    "embedding": [("sections", "text")],
}

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


def column_schema(schema: Mapping[str, tuple[Any, str]], table: str) -> dg.TableSchema:
    """The table's columns with their types (the frame's) and what each holds."""
    described = {**COMMON, **COLUMNS[table]}
    return dg.TableSchema(
        columns=[
            dg.TableColumn(c, str(t), description=described.get(c))
            for c, t in empty(schema).schema.items()
        ]
    )


def definition_metadata(asset: str, schema: Mapping[str, tuple[Any, str]]) -> dict[str, Any]:
    """An asset's definition metadata: its table and column schema, in the UI before (and
    between) materialisations."""
    return {
        "dagster/table_name": TABLES[asset],
        "dagster/column_schema": column_schema(schema, _table_of(asset)),
    }


def _table_of(asset: str) -> str:
    return "edges" if TABLES[asset] == "public.edges" else asset


def table_metadata(
    schema: Mapping[str, tuple[Any, str]],
    row_count: int,
    lineage: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    preview: pl.DataFrame | None = None,
    table: str = "sections",
) -> dict[str, Any]:
    """dagster/row_count, dagster/column_schema from the table's frame schema (with each
    column's meaning from COLUMNS[table]), dagster/column_lineage from `lineage` (column ->
    [(upstream asset, its column)]), and a preview table of `preview`'s rows, so the UI's
    lineage view goes down to columns."""
    out: dict[str, Any] = {
        "dagster/row_count": row_count,
        "dagster/column_schema": column_schema(schema, table),
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


def _cell(value: object) -> str | int | float | bool | None:
    if value is None or isinstance(value, (int, float, bool)):
        return value
    text = str(value).replace("\n", " ")
    return text if len(text) <= 80 else text[:79] + "…"
