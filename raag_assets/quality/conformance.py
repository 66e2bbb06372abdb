"""Golden conformance: ingest a fixed corpus into a fresh tenant, compute what the spec pins
(section trees, chunks, edges, top-k ids of retrieve() and search(), embeddings) and compare
it with the newest expected version under golden/conformance/vN/. See its README."""

import difflib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dagster as dg
import numpy as np
import psycopg
import yaml

from raag_assets.core.errors import RaagError
from raag_assets.ingest.embedding import shared_embedder
from raag_assets.pipeline.run import drop_tenant, ingest
from raag_assets.retrieval.candidates import RRF_K, RetrievalPlan, retrieve
from raag_assets.retrieval.search import search
from raag_assets.store import db
from resources import EmbedderResource

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "conformance"
TENANT = "conformance"
TOLERANCE = 1e-4  # max |difference| of an embedding value
RETRIEVE_K, SEARCH_K = 8, 5
DIFF_LINES = 60


@dataclass
class Report:
    version: int
    differences: dict[str, list[str]] = field(default_factory=dict)  # part -> diff lines
    embedding_drift: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.differences


def versions(root: Path = GOLDEN) -> list[int]:
    return sorted(int(p.name[1:]) for p in root.glob("v[0-9]*") if p.name[1:].isdigit())


def observe(
    resources: Mapping[str, dg.ConfigurableResource],
    instance: dg.DagsterInstance,
    url: str | None = None,
    root: Path = GOLDEN,
    rrf_k: int = RRF_K,
    reingest: bool = True,
) -> tuple[dict[str, Any], dict[str, list[float]]]:
    """Ingest the golden corpus into a fresh tenant (or reuse the last one, to vary only
    retrieval); return (outputs, embeddings)."""
    if reingest:
        with db.connect(url) as conn:
            fresh = TENANT not in db.tenants(conn)
        if not fresh:
            drop_tenant(TENANT, resources=resources, instance=instance)
        corpus = sorted((root / "corpus").iterdir())
        summary = ingest(corpus, TENANT, resources=resources, instance=instance)
        if not summary.success:
            raise RaagError(f"conformance ingest failed: {summary.error}")
    queries = yaml.safe_load((root / "queries.yaml").read_text(encoding="utf-8"))["queries"]
    model = resources["embedder"]  # the model the ingest used, loaded once per process
    if not isinstance(model, EmbedderResource):
        raise TypeError("resources need an EmbedderResource 'embedder'")
    embed = shared_embedder(model.model, model.batch_size).embed
    with db.connect(url) as conn:
        outputs: dict[str, Any] = {
            "sections": _rows(conn, "select_conformance_sections"),
            "chunks": _rows(conn, "select_conformance_chunks"),
            "edges": _rows(conn, "select_conformance_edges"),
            "retrieve": {},
            "search": {},
        }
        plan = RetrievalPlan(k=RETRIEVE_K, rrf_k=rrf_k)
        for item in queries:
            q = item["q"]
            found = retrieve(conn, q, TENANT, embed, plan)
            outputs["retrieve"][q] = [
                [f"{c.doc_id}#{c.chunk_index}", round(c.score, 6)] for c in found
            ]
            _check_order(q, [c.score for c in found], [(c.doc_id, c.chunk_index) for c in found])
            options = {k: v for k, v in item.items() if k != "q"}
            res = search(q, TENANT, k=SEARCH_K, conn=conn, embed=embed, **options)
            outputs["search"][q] = [
                [f"{r['doc_id']} § {r['label']}", round(r["score"], 6)] for r in res.results
            ]
            _check_order(q, [r["score"] for r in res.results], None)
        vectors = {
            f"{d}#{i}": [round(float(x), 6) for x in v.to_list()]
            for d, i, v in conn.execute(
                db.load_sql("select_conformance_embeddings"), {"tenant": TENANT}
            )
        }
    return outputs, vectors


