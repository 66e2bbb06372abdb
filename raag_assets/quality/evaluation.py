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
import os
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import psycopg

from raag_assets.core.errors import RaagError
from raag_assets.retrieval.candidates import Mode, RetrievalPlan, retrieve
from raag_assets.retrieval.search import search

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
    def chunks(mode: Mode) -> Ranker:
        plan = RetrievalPlan(k=CHUNK_POOL, pool=CHUNK_POOL, mode=mode)
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
    n = max(1, len(data.queries))
    ranked: dict[str, dict[str, list[str]]] = {}
    ms: dict[str, float] = {}
    rows: list[dict[str, Any]] = []
    for name, rank in rankers.items():
        started = time.perf_counter()
        ranked[name] = {qid: rank(text)[:CUTOFF] for qid, text in data.queries.items()}
        rows += [
            {
                "system": name,
                "ndcg": ndcg_at(r, data.qrels[qid]),
                "recall": recall_at(r, data.qrels[qid]),
                "mrr": mrr_at(r, data.qrels[qid]),
            }
            for qid, r in ranked[name].items()
        ]
        ms[name] = 1000 * (time.perf_counter() - started) / n
    table = system_means(rows, list(rankers), n, ("ndcg", "recall", "mrr"))
    return [
        SystemScore(
            row["system"],
            row["ndcg"],
            row["recall"],
            row["mrr"],
            ms[row["system"]],
            ranked[row["system"]],
        )
        for row in table.iter_rows(named=True)
    ]


def system_means(
    rows: Sequence[Mapping[str, Any]], systems: Sequence[str], n: int, metrics: Sequence[str]
) -> pl.DataFrame:
    """The per-system table: each metric's per-query values summed and divided by the number
    of queries `n`, one row per system in `systems`' order (0.0 for a system without rows)."""
    per_query = pl.DataFrame(
        list(rows), schema={"system": pl.String, **{m: pl.Float64 for m in metrics}}, orient="row"
    )
    means = per_query.group_by("system").agg(pl.col(m).sum() / n for m in metrics)
    return (
        pl.DataFrame({"system": list(systems)}, schema={"system": pl.String})
        .join(means, on="system", how="left", maintain_order="left")
        .fill_null(0.0)
    )


# --- span-labelled sets ------------------------------------------------------------------
# {"tests": [{"query", "snippets": [{"file_path", "span": [start, end]}]}]} over a corpus
# folder, spans as character offsets into the files as open() reads them. A system returns
# ranked (file_path, start, end) spans; character precision and recall at k compare the
# characters of its first k spans (overlaps counted once) with the labelled ones.

SPAN_KS = (1, 4, 10)
FIXED_CHUNK = 500  # characters per chunk of the baselines
Span = tuple[str, int, int]
SpanRanker = Callable[[str], list[Span]]


@dataclass(frozen=True)
class SpanTest:
    query: str
    snippets: tuple[Span, ...]
    category: str = ""  # what the query asks for, where the set says (CUAD's category)
    part: str = ""  # the half of a split set the test belongs to ("look" / "scored")


@dataclass(frozen=True)
class SpanSet:
    corpus: Path
    tests: tuple[SpanTest, ...]

    def files(self) -> list[Path]:
        names = sorted({s[0] for t in self.tests for s in t.snippets})
        return [self.corpus / n for n in names]


