"""Retrieval quality on a BEIR-layout data set (corpus.jsonl, queries.jsonl, qrels/<split>.tsv):
nDCG@10, recall@10 and MRR@10 for vector-only, full-text-only, hybrid RRF and hybrid + graph,
next to a BM25 baseline (bm25s, Snowball stemming) on the same documents in the same run.

Each corpus entry is ingested through the ordinary pipeline as one Markdown document (its
title as the heading); ranked chunks or sections are turned into a ranked list of distinct
corpus ids, the section's or chunk's first appearance deciding the rank.
"""

import csv
import json
import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from raag_assets.errors import RaagError
from raag_assets.retrieval import RetrievalPlan, retrieve
from raag_assets.search import search

CUTOFF = 10
CHUNK_POOL = 100  # chunks fetched to fill CUTOFF distinct documents


@dataclass(frozen=True)
class BeirSet:
    corpus: dict[str, tuple[str, str]]  # id -> (title, text)
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]  # query id -> {corpus id: grade}


def load_beir(folder: Path, split: str = "test") -> BeirSet:
    """Read a BEIR folder; only queries judged in `split` are kept."""
    qrels_path = folder / "qrels" / f"{split}.tsv"
    for path in (folder / "corpus.jsonl", folder / "queries.jsonl", qrels_path):
        if not path.is_file():
            raise RaagError(f"not a BEIR folder: {path} is missing")
    qrels: dict[str, dict[str, int]] = {}
    with qrels_path.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if int(row["score"]) > 0:
                qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    corpus = {}
    for line in _lines(folder / "corpus.jsonl"):
        doc = json.loads(line)
        corpus[str(doc["_id"])] = (doc.get("title") or "", doc.get("text") or "")
    queries = {}
    for line in _lines(folder / "queries.jsonl"):
        q = json.loads(line)
        if str(q["_id"]) in qrels:
            queries[str(q["_id"])] = q["text"]
    return BeirSet(corpus, queries, {q: r for q, r in qrels.items() if q in queries})


def _lines(path: Path) -> Iterable[str]:
    with path.open(encoding="utf-8") as fh:
        yield from (line for line in fh if line.strip())


def subset(data: BeirSet, max_queries: int | None, max_docs: int | None, seed: int = 0) -> BeirSet:
    """A smaller set that keeps every judged document of the chosen queries, filled up with
    other documents (a fixed random sample) to `max_docs`."""
    rng = random.Random(seed)
    qids = sorted(data.queries, key=_natural)
    if max_queries is not None and max_queries < len(qids):
        qids = sorted(rng.sample(qids, max_queries), key=_natural)
    judged = sorted({d for q in qids for d in data.qrels[q] if d in data.corpus}, key=_natural)
    keep = list(data.corpus)
    if max_docs is not None:
        others = sorted(set(data.corpus) - set(judged), key=_natural)
        keep = judged + rng.sample(others, max(0, min(len(others), max_docs - len(judged))))
    return BeirSet(
        {d: data.corpus[d] for d in sorted(keep, key=_natural)},
        {q: data.queries[q] for q in qids},
        {q: data.qrels[q] for q in qids},
    )


def _natural(value: str) -> tuple[int, str]:
    return (int(value), value) if value.isdigit() else (10**18, value)


def write_corpus(data: BeirSet, folder: Path) -> list[Path]:
    """One Markdown file per corpus entry, named by its id (the doc_id)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for doc_id, (title, text) in data.corpus.items():
        path = folder / f"{doc_id}.md"
        heading = " ".join(title.split()) or f"Document {doc_id}"
        body = f"---\ndoc_id: {json.dumps(doc_id)}\n---\n# {heading}\n\n{text.strip()}\n"
        if not path.is_file() or path.read_text(encoding="utf-8") != body:
            path.write_text(body, encoding="utf-8")
        paths.append(path)
    return paths


# --- metrics (pure) ----------------------------------------------------------------------


def ndcg_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int = CUTOFF) -> float:
    """nDCG@k with graded gains (BEIR's definition: gain = grade, discount log2(rank + 1))."""
    dcg = sum(relevant.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int = CUTOFF) -> float:
    return len(set(ranked[:k]) & set(relevant)) / len(relevant) if relevant else 0.0


def mrr_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int = CUTOFF) -> float:
    for i, d in enumerate(ranked[:k]):
        if d in relevant:
            return 1.0 / (i + 1)
    return 0.0


def distinct(ids: Iterable[str], k: int = CUTOFF) -> list[str]:
    """The first k distinct ids, in order."""
    out: list[str] = []
    for d in ids:
        if d not in out:
            out.append(d)
            if len(out) == k:
                break
    return out


# --- systems -----------------------------------------------------------------------------

Ranker = Callable[[str], list[str]]


def raag_rankers(conn: psycopg.Connection, tenant: str, embed) -> dict[str, Ranker]:
    def chunks(mode: str) -> Ranker:
        plan = RetrievalPlan(k=CHUNK_POOL, pool=CHUNK_POOL, mode=mode)  # type: ignore[arg-type]
        return lambda q: distinct(c.doc_id for c in retrieve(conn, q, tenant, embed, plan))

    def graph(q: str) -> list[str]:
        res = search(q, tenant, k=2 * CUTOFF, max_expansion_hops=1, conn=conn, embed=embed)
        return distinct(r["doc_id"] for r in res.results)

    return {
        "vector": chunks("vector"),
        "full-text": chunks("fulltext"),
        "hybrid (RRF)": chunks("hybrid"),
        "hybrid + graph": graph,
    }


def bm25_ranker(data: BeirSet) -> Ranker:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    ids = list(data.corpus)
    texts = [f"{t} {x}" for t, x in data.corpus.values()]
    index = bm25s.BM25()
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    index.index(tokens, show_progress=False)

    def rank(q: str) -> list[str]:
        tokens = bm25s.tokenize([q], stopwords="en", stemmer=stemmer, show_progress=False)
        k = min(CUTOFF, len(ids))
        docs, _ = index.retrieve(tokens, k=k, show_progress=False)
        return [ids[int(i)] for i in docs[0]]

    return rank


@dataclass
class SystemScore:
    name: str
    ndcg: float = 0.0
    recall: float = 0.0
    mrr: float = 0.0
    ms_per_query: float = 0.0
    per_query: dict[str, list[str]] = field(default_factory=dict)


def evaluate(data: BeirSet, rankers: Mapping[str, Ranker]) -> list[SystemScore]:
    """Mean nDCG@10, recall@10 and MRR@10 of each ranker over the judged queries."""
    scores = []
    for name, rank in rankers.items():
        s = SystemScore(name)
        started = time.perf_counter()
        for qid, text in data.queries.items():
            ranked = rank(text)[:CUTOFF]
            s.per_query[qid] = ranked
            rel = data.qrels[qid]
            s.ndcg += ndcg_at(ranked, rel)
            s.recall += recall_at(ranked, rel)
            s.mrr += mrr_at(ranked, rel)
        n = max(1, len(data.queries))
        s.ndcg, s.recall, s.mrr = s.ndcg / n, s.recall / n, s.mrr / n
        s.ms_per_query = 1000 * (time.perf_counter() - started) / n
        scores.append(s)
    return scores
