"""Materialisation metadata shared by the graph assets: what the UI shows for each run."""

import time
from collections.abc import Callable, Sequence
from typing import Any

import dagster as dg
import psycopg

from raag_assets.core.model import EDGE_TYPES, Edge, SectionInfo, edge_id
from raag_assets.pipeline.metadata import EDGES_LINEAGE, table_metadata
from raag_assets.store import frames
from raag_assets.store import graph as graph_store
from raag_assets.store.db import load_sql, one

from .checks import endpoints_check

SAMPLE = 15


def _cell(text: str | None, limit: int = 70) -> str:
    text = (text or "").replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def edge_metadata(edges: Sequence[Edge], sections: Sequence[SectionInfo]) -> dict[str, Any]:
    """Counts per edge type and layer, and a sample of edges with their evidence."""
    labels = {s.section_id: f"{s.doc_id} § {s.label}" for s in sections}
    # every edge as given (duplicates too: the counts are of what the stage found)
    df = frames.edges_frame("", "", [(edge_id(e), e) for e in edges])
    counts = {(t, layer): n for t, layer, n in df.group_by("edge_type", "layer").len().iter_rows()}
    by_type = dict.fromkeys(EDGE_TYPES, 0) | dict(df.group_by("edge_type").len().iter_rows())
    by_layer = {1: 0, 2: 0, 3: 0} | dict(df.group_by("layer").len().iter_rows())
    rows = [
        f"| {t} | {by_type[t]} | "
        + " | ".join(str(counts.get((t, layer), 0)) for layer in (1, 2, 3))
        + " |"
        for t in EDGE_TYPES
        if by_type[t]
    ]
    sample = [
        f"| {e.edge_type} | {e.layer} | {_cell(_source(e, labels))} | "
        f"{_cell(_target(e, labels))} | {_cell(e.matched_text)} | {e.confidence:.2f} | "
        f"{e.rule or ''} |"
        for e in edges[:SAMPLE]
    ]
    # per rule: which rule made how many edges (a rule that misfires on new text shows here)
    per_rule = (
        df.group_by("rule", "edge_type").len().sort(["len", "rule"], descending=[True, False])
    )
    rule_rows = [f"| {r or '—'} | {t} | {n} |" for r, t, n in per_rule.iter_rows()]
    return {
        **table_metadata(
            frames.EDGES,
            df["edge_id"].n_unique(),
            EDGES_LINEAGE,
            df.head(SAMPLE).select(
                "edge_type",
                "layer",
                "src_section_id",
                "dst_doc_id",
                "dst_section_id",
                "matched_text",
                "confidence",
                "rule",
            ),
            table="edges",
        ),
        "edges": df.height,
        **{f"edges_{t}": by_type[t] for t in EDGE_TYPES if by_type[t]},
        **{f"layer_{layer}": by_layer[layer] for layer in (1, 2, 3) if by_layer[layer]},
        "edge_counts": dg.MetadataValue.md(
            "\n".join(
                [
                    "| type | total | layer 1 | layer 2 | layer 3 |",
                    "| --- | --- | --- | --- | --- |",
                    *rows,
                ]
            )
            if rows
            else "_no edges_"
        ),
        "rule_counts": dg.MetadataValue.md(
            "\n".join(["| rule | type | edges |", "| --- | --- | --- |", *rule_rows])
            if rule_rows
            else "_no edges_"
        ),
        "sample": dg.MetadataValue.md(
            "\n".join(
                [
                    "| type | layer | source | target | evidence | confidence | rule |",
                    "| --- | --- | --- | --- | --- | --- | --- |",
                    *sample,
                ]
            )
            if sample
            else "_no edges_"
        ),
    }


def _source(e: Edge, labels: dict[str, str]) -> str:
    return labels.get(e.src_section_id or "", e.src_doc_id)


def _target(e: Edge, labels: dict[str, str]) -> str:
    if e.dst_section_id:
        return labels.get(e.dst_section_id, e.dst_section_id)
    return e.dst_doc_id or e.term or e.scope or e.normalized_target