def load_spans(path: Path, corpus: Path | None = None) -> SpanSet:
    """A span-labelled set; the corpus folder is `corpus`, else the set's own "corpus" entry
    (relative to the set's file, else to the working directory; "../shared/..." under
    RAAG_SHARED when that is set)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict) or not isinstance(raw.get("tests"), list):
        raise RaagError(f"{path} is not a span-labelled set: it needs a 'tests' list")
    if corpus is None:
        named = raw.get("corpus")
        if not named:
            raise RaagError(f"{path} names no corpus folder: pass --corpus")
        candidates = [path.parent / named, Path(named)]
        shared = os.environ.get("RAAG_SHARED")
        if shared and named.startswith("../shared/"):
            candidates.insert(0, Path(shared) / named.removeprefix("../shared/"))
        corpus = next((c for c in candidates if c.is_dir()), candidates[-1])
    if not corpus.is_dir():
        raise RaagError(f"corpus folder {corpus} does not exist")
    tests = []
    for t in raw["tests"]:
        snippets = tuple(
            (str(s["file_path"]), int(s["span"][0]), int(s["span"][1])) for s in t["snippets"]
        )
        tests.append(
            SpanTest(str(t["query"]), snippets, str(t.get("category", "")), str(t.get("part", "")))
        )
    return SpanSet(corpus, tuple(tests))


def only_files(data: SpanSet, files: set[str]) -> tuple[SpanSet, list[str]]:
    """The set restricted to tests whose snippets are all in `files`; the files left out."""
    kept = tuple(t for t in data.tests if all(s[0] in files for s in t.snippets))
    dropped = sorted({s[0] for t in data.tests for s in t.snippets} - files)
    return SpanSet(data.corpus, kept), dropped


def _merged(spans: Iterable[Span]) -> dict[str, list[tuple[int, int]]]:
    by_file: dict[str, list[tuple[int, int]]] = {}
    for f, a, b in sorted(spans):
        if b <= a:
            continue
        runs = by_file.setdefault(f, [])
        if runs and a <= runs[-1][1]:
            runs[-1] = (runs[-1][0], max(runs[-1][1], b))
        else:
            runs.append((a, b))
    return by_file


def _length(runs: dict[str, list[tuple[int, int]]]) -> int:
    return sum(b - a for spans in runs.values() for a, b in spans)


def span_precision_recall(retrieved: Sequence[Span], gold: Sequence[Span]) -> tuple[float, float]:
    """Character precision and recall of retrieved spans against labelled ones."""
    got, want = _merged(retrieved), _merged(gold)
    overlap = 0
    for f, runs in got.items():
        for a, b in runs:
            for c, d in want.get(f, []):
                overlap += max(0, min(b, d) - max(a, c))
    n_got, n_want = _length(got), _length(want)
    return (overlap / n_got if n_got else 0.0), (overlap / n_want if n_want else 0.0)


def fixed_chunks(files: Sequence[Path], size: int = FIXED_CHUNK) -> list[tuple[Span, str]]:
    """Every file (as open() reads it) cut into consecutive `size`-character chunks."""
    out = []
    for path in files:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for start in range(0, len(text), size):
            piece = text[start : start + size]
            if piece.strip():
                out.append(((path.name, start, start + len(piece)), piece))
    return out


def bm25_span_ranker(chunks: Sequence[tuple[Span, str]]) -> SpanRanker:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    index = bm25s.BM25()
    index.index(
        bm25s.tokenize(
            [t for _, t in chunks], stopwords="en", stemmer=stemmer, show_progress=False
        ),
        show_progress=False,
    )

    def rank(q: str) -> list[Span]:
        tokens = bm25s.tokenize([q], stopwords="en", stemmer=stemmer, show_progress=False)
        found, _ = index.retrieve(tokens, k=min(max(SPAN_KS), len(chunks)), show_progress=False)
        return [chunks[int(i)][0] for i in found[0]]

    return rank


def dense_span_ranker(chunks: Sequence[tuple[Span, str]], embed) -> SpanRanker:
    import numpy as np

    vectors = np.asarray(embed([t for _, t in chunks]))

    def rank(q: str) -> list[Span]:
        sims = vectors @ np.asarray(embed([q]))[0]
        order = sorted(range(len(chunks)), key=lambda i: (-float(sims[i]), i))
        return [chunks[i][0] for i in order[: max(SPAN_KS)]]

    return rank


def raag_span_rankers(
    conn: psycopg.Connection, tenant: str, embed, file_of: Mapping[str, str]
) -> dict[str, SpanRanker]:
    """raag's modes as span rankers: retrieve()'s chunks (their spans), and search()'s
    passages, with and without graph expansion. `file_of` maps doc_id -> file name."""
    k = max(SPAN_KS)

    def chunks(mode: Mode) -> SpanRanker:
        plan = RetrievalPlan(k=k, mode=mode)
        return lambda q: [
            (file_of[c.doc_id], c.char_start, c.char_end)
            for c in retrieve(conn, q, tenant, embed, plan)
            if c.char_start is not None and c.char_end is not None
        ]

    def passages(mode: Mode, hops: int) -> SpanRanker:
        def rank(q: str) -> list[Span]:
            res = search(
                q,
                tenant,
                k=k,
                mode=mode,
                max_expansion_hops=hops,
                granularity="passage",
                conn=conn,
                embed=embed,
            )
            return [
                (file_of[r["doc_id"]], r["char_start"], r["char_end"])
                for r in res.results
                if r["char_start"] is not None
            ]

        return rank

    return {
        "vector chunks": chunks("vector"),
        "full-text chunks": chunks("fulltext"),
        "hybrid chunks": chunks("hybrid"),
        "vector passages": passages("vector", 0),
        "full-text passages": passages("fulltext", 0),
        "hybrid passages": passages("hybrid", 0),
        "hybrid + graph passages": passages("hybrid", 1),
    }


def span_hit(retrieved: Sequence[Span], gold: Sequence[Span]) -> bool:
    """Whether any retrieved span shares a character with a labelled one."""
    want = _merged(gold)
    return any(min(b, d) > max(a, c) for f, a, b in retrieved for c, d in want.get(f, []) if b > a)


RankedSpans = dict[str, list[list[Span]]]  # system -> per test (in the set's order) its ranking


def rank_spans(
    data: SpanSet, rankers: Mapping[str, SpanRanker]
) -> tuple[RankedSpans, dict[str, float]]:
    """Each system's first max(SPAN_KS) spans for every test, and its milliseconds a query."""
    ranked: RankedSpans = {}
    ms: dict[str, float] = {}
    for name, rank in rankers.items():
        started = time.perf_counter()
        ranked[name] = [rank(t.query)[: max(SPAN_KS)] for t in data.tests]
        ms[name] = round(1000 * (time.perf_counter() - started) / max(1, len(data.tests)), 1)
    return ranked, ms


