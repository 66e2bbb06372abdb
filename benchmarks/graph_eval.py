"""Precision and recall of the relationship graph against the hand-labelled gold edges in
golden/graph/, per edge type, plus the cost of each graph stage.

Run: make graph-eval   (or .venv/bin/python benchmarks/graph_eval.py)
"""

import os
import shutil
import tempfile
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
HOME = Path(tempfile.mkdtemp(prefix="raag-graph-eval-"))
os.environ["RAAG_HOME"] = str(HOME)
os.environ.pop("RAAG_DATABASE_URL", None)
os.environ.pop("DAGSTER_HOME", None)

import dagster as dg  # noqa: E402

from raag_assets import db, graph_store  # noqa: E402
from raag_assets.graph import golden  # noqa: E402
from raag_assets.ingest import ingest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    instance = dg.DagsterInstance.ephemeral()
    for name, tenant in (("examples", "gold-examples"), ("licenses", "gold-licenses")):
        gold = golden.load(ROOT / "golden" / "graph" / f"{name}.yaml")
        paths = [ROOT / p if not p.startswith("/") else Path(p) for p in gold.corpus]
        summary = ingest(paths, tenant, instance=instance)
        assert summary.success, summary.error
        with db.connect() as conn:
            scores = golden.score(gold, golden.found_keys(graph_store.edges(conn, tenant)))
            counts = graph_store.edge_counts(conn, tenant)
        print(f"\n== {name}: {', '.join(str(p.name) for p in paths)}")
        print(golden.table(scores))
        for t, s in scores.items():
            for key in s.missed:
                print(f"   missed   {t}: {key[0]} -> {key[1]}")
            for key in s.spurious:
                print(f"   spurious {t}: {key[0]} -> {key[1]}")
        print("edges per type and layer:", {t: dict(v) for t, v in counts.items()})
        stages = summary.stages
        for stage in ("edges", "term_uses", "topic_links", "resolved_references"):
            meta = stages.get(stage, {})
            print(f"   {stage:<20} {meta.get('seconds', 0):>6.2f} s")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(HOME, ignore_errors=True)
