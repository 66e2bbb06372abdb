"""The stages' pure entries over polars frames: each returns its table's frames.py schema, in
a deterministic order, and the eval tables aggregate with polars as the loops they replace."""

from pathlib import Path

import polars as pl
import pytest

from raag_assets.core.model import DocInfo, Edge, ParsedDocument
from raag_assets.ingest.chunking import ChunkPolicy
from raag_assets.ingest.parsing import is_sidecar, parse_file
from raag_assets.pipeline import stages
from raag_assets.quality import evaluation
from raag_assets.store import frames
from resources.nlp import load_pipeline
from tests.conftest import EXAMPLES


def _dtypes(table: dict) -> dict:
    return {c: t for c, (t, _) in table.items()}


def _plain(df: pl.DataFrame) -> pl.DataFrame:
    """The frame without its object columns (polars cannot compare those)."""
    return df.select(c for c, t in df.schema.items() if t != pl.Object)


@pytest.fixture(scope="module")
def parsed() -> list[ParsedDocument]:
    files = sorted(p for p in Path(EXAMPLES).iterdir() if p.is_file() and not is_sidecar(p))
    return [parse_file(p, 50_000_000) for p in files]


@pytest.fixture(scope="module")
def documents(parsed) -> pl.DataFrame:
    return frames.documents_frame(
        [(d.meta.doc_id, d.format, d.lines, ["policy"], {"n": i}) for i, d in enumerate(parsed)]
    )


@pytest.fixture(scope="module")
def sectioned(documents, embedder) -> stages.SectionFrames:
    return stages.section_frames("t", documents, ChunkPolicy(200), embedder.count_tokens)


def test_section_frames_have_the_table_schemas_and_every_document_in_order(documents, sectioned):
    assert dict(sectioned.sections.schema) == _dtypes(frames.SECTIONS)
    assert dict(sectioned.chunks.schema) == _dtypes(frames.CHUNKS)
    assert sectioned.failed == {}
    ids = documents["doc_id"].to_list()
    # documents in input order, sections by ordinal, chunks numbered 0.. within a document
    assert sectioned.sections["doc_id"].unique(maintain_order=True).to_list() == ids
    keys = sectioned.sections.select(
        pl.col("doc_id").replace_strict(ids, list(range(len(ids)))), "ordinal"
    ).rows()
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    first = sectioned.chunks.group_by("doc_id").agg(pl.col("chunk_index").first())
    assert set(first["chunk_index"]) == {0}
    # each chunk carries its document's tags and metadata; the store fills embedding and live
    row = sectioned.chunks.row(0, named=True)
    assert row["tags"] == ["policy"] and row["metadata"] == {"n": 0}
    assert row["embedding"] is None and row["live"] is None


def test_section_frames_are_deterministic(documents, embedder, sectioned):
    again = stages.section_frames("t", documents, ChunkPolicy(200), embedder.count_tokens)
    assert again.sections.equals(sectioned.sections)
    assert _plain(again.chunks).equals(_plain(sectioned.chunks))


def test_a_document_that_cannot_be_sectioned_is_reported_and_the_rest_are_built(
    documents, embedder
):
    broken = pl.concat(
        [
            frames.documents_frame([("broken.md", "markdown", [None], [], {})]),
            documents.head(1),
        ]
    )
    out = stages.section_frames("t", broken, ChunkPolicy(200), embedder.count_tokens)
    assert list(out.failed) == ["broken.md"]
    assert set(out.sections["doc_id"]) == {documents["doc_id"][0]}
    summary = stages.sectioned_summary(broken, out)
    assert summary["doc_id"].to_list() == [documents["doc_id"][0]]
    assert summary["sections"][0] == out.sections.height
    assert summary["chunks"][0] == out.chunks.height
    assert summary["labels"][0].to_list() == out.sections["label"].head(12).to_list()


