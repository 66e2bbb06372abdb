"""Recall@5 and recall@10 of every relevant section for the multi-section questions in
golden/questions.yaml: vector only, full-text only, RRF hybrid, and hybrid + graph (search()).
"hop@10": of the relevant sections plain hybrid retrieval leaves out of its top 10 (those a
reader reaches through a citation or a definition), the share a method has in its top 10.

Run: make search-eval   (or .venv/bin/python benchmarks/search_eval.py)
"""

import os
import shutil
import tempfile
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
HOME = Path(tempfile.mkdtemp(prefix="raag-search-eval-"))
os.environ["RAAG_HOME"] = str(HOME)
os.environ.pop("RAAG_DATABASE_URL", None)
os.environ.pop("DAGSTER_HOME", None)

import dagster as dg  # noqa: E402
import yaml  # noqa: E402

from raag_assets.ingest.embedding import shared_embedder  # noqa: E402
from raag_assets.pipeline.run import ingest  # noqa: E402
from raag_assets.retrieval.candidates import RetrievalPlan, retrieve  # noqa: E402
from raag_assets.retrieval.search import search  # noqa: E402
from raag_assets.store import db  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
METHODS = ("vector", "fulltext", "hybrid", "hybrid+graph 1 hop", "hybrid+graph 2 hops")


def ranked_sections(conn, question: str, tenant: str, method: str, embed) -> list[str]:
    """'doc § label' of the ranked sections a method returns (chunks deduplicated)."""
    if method.startswith("hybrid+graph"):
        hops = 2 if "2" in method else 1
        res = search(question, tenant, conn=conn, embed=embed, max_expansion_hops=hops)
        return [f"{r['doc_id']} § {r['label']}" for r in res.results]
    plan = RetrievalPlan(k=30, mode=method)  # type: ignore[arg-type]
    out: list[str] = []
    for c in retrieve(conn, question, tenant, embed, plan):
        name = f"{c.doc_id} § {c.label}"
        if name not in out:
            out.append(name)
    return out


def main() -> None:
    sets = yaml.safe_load((ROOT / "golden" / "questions.yaml").read_text(encoding="utf-8"))["sets"]
    instance = dg.DagsterInstance.ephemeral()
    embed = shared_embedder("all-MiniLM-L6-v2", 32).embed
    totals = {m: [0.0, 0.0] for m in METHODS}
    hop_found = {m: 0 for m in METHODS}
    hop_total = 0
    count = 0
    for name, spec in sets.items():
        paths = [Path(p) if p.startswith("/") else ROOT / p for p in spec["corpus"]]
        assert ingest(paths, name, instance=instance).success
        print(f"\n== {name}")
        with db.connect() as conn:
            for item in spec["questions"]:
                relevant = set(item["relevant"])
                line = []
                rankings = {m: ranked_sections(conn, item["q"], name, m, embed) for m in METHODS}
                hops = relevant - set(rankings["hybrid"][:10])
                hop_total += len(hops)
                for method in METHODS:
                    ranking = rankings[method]
                    hop_found[method] += len(hops & set(ranking[:10]))
                    at5 = len(relevant & set(ranking[:5])) / len(relevant)
                    at10 = len(relevant & set(ranking[:10])) / len(relevant)
                    totals[method][0] += at5
                    totals[method][1] += at10
                    line.append(f"{at5:.2f}/{at10:.2f}")
                count += 1
                print(f"  {' '.join(line)}  {item['q'][:70]}")
    print(f"\n{count} questions, recall of all relevant sections (mean)")
    print(f"{'method':<22} {'R@5':>6} {'R@10':>6} {'hop@10':>7}")
    for method, (at5, at10) in totals.items():
        hop = hop_found[method] / hop_total if hop_total else 0.0
        print(f"{method:<22} {at5 / count:>6.3f} {at10 / count:>6.3f} {hop:>7.3f}")
    print(f"({hop_total} relevant sections outside hybrid's top 10)")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(HOME, ignore_errors=True)