def errors_table(errors: dict[str, str]) -> dg.MarkdownMetadataValue:
    if not errors:
        return dg.MetadataValue.md("_none_")
    rows = [f"| {doc} | {_cell(reason, 200)} |" for doc, reason in sorted(errors.items())]
    return dg.MetadataValue.md("\n".join(["| document | reason |", "| --- | --- |", *rows]))


def downstream_fingerprint(conn: psycopg.Connection, tenant: str, *code: str) -> str | None:
    """A later graph stage's inputs are the edges stage's output: its fingerprint, plus this
    stage's own code version, says whether there is anything new to do."""
    upstream = graph_store.fingerprint(conn, tenant, "edges")
    return ":".join([upstream, *code]) if upstream else None


def unchanged(
    context: dg.AssetExecutionContext,
    conn: psycopg.Connection,
    tenant: str,
    stage: str,
    check_results: Sequence[dg.AssetCheckResult] = (),
) -> dg.MaterializeResult:
    """The result of a stage that found its inputs and code as they were: rows kept. It is
    still a materialisation (the stages downstream in the run go on, and skipping it would skip
    them), so it reports the figures of the last one that computed these rows, which the UI
    shows as the latest: edge counts, samples, column schema and lineage; the row count is
    read again from the store."""
    started = time.perf_counter()
    (rows,) = one(
        conn.execute(load_sql("select_stage_edge_count"), {"tenant": tenant, "stage": stage})
    )
    carried, run_id = last_metadata(context.instance, context.asset_key, tenant)
    return dg.MaterializeResult(
        check_results=list(check_results),
        metadata={
            **{k: v for k, v in carried.items() if k not in _PER_RUN},
            **table_metadata(frames.EDGES, rows, EDGES_LINEAGE, table="edges"),
            "unchanged": True,
            "note": f"{stage}: same inputs and code as the last run, rows kept"
            + (f"; figures from run {run_id}" if run_id else ""),
            "seconds": round(time.perf_counter() - started, 2),
        },
    )


# Metadata of one run only, never carried into a later one.
_PER_RUN = {"seconds", "sections_per_second", "unchanged", "note"}


def last_metadata(
    instance: dg.DagsterInstance, key: dg.AssetKey, tenant: str
) -> tuple[dict[str, Any], str | None]:
    """The metadata of the asset's latest materialisation for the tenant, and its run id."""
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=key, asset_partitions=[tenant]), limit=1
    ).records
    if not records or records[0].asset_materialization is None:
        return {}, None
    return dict(records[0].asset_materialization.metadata), records[0].run_id


def timing(started: float, sections: int) -> dict[str, float]:
    seconds = time.perf_counter() - started
    return {
        "seconds": round(seconds, 2),
        "sections_per_second": round(sections / seconds, 1) if seconds else 0.0,
    }


def rebuild_stage(
    context: dg.AssetExecutionContext,
    conn: psycopg.Connection,
    tenant: str,
    stage: str,
    code_version: str,
    compute: Callable[[list[SectionInfo]], list[Edge]],
) -> dg.MaterializeResult:
    """A graph stage after `edges`: keep its rows if the edges stage's output and this stage's
    code are as last time; else compute its edges from the sections and replace its rows."""
    started = time.perf_counter()
    fingerprint = downstream_fingerprint(conn, tenant, code_version)
    if fingerprint and graph_store.fingerprint(conn, tenant, stage) == fingerprint:
        return unchanged(context, conn, tenant, stage, [endpoints_check(conn, tenant, stage)])
    secs = graph_store.sections(conn, tenant)
    found = compute(secs)
    with conn.transaction():
        graph_store.replace_edges(
            conn, tenant, stage, found, {s.section_id: s.ordinal for s in secs}
        )
        if fingerprint:
            graph_store.set_fingerprint(conn, tenant, stage, fingerprint)
    return dg.MaterializeResult(
        check_results=[endpoints_check(conn, tenant, stage)],
        metadata={**edge_metadata(found, secs), **timing(started, len(secs))},
    )