def _rows(conn: psycopg.Connection, query: str) -> list[list[Any]]:
    """The rows of a named query over the conformance tenant."""
    return [list(r) for r in conn.execute(db.load_sql(query), {"tenant": TENANT})]


def _check_order(query: str, scores: list[float], keys: list[tuple[str, int]] | None) -> None:
    """Scores never increase down the list; equal scores keep the canonical key order."""
    for i in range(1, len(scores)):
        if scores[i] > scores[i - 1] + 1e-12:
            raise RaagError(f"conformance: scores for {query!r} increase at rank {i + 1}")
        if keys and abs(scores[i] - scores[i - 1]) <= 1e-12 and keys[i] < keys[i - 1]:
            raise RaagError(f"conformance: tie at rank {i + 1} of {query!r} out of key order")


def compare(
    expected: Mapping[str, Any],
    got: Mapping[str, Any],
    expected_vectors: Mapping[str, list[float]],
    vectors: Mapping[str, list[float]],
    version: int,
) -> Report:
    report = Report(version)
    for part in expected:
        want = json.dumps(expected[part], indent=1, ensure_ascii=False).splitlines()
        have = json.dumps(got.get(part), indent=1, ensure_ascii=False).splitlines()
        if want != have:
            diff = list(
                difflib.unified_diff(
                    want, have, f"expected {part}", f"got {part}", n=2, lineterm=""
                )
            )
            report.differences[part] = diff[:DIFF_LINES] + (
                [f"... {len(diff) - DIFF_LINES} more lines"] if len(diff) > DIFF_LINES else []
            )
    if set(expected_vectors) != set(vectors):
        missing = sorted(set(expected_vectors) ^ set(vectors))[:10]
        report.differences["embeddings"] = [f"chunks differ: {', '.join(missing)}"]
    else:
        keys = sorted(expected_vectors)
        a = np.array([expected_vectors[k] for k in keys])
        b = np.array([vectors[k] for k in keys])
        drift = np.abs(a - b).max(axis=1) if len(keys) else np.zeros(0)
        report.embedding_drift = float(drift.max()) if len(keys) else 0.0
        if report.embedding_drift > TOLERANCE:
            worst = keys[int(drift.argmax())]
            report.differences["embeddings"] = [
                f"{int((drift > TOLERANCE).sum())} embeddings differ by more than {TOLERANCE}; "
                f"worst {worst} by {report.embedding_drift:.2e}"
            ]
    return report


def check(
    resources: Mapping[str, dg.ConfigurableResource],
    instance: dg.DagsterInstance,
    url: str | None = None,
    root: Path = GOLDEN,
    rrf_k: int = RRF_K,
    reingest: bool = True,
) -> Report:
    """Compare a fresh ingest of the golden corpus with the newest expected version."""
    known = versions(root)
    if not known:
        raise RaagError(f"no expected outputs under {root}: run `raag conformance --new-version`")
    folder = root / f"v{known[-1]}"
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    expected_vectors = json.loads((folder / "embeddings.json").read_text(encoding="utf-8"))
    got, vectors = observe(resources, instance, url, root, rrf_k, reingest)
    return compare(expected, got, expected_vectors, vectors, known[-1])


def new_version(
    reason: str,
    resources: Mapping[str, dg.ConfigurableResource],
    instance: dg.DagsterInstance,
    url: str | None = None,
    root: Path = GOLDEN,
) -> Path:
    """Write the current outputs as the next version (never over an existing one)."""
    if not reason.strip():
        raise RaagError("say why the expected outputs change: --new-version 'reason'")
    got, vectors = observe(resources, instance, url, root)
    folder = root / f"v{(versions(root) or [0])[-1] + 1}"
    folder.mkdir(parents=True)
    (folder / "expected.json").write_text(
        json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (folder / "embeddings.json").write_text(json.dumps(vectors) + "\n", encoding="utf-8")
    (folder / "CHANGES.md").write_text(f"# {folder.name}\n\n{reason.strip()}\n", encoding="utf-8")
    return folder
