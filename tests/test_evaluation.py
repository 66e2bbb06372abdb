"""The quality harness: metric definitions on hand-worked cases, and a small SciFact sample
(BEIR layout, ../shared/data/scifact) through the real pipeline next to the BM25 baseline."""

import math
import os
from pathlib import Path

import pytest

from raag_assets import evaluation
from raag_assets.errors import RaagError


def shared_data() -> Path:
    """The shared data: $RAAG_SHARED if set, else `shared/` beside the checkout (../shared)."""
    root = os.environ.get("RAAG_SHARED")
    path = Path(root) if root else Path(__file__).resolve().parents[2] / "shared"
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
