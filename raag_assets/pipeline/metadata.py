"""Dagster table metadata read off a table's frame: row count, column schema, column lineage
(where each stored column comes from) and a preview, so the UI's lineage view goes down to
columns."""

from collections.abc import Mapping, Sequence
from typing import Any

import dagster as dg
import polars as pl

from raag_assets.store.frames import empty

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


def _cell(value: object) -> str | int | float | bool | None:
    if value is None or isinstance(value, (int, float, bool)):
        return value
    text = str(value).replace("\n", " ")
    return text if len(text) <= 80 else text[:79] + "…"
