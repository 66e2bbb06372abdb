"""Why hybrid + graph passages miss a CUAD span query, on one half of the look half (A to build
a rule on, B to check it; never the scored half): each query whose top 10 passages touch no
labelled span is put in the first class that fits, and the totals are printed.

  1 the named contract is not among the results (resolved to another, or not resolved)
  2 the annotated clause's section is not among the sections retrieved
  3a its section is in the top ten, its passage elsewhere in the section
  3b its section was retrieved but ranked below ten
  4 its passage lies next to the span (within 50 characters): the answer is split

Run after `raag eval golden/spans/cuad.json --half look` built the tenant, with the same
RAAG_HOME: python benchmarks/span_failures.py A [--hops 1] [--json FILE]
"""

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from raag_assets.quality import cuad, evaluation, span_eval
from raag_assets.quality.cuad_spans import SAMPLE
from raag_assets.retrieval.search import default_embed, search
from raag_assets.store import db

SET = Path(__file__).resolve().parents[1] / "golden" / "spans" / "cuad.json"
NEAR = 50  # characters between a passage and the span it misses: one answer split in two


def failure(results: list[dict[str, Any]], file_of: dict[str, str], t: Any, named: bool) -> str:
    """The class of a missed query (see the module docstring)."""
    gold_file = t.snippets[0][0]
    gold = [(s[1], s[2]) for s in t.snippets]
    top = results[:10]
    if not any(file_of[r["doc_id"]] == gold_file for r in top):
        return "1 named contract not among results" + (" (resolved wrong)" if named else "")
    holding = [
        r
        for r in results
        if file_of[r["doc_id"]] == gold_file
        and any(min(r["section_char_end"], b) > max(r["section_char_start"], a) for a, b in gold)
    ]
    if not holding:
        return "2 clause's section not retrieved"
    in_top = {r["section_id"] for r in top}
    shown = [r for r in holding if r["section_id"] in in_top and r["char_start"] is not None]
    if not shown:
        return "3b section retrieved, ranked below ten"
    near = any(
        min(abs(r["char_start"] - b), abs(a - r["char_end"])) < NEAR for r in shown for a, b in gold
    )
    return "4 span split / passage adjacent" if near else "3a section in top ten, passage elsewhere"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("half", choices=("A", "B"))
    ap.add_argument("--hops", type=int, default=1)
    ap.add_argument("--json", type=Path, help="write one row per query (class, query asked)")
    args = ap.parse_args()
    look = span_eval.halves(evaluation.load_spans(SET), SAMPLE)["look"]
    tenant = span_eval.half_tenant("spans-cuad", "look", SAMPLE)
    tests = [t for t in look.tests if cuad.look_half(t.snippets[0][0]) == args.half]
    embed = default_embed()
    classes: Counter[str] = Counter()
    rows, recall, hits = [], 0.0, 0
    with db.connect() as conn:
        file_of: dict[str, str] = dict(
            conn.execute(db.load_sql("select_document_source_names"), {"tenant": tenant}).fetchall()
        )
        for t in tests:
            res = search(
                t.query,
                tenant,
                k=10,
                max_expansion_hops=args.hops,
                granularity="passage",
                conn=conn,
                embed=embed,
            )
            spans = [
                (file_of[r["doc_id"]], r["char_start"], r["char_end"])
                for r in res.results
                if r["char_start"] is not None
            ][:10]
            recall += evaluation.span_precision_recall(spans, t.snippets)[1]
            hit = evaluation.span_hit(spans, t.snippets)
            hits += hit
            named = res.retrieval_summary["query_analysis"]["named_document"]
            kind = "hit" if hit else failure(res.results, file_of, t, named is not None)
            classes[kind] += 1
            asked = named["query"] if named else t.query
            rows.append({"query": t.query, "category": t.category, "class": kind, "asked": asked})
    n = max(1, len(tests))
    print(f"look-{args.half}, {args.hops} hop(s): {len(tests)} queries, R@10 {recall / n:.3f}")
    print(f"hit@10 {hits / n:.3f}")
    for kind, count in sorted(classes.items()):
        print(f"  {kind}: {count}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
