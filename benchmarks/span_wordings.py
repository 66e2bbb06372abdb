"""The CUAD span set asked in other words: each query of a half's sample with its category's
question replaced by each wording a labeller wrote for it (golden/spans/cuad_wordings.json:
a plain user's, a lawyer's and an operations manager's question per category, written
without seeing raag's output or its vocabulary), hybrid + graph passages R@10 and hit@10 per
wording. The set's own questions were in view when raag's query vocabulary was written;
these were not, so they measure whether it holds for words nobody tuned on.

Run after `raag eval golden/spans/cuad.json --half <half>` built the half's tenant, with the
same RAAG_HOME: python benchmarks/span_wordings.py look|scored [--json FILE]
"""

import argparse
import json
from pathlib import Path

from raag_assets.quality import evaluation, span_eval
from raag_assets.quality.cuad_spans import QUESTIONS, SAMPLE
from raag_assets.retrieval.search import default_embed, search
from raag_assets.store import db

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "golden" / "spans" / "cuad.json"
WORDINGS = ROOT / "golden" / "spans" / "cuad_wordings.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("half", choices=("look", "scored"))
    ap.add_argument("--json", type=Path, help="write one row per query and wording")
    args = ap.parse_args()
    wordings: dict[str, dict[str, str]] = json.loads(WORDINGS.read_text(encoding="utf-8"))
    tests = span_eval.halves(evaluation.load_spans(SET), SAMPLE)[args.half].tests
    tenant = span_eval.half_tenant("spans-cuad", args.half, SAMPLE)
    embed = default_embed()
    kinds = ["set", *sorted({k for w in wordings.values() for k in w})]
    recall = dict.fromkeys(kinds, 0.0)
    hits = dict.fromkeys(kinds, 0)
    rows = []
    with db.connect() as conn:
        file_of = dict(
            conn.execute(db.load_sql("select_document_source_names"), {"tenant": tenant}).fetchall()
        )
        for t in tests:
            asked = QUESTIONS[t.category]
            named = t.query[: -len(asked)]  # "Consider the <Document Name> between <Parties>; "
            for kind in kinds:
                query = t.query if kind == "set" else named + wordings[t.category][kind]
                res = search(
                    query, tenant, k=10, granularity="passage", conn=conn, embed=embed
                ).results
                spans = [
                    (file_of[r["doc_id"]], r["char_start"], r["char_end"])
                    for r in res
                    if r["char_start"] is not None
                ][:10]
                recall[kind] += evaluation.span_precision_recall(spans, t.snippets)[1]
                hit = evaluation.span_hit(spans, t.snippets)
                hits[kind] += hit
                rows.append({"category": t.category, "wording": kind, "query": query, "hit": hit})
    n = max(1, len(tests))
    print(f"{args.half}: {len(tests)} queries per wording, tenant {tenant}")
    print(f"{'wording':8s}  R@10   hit@10")
    for kind in kinds:
        print(f"{kind:8s}  {recall[kind] / n:.3f}  {hits[kind] / n:.3f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