def span_scores(
    data: SpanSet, ranked: RankedSpans, ms: Mapping[str, float] | None = None
) -> list[dict[str, Any]]:
    """Mean character precision and recall, and the share of tests hit, at each of SPAN_KS,
    per system."""
    metrics = [f"{m}@{k}" for k in SPAN_KS for m in ("precision", "recall", "hit")]
    rows: list[dict[str, Any]] = []
    for name, rankings in ranked.items():
        for t, spans in zip(data.tests, rankings, strict=True):
            row: dict[str, Any] = {"system": name}
            for k in SPAN_KS:
                row[f"precision@{k}"], row[f"recall@{k}"] = span_precision_recall(
                    spans[:k], t.snippets
                )
                row[f"hit@{k}"] = float(span_hit(spans[:k], t.snippets))
            rows.append(row)
    table = system_means(rows, list(ranked), max(1, len(data.tests)), metrics)
    return [
        {
            "system": r["system"],
            **{m: round(r[m], 4) for m in metrics},
            "ms_per_query": (ms or {}).get(r["system"], 0.0),
        }
        for r in table.iter_rows(named=True)
    ]


def hits_by_category(data: SpanSet, ranked: RankedSpans, k: int = CUTOFF) -> list[dict[str, Any]]:
    """Per category (in first-seen order): its number of tests and each system's hit@k."""
    categories = list(dict.fromkeys(t.category for t in data.tests))
    out = []
    for category in categories:
        index = [i for i, t in enumerate(data.tests) if t.category == category]
        row: dict[str, Any] = {"category": category, "tests": len(index)}
        for name, rankings in ranked.items():
            hits = sum(span_hit(rankings[i][:k], data.tests[i].snippets) for i in index)
            row[name] = round(hits / len(index), 4)
        out.append(row)
    return out


def evaluate_spans(data: SpanSet, rankers: Mapping[str, SpanRanker]) -> list[dict[str, Any]]:
    """Mean character precision, recall and hit rate at each of SPAN_KS, per system."""
    ranked, ms = rank_spans(data, rankers)
    return span_scores(data, ranked, ms)
