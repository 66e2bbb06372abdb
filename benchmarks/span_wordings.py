"""The CUAD span set asked in other words: each query of a half's sample with its category's
question replaced by each wording a labeller wrote for it (golden/spans/cuad_wordings.json:
a plain user's, a lawyer's and an operations manager's question per category, written
without seeing raag's output or its vocabulary), hybrid + graph passages R@10 and hit@10 per
wording. The set's own questions were in view when raag's query vocabulary was written;
these were not, so they measure whether it holds for words nobody tuned on.

Run after `raag eval golden/spans/cuad.json --half <half>` built the half's tenant, with the
same RAAG_HOME: python benchmarks/span_wordings.py look|scored [--categories]
"""

import argparse
import json
from dataclasses import replace
from pathlib import Path

from raag_assets.quality import evaluation, span_eval
from raag_assets.quality.cuad_spans import QUESTIONS, SAMPLE
from raag_assets.retrieval.search import default_embed
from raag_assets.store import db

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "golden" / "spans" / "cuad.json"
WORDINGS = ROOT / "golden" / "spans" / "cuad_wordings.json"
SYSTEM = "hybrid + graph passages"


def reworded(data: evaluation.SpanSet, wordings: dict[str, dict[str, str]], kind: str):
    """The set with each test's category question replaced by the `kind` wording of it."""
    tests = []
    for t in data.tests:
        named = t.query[: -len(QUESTIONS[t.category])]  # "Consider the <name> between <parties>; "
        tests.append(replace(t, query=named + wordings[t.category][kind]))
    return replace(data, tests=tuple(tests))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("half", choices=("look", "scored"))
    ap.add_argument("--categories", action="store_true", help="hit@10 per category too")
    args = ap.parse_args()
    wordings: dict[str, dict[str, str]] = json.loads(WORDINGS.read_text(encoding="utf-8"))
    data = span_eval.halves(evaluation.load_spans(SET), SAMPLE)[args.half]
    tenant = span_eval.half_tenant("spans-cuad", args.half, SAMPLE)
    sets = {"set": data} | {
        kind: reworded(data, wordings, kind)
        for kind in sorted({k for w in wordings.values() for k in w})
    }
    with db.connect() as conn:
        file_of = dict(
            conn.execute(db.load_sql("select_document_source_names"), {"tenant": tenant}).fetchall()
        )
        rank = evaluation.raag_span_rankers(conn, tenant, default_embed(), file_of)[SYSTEM]
        ranked = {kind: evaluation.rank_spans(s, {SYSTEM: rank})[0] for kind, s in sets.items()}
    print(f"{args.half}: {len(data.tests)} queries per wording, tenant {tenant}, {SYSTEM}")
    print(f"{'wording':8s}  R@10   hit@10")
    for kind, s in sets.items():
        (row,) = evaluation.span_scores(s, ranked[kind])
        print(f"{kind:8s}  {row['recall@10']:.3f}  {row['hit@10']:.3f}")
    if args.categories:
        for kind, s in sets.items():
            for row in evaluation.hits_by_category(s, ranked[kind]):
                print(f"{kind:8s}  {row['category']:36s} {row['tests']:3d}  {row[SYSTEM]:.2f}")


if __name__ == "__main__":
    main()
