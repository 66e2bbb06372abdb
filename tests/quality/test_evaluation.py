"""The quality harness: metric definitions on hand-worked cases, and a small SciFact sample
(BEIR layout, ../shared/data/scifact) through the real pipeline next to the BM25 baseline."""

import math
import os
from pathlib import Path

import pytest

from raag_assets.core.errors import RaagError
from raag_assets.quality import evaluation


def shared_data() -> Path:
    """The shared data: $RAAG_SHARED if set, else `shared/` beside the checkout (../shared)."""
    root = os.environ.get("RAAG_SHARED")
    path = Path(root) if root else Path(__file__).resolve().parents[3] / "shared"
    if not (path / "data" / "scifact" / "corpus.jsonl").is_file():
        raise FileNotFoundError(f"no data/scifact under {path}: set RAAG_SHARED")
    return path


SCIFACT = shared_data() / "data" / "scifact"


def test_metrics_on_hand_worked_rankings():
    rel = {"a": 1, "b": 2}
    assert evaluation.recall_at(["x", "a", "y"], rel) == 0.5
    assert evaluation.mrr_at(["x", "y", "a"], rel) == pytest.approx(1 / 3)
    assert evaluation.mrr_at(["x"] * 10 + ["a"], rel) == 0.0  # past the cutoff
    ideal = 2 / math.log2(2) + 1 / math.log2(3)
    assert evaluation.ndcg_at(["b", "a"], rel) == pytest.approx(1.0)
    assert evaluation.ndcg_at(["a", "b"], rel) == pytest.approx((1 + 2 / math.log2(3)) / ideal)
    assert evaluation.ndcg_at([], rel) == 0.0
    assert evaluation.distinct(["a", "a", "b", "c"], k=2) == ["a", "b"]


def test_load_beir_refuses_a_folder_that_is_not_one(tmp_path):
    with pytest.raises(RaagError, match="not a BEIR folder"):
        evaluation.load_beir(tmp_path)


def test_scifact_sample_scores_every_system_against_bm25(make_store, embedder, tmp_path):
    data = evaluation.subset(evaluation.load_beir(SCIFACT), max_queries=8, max_docs=40)
    assert len(data.queries) == 8 and len(data.corpus) == 40
    assert all(d in data.corpus for q in data.qrels.values() for d in q)  # judged docs kept
    store = make_store()
    summary = store.ingest(evaluation.write_corpus(data, tmp_path / "scifact"), "scifact")
    assert summary.success and summary.counts["documents"] == 40
    with store.connect() as conn:
        rankers = {
            "bm25": evaluation.bm25_ranker(data),
            **evaluation.raag_rankers(conn, "scifact", embedder.embed),
        }
        scores = {s.name: s for s in evaluation.evaluate(data, rankers)}
    assert set(scores) == {"bm25", "vector", "full-text", "hybrid (RRF)", "hybrid + graph"}
    for s in scores.values():
        assert 0 <= s.ndcg <= 1 and 0 <= s.recall <= 1 and 0 <= s.mrr <= 1
        assert all(len(r) <= evaluation.CUTOFF for r in s.per_query.values())
    # 40 documents, every judged one among them: real systems find most answers
    assert scores["bm25"].recall >= 0.8 and scores["vector"].recall >= 0.8
    assert scores["hybrid (RRF)"].ndcg >= 0.6
    # abstracts do not cite each other: graph-aware scoring must not push answers down (it did
    # when numeric doc ids were read as versions and every abstract "superseded" another)
    assert scores["hybrid + graph"].ndcg >= scores["hybrid (RRF)"].ndcg - 0.05


def test_span_precision_and_recall_count_characters_once():
    gold = [("a.txt", 100, 200)]
    assert evaluation.span_precision_recall([("a.txt", 100, 200)], gold) == (1.0, 1.0)
    p, r = evaluation.span_precision_recall([("a.txt", 150, 250), ("a.txt", 150, 250)], gold)
    assert (p, r) == (0.5, 0.5)  # a span retrieved twice counts once
    p, r = evaluation.span_precision_recall([("a.txt", 0, 400), ("b.txt", 100, 200)], gold)
    assert (round(p, 4), r) == (0.2, 1.0)
    assert evaluation.span_precision_recall([], gold) == (0.0, 0.0)


def test_fixed_chunks_and_span_sets_index_files_as_read(tmp_path):
    (tmp_path / "c.txt").write_bytes(b"line one\r\nline two\r\n" * 40)
    chunks = evaluation.fixed_chunks([tmp_path / "c.txt"], size=100)
    text = open(tmp_path / "c.txt", encoding="utf-8").read()  # noqa: SIM115
    assert all(text[a:b] == piece for (_, a, b), piece in chunks)
    assert chunks[-1][0][2] == len(text)
    spans = tmp_path / "set.json"
    spans.write_text(
        '{"corpus": ".", "tests": [{"query": "two", "snippets": '
        '[{"file_path": "c.txt", "span": [5, 8]}]}]}',
        encoding="utf-8",
    )
    data = evaluation.load_spans(spans)
    assert data.tests[0].snippets == (("c.txt", 5, 8),) and data.files() == [tmp_path / "c.txt"]
    with pytest.raises(RaagError, match="tests"):
        (tmp_path / "bad.json").write_text("[]", encoding="utf-8")
        evaluation.load_spans(tmp_path / "bad.json")


def test_committed_cuad_span_set_points_at_the_labelled_clauses():
    import json

    root = Path(__file__).resolve().parents[2]
    data = json.loads((root / "golden" / "spans" / "cuad_dev.json").read_text(encoding="utf-8"))
    import os

    shared = Path(os.environ.get("RAAG_SHARED", root.parent / "shared"))
    corpus = shared / "data" / "dev_legal" / "contracts"
    assert len(data["tests"]) >= 20
    for t in data["tests"]:
        for s in t["snippets"]:
            text = open(corpus / s["file_path"], encoding="utf-8").read()  # noqa: SIM115
            a, b = s["span"]
            assert 0 <= a < b <= len(text) and text[a:b].strip() == text[a:b]