@pytest.fixture(scope="module")
def graph(parsed, sectioned) -> tuple[list[DocInfo], pl.DataFrame]:
    docs = [DocInfo(d.meta.doc_id, d.source_name, d.meta.title, d.meta.doc_type) for d in parsed]
    return docs, sectioned.sections.select(list(frames.GRAPH_SECTIONS))


def test_edge_frames_have_the_table_schemas_and_are_deterministic(graph):
    nlp = load_pipeline("en_core_web_sm")

    def parse(texts: list[str]) -> list:
        return list(nlp.pipe(texts))

    docs, sections = graph
    earlier = frames.sections_rows([])
    out = stages.edge_frames("t", docs, sections, earlier, parse)
    assert dict(out.edges.schema) == _dtypes(frames.EDGES)
    assert dict(out.terms.schema) == _dtypes(frames.TERMS)
    assert out.edges.height > 0 and out.edges["edge_id"].is_unique().all()
    assert out.edges["ordinal"].to_list() == list(range(out.edges.height))
    assert set(out.edges["stage"]) == {"edges"} and set(out.edges["tenant_id"]) == {"t"}
    again = stages.edge_frames("t", docs, sections, earlier, parse)
    assert again.edges.equals(out.edges) and again.terms.equals(out.terms)


def test_stage_edges_keeps_the_first_of_duplicates_in_the_stored_order():
    def ref(position: int, section: str) -> Edge:
        return Edge(
            "references", 1, "d", section, f"Section 2 ({position})", "d § 2", 0.9,
            dst_doc_id="d", dst_section_id="d:2", position=position,
        )  # fmt: skip

    # the same edge (same id) found twice in section d:1, and one from d:0 listed last
    df = frames.stage_edges("t", "edges", [ref(30, "d:1"), ref(5, "d:1"), ref(1, "d:0")],
                            {"d:0": 0, "d:1": 1})  # fmt: skip
    assert df["src_section_id"].to_list() == ["d:0", "d:1"]
    assert df["matched_text"].to_list() == ["Section 2 (1)", "Section 2 (5)"]
    assert df["ordinal"].to_list() == [0, 1]


def test_system_means_divide_by_the_queries_and_keep_the_systems_order():
    rows = [
        {"system": "b", "ndcg": 1.0},
        {"system": "a", "ndcg": 0.5},
        {"system": "b", "ndcg": 0.0},
    ]
    table = evaluation.system_means(rows, ["b", "c", "a"], 4, ["ndcg"])
    assert table.rows() == [("b", 0.25), ("c", 0.0), ("a", 0.125)]


def test_span_table_means_each_system_over_the_queries_in_the_printed_column_order(tmp_path):
    tests = (
        evaluation.SpanTest("a", (("f.txt", 0, 10),)),
        evaluation.SpanTest("b", (("f.txt", 20, 30),)),
    )
    data = evaluation.SpanSet(tmp_path, tests)
    rankers = {
        "half": lambda q: [("f.txt", 0, 5)] if q == "a" else [("f.txt", 0, 5), ("f.txt", 20, 30)],
        "none": lambda q: [],
    }
    rows = evaluation.evaluate_spans(data, rankers)
    assert [r["system"] for r in rows] == ["half", "none"]
    keys = [f"{m}@{k}" for k in evaluation.SPAN_KS for m in ("precision", "recall", "hit")]
    assert list(rows[0])[1:-1] == keys and list(rows[0])[-1] == "ms_per_query"
    # "a": P 1, R 0.5 at every k; "b": P 0 R 0 at 1, P 10/15 R 1 from 4
    assert rows[0]["precision@1"] == 0.5 and rows[0]["recall@1"] == 0.25
    assert rows[0]["precision@4"] == round((1 + 10 / 15) / 2, 4) and rows[0]["recall@4"] == 0.75
    assert rows[0]["hit@1"] == 0.5 and rows[0]["hit@4"] == 1.0  # "b" is touched from rank 2
    assert all(rows[1][k] == 0.0 for k in keys)
