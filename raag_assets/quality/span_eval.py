"""A span-labelled set scored on an ingested tenant: raag's chunks and passages next to BM25 and
dense retrieval over fixed 500-character chunks, in one run. A set whose tests carry a half
("look" / "scored", as golden/spans/cuad.json does) is scored half by half, each half a fixed
subsample of its contracts ingested as one tenant, so a query must find its contract among the
others as in a user's contract archive."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

from raag_assets.core.identity import sha256_hex
from raag_assets.quality import evaluation
from raag_assets.quality.cuad_spans import PARTS, sample
from raag_assets.store import db

BM25, DENSE = "BM25, 500-char chunks", "dense, 500-char chunks"
# Scored on a half: the baselines, raag's hybrid chunks, and its passages with and without the
# graph (the other modes of evaluation.raag_span_rankers cost time and answer no question here).
HALF_SYSTEMS = (BM25, DENSE, "hybrid chunks", "hybrid passages", "hybrid + graph passages")


@dataclass
class SpanReport:
    name: str  # the set, and its half where it has halves
    tenant: str
    files: int
    scores: list[dict[str, Any]]
    categories: list[dict[str, Any]]
    tests: int = 0
    dropped: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "set": self.name,
            "tenant": self.tenant,
            "files": self.files,
            "queries": self.tests,
            "left_out": self.dropped,
            "systems": self.scores,
            "hit@10_by_category": self.categories,
        }


def halves(data: evaluation.SpanSet, contracts: int | None) -> dict[str, evaluation.SpanSet]:
    """The set's halves, each restricted to the fixed subsample of `contracts` contracts
    (cuad_spans.sample; all of the half if None). Empty when no test carries a half."""
    if not any(t.part for t in data.tests):
        return {}
    files = {s[0] for t in data.tests for s in t.snippets}
    out = {}
    for part in PARTS:
        keep = set(sample(files, part, contracts))
        tests = tuple(
            t for t in data.tests if t.part == part and all(s[0] in keep for s in t.snippets)
        )
        out[part] = evaluation.SpanSet(data.corpus, tests)
    return out


def half_tenant(base: str, part: str, contracts: int | None) -> str:
    """One tenant per half and sample size: a wider sample never reuses a narrower tenant."""
    return f"{base}-{part}-{contracts if contracts is not None else 'all'}"[:48]


class VectorFile:
    """`embed` remembered in a .npz file by the hash of each text, so a baseline's chunks are
    embedded once across runs; `save()` writes what was added."""

    def __init__(self, path: Path, embed: Callable[[list[str]], Any]):
        self.path, self._embed, self._dirty = path, embed, False
        self._vectors: dict[str, np.ndarray] = {}
        if path.is_file():
            with np.load(path) as saved:
                self._vectors = dict(zip(saved["hashes"].tolist(), saved["vectors"], strict=True))

    def __call__(self, texts: list[str]) -> np.ndarray:
        hashes = [sha256_hex(t) for t in texts]
        by_hash = dict(zip(hashes, texts, strict=True))
        todo = [h for h in by_hash if h not in self._vectors]  # first seen first, once each
        if todo:
            fresh = np.asarray(self._embed([by_hash[h] for h in todo]), dtype=np.float32)
            self._vectors.update(zip(todo, fresh, strict=True))
            self._dirty = True
        return np.stack([self._vectors[h] for h in hashes])

    def save(self) -> None:
        if not self._dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        hashes = sorted(self._vectors)
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, hashes=np.array(hashes), vectors=np.stack([self._vectors[h] for h in hashes]))
        tmp.replace(self.path)
        self._dirty = False


def score_span_set(
    conn: psycopg.Connection,
    data: evaluation.SpanSet,
    tenant: str,
    embed: Callable[[list[str]], Any],
    *,
    name: str,
    systems: Sequence[str] | None = None,
    chunk_vectors: Path | None = None,
) -> SpanReport:
    """Score `data` on `tenant` (its files already ingested there). A file the pipeline refused
    is left out for every system, so all are scored on the same files. `systems` picks among
    the baselines and evaluation.raag_span_rankers (all if None); `chunk_vectors` is a .npz
    file caching the dense baseline's chunk vectors."""
    file_of: dict[str, str] = dict(
        conn.execute(db.load_sql("select_document_source_names"), {"tenant": tenant}).fetchall()
    )
    data, dropped = evaluation.only_files(data, set(file_of.values()))
    files = data.files()
    chunks = evaluation.fixed_chunks(files)
    cache = VectorFile(chunk_vectors, embed) if chunk_vectors else None
    makers: dict[str, Callable[[], evaluation.SpanRanker]] = {
        BM25: lambda: evaluation.bm25_span_ranker(chunks),
        DENSE: lambda: evaluation.dense_span_ranker(chunks, cache or embed),
    }
    raag = evaluation.raag_span_rankers(conn, tenant, embed, file_of)
    wanted = list(systems) if systems is not None else [*makers, *raag]
    unknown = [s for s in wanted if s not in makers and s not in raag]
    if unknown:
        raise ValueError(f"unknown systems {unknown}: {[*makers, *raag]}")
    rankers = {s: makers[s]() if s in makers else raag[s] for s in wanted}
    if cache:
        cache.save()
    ranked, ms = evaluation.rank_spans(data, rankers)
    return SpanReport(
        name,
        tenant,
        len(files),
        evaluation.span_scores(data, ranked, ms),
        evaluation.hits_by_category(data, ranked) if any(t.category for t in data.tests) else [],
        len(data.tests),
        dropped,
    )
