"""The pure entry of each stage over polars frames: the upstream table's rows in, the stage's
rows out with the frames.py schema, ready for binary COPY. The work inside stays per document
(sectioning, chunking, extraction read one document at a time); these functions are where a
stage meets its tables."""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import polars as pl

from raag_assets.core.model import DocInfo, SectionInfo, dedupe
from raag_assets.graph.build import Extraction, Parse, extract
from raag_assets.graph.versions import version_links
from raag_assets.ingest.chunking import Chunk, ChunkPolicy, TokenCounter, chunk_sections
from raag_assets.ingest.sectioning import Section, build_sections
from raag_assets.store import frames


class SectionFrames(NamedTuple):
    sections: pl.DataFrame  # frames.SECTIONS
    chunks: pl.DataFrame  # frames.CHUNKS; embedding and live are the store's to fill
    failed: dict[str, str]  # doc_id -> reason, for documents that could not be sectioned


def section_frames(
    tenant: str, documents: pl.DataFrame, policy: ChunkPolicy, count_tokens: TokenCounter
) -> SectionFrames:
    """Every document's section tree and chunks, in the documents' order; a document that
    fails is reported in `failed` and the others are built."""
    sections, chunks = [frames.empty(frames.SECTIONS)], [frames.empty(frames.CHUNKS)]
    failed: dict[str, str] = {}
    for doc in documents.iter_rows(named=True):
        try:
            secs = build_sections(doc["doc_id"], doc["lines"], doc["format"])
            doc_chunks = chunk_sections(secs, policy, count_tokens)
        except Exception as exc:  # one bad document must not stop the tenant
            failed[doc["doc_id"]] = f"{type(exc).__name__}: {exc}"
            continue
        sections.append(sections_frame(tenant, secs))
        chunks.append(
            chunks_frame(
                tenant, doc_chunks, tags=doc["tags"], metadata=doc["metadata"], kept={}, live=None
            )
        )
    return SectionFrames(pl.concat(sections), pl.concat(chunks), failed)


def sectioned_summary(documents: pl.DataFrame, out: SectionFrames) -> pl.DataFrame:
    """Each document sectioned, in the documents' order: its section and chunk counts and its
    first 12 section labels."""
    per_doc = out.sections.group_by("doc_id").agg(
        sections=pl.len(), labels=pl.col("label").head(12)
    )
    per_doc_chunks = out.chunks.group_by("doc_id").agg(chunks=pl.len())
    return (
        documents.select("doc_id")
        .filter(~pl.col("doc_id").is_in(list(out.failed)))
        .join(per_doc, on="doc_id", how="left", maintain_order="left")
        .join(per_doc_chunks, on="doc_id", how="left", maintain_order="left")
        .select(
            "doc_id",
            pl.col("sections").fill_null(0).cast(pl.Int64),
            pl.col("chunks").fill_null(0).cast(pl.Int64),
            pl.col("labels").fill_null([]),
        )
    )


class EdgeFrames(NamedTuple):
    edges: pl.DataFrame  # frames.EDGES, in the stored order, one row per edge id
    terms: pl.DataFrame  # frames.TERMS
    extraction: Extraction  # the same edges as objects, with topics, parked refs and errors


def section_infos(sections: pl.DataFrame) -> list[SectionInfo]:
    """The rows as the extraction rules read them, one section at a time."""
    return [SectionInfo(*row) for row in sections.select(list(frames.GRAPH_SECTIONS)).iter_rows()]


def edge_frames(
    tenant: str,
    documents: Sequence[DocInfo],
    sections: pl.DataFrame,
    earlier: pl.DataFrame,
    parse: Parse,
) -> EdgeFrames:
    """The edges stage: Layers 1 and 2 over the live sections, then each document-level
    supersedes edge refined into links from the new version's sections to the `earlier`
    version's, so search can answer from the version in force."""
    secs, before = section_infos(sections), section_infos(earlier)
    result = extract(documents, secs, parse)
    replaced = [
        (e.src_doc_id, e.dst_doc_id)
        for e in result.edges
        if e.edge_type == "supersedes" and e.src_section_id is None and e.dst_doc_id
    ]
    result.edges = dedupe([*result.edges, *version_links(replaced, [*secs, *before])])
    order = dict(pl.concat([sections, earlier]).select("section_id", "ordinal").iter_rows())
    return EdgeFrames(
        frames.stage_edges(tenant, "edges", result.edges, order),
        frames.terms_frame(tenant, result.terms),
        result,
    )


def sections_frame(tenant: str, sections: Sequence[Section]) -> pl.DataFrame:
    rows = [
        # text_start: where the body text begins in the raw text (offsets < 0 are made-up text)
        {
            **frames.columns_of(s, frames.SECTIONS),
            "tenant_id": tenant,
            "text_start": next((o for o in s.offsets if o >= 0), None),
        }
        for s in sections
    ]
    return frames.frame(frames.SECTIONS, rows)


def chunks_frame(
    tenant: str,
    chunks: Sequence[Chunk],
    *,
    tags: list[str],
    metadata: object,
    kept: Mapping[str, object],
    live: bool | None,
) -> pl.DataFrame:
    """A document's chunks; `kept` maps content hashes to embeddings still valid. `live` is
    None before the store says (replace_sections sets it from the document's version)."""
    rows = [
        {
            **frames.columns_of(c, frames.CHUNKS),
            "tenant_id": tenant,
            "tags": tags,
            "metadata": metadata,
            "embedding": kept.get(c.content_hash),
            "live": live,
        }
        for c in chunks
    ]
    return frames.frame(frames.CHUNKS, rows)
