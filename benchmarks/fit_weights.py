"""Fit the factors of graph-aware scoring and expansion (raag_assets/retrieval/weights.json)
on the look half of the written question sets (golden/questions/*.yaml), never the scored half.

Each look-half question's pool (hits and the sections one hop of expansion brings in) is
built once; each candidate set of factors then rescores the pools (scoring is a pure function)
and is judged by the mean recall@10 plus nDCG@10 of the answers' quotes (all answers in the
top ten, and the first results the ones that answer). Coordinate ascent: one factor at a
time over a grid, two passes; a tie keeps the value in force, so a factor moves only on
evidence. Factors that no look-half question exercises (as-of dates, scope contexts) are left
as they are, and the script says which.

With --spans, the look half of a span set (golden/spans/cuad.json) joins the fit: its tenant as
`raag eval SET --half look` ingested it in the store at --spans-home (RAAG_HOME of that run),
each query's pool and its sections' passages built once, judged by the passages' character
recall@10 plus hit@10; the objective is then the mean over the written questions plus the
mean over the span queries, so each kind of question weighs the same.

Run: make fit-weights   (writes weights.json with --write; prints before and after)
"""

import argparse
import copy
import json
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import question_eval as qe  # sets RAAG_HOME to a temporary store first

from raag_assets.quality import evaluation, span_eval
from raag_assets.quality import questions as qs
from raag_assets.retrieval import scoring, weights
from raag_assets.retrieval.candidates import can_run_beside, primary_hits
from raag_assets.retrieval.expand import MAX_EXPANDED, SOFT_EDGES, expand
from raag_assets.retrieval.model import Pool
from raag_assets.retrieval.passages import section_passages
from raag_assets.retrieval.query import DocumentResolution, analyze
from raag_assets.retrieval.reads import Reads
from raag_assets.retrieval.search import _plan
from raag_assets.store import db

GRID = {
    "boost": (1.0, 1.02, 1.05, 1.1, 1.15, 1.2, 1.3, 1.5, 2.0),
    "penalty": (0.3, 0.5, 0.7, 0.85, 0.95, 1.0),
    "decay": (0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.0),
    "relevance": (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0),
    # a document the query names may answer far before the others (a contract asked by name)
    "named_document": (1.0, 1.2, 1.5, 2.0, 3.0, 5.0, 10.0),
    "source_cap": (0.5, 0.8, 0.95, 1.0, 1.25, 1000.0),
    # how far an expanded section must outscore the primary hit it would push out of the top k
    "displace_margin": (1.0, 1.1, 1.25, 1.5, 2.0, 3.0, 1000.0),
}


@dataclass
class Case:
    question: qs.Question
    gold: list[qs.Span | None]
    pool: Pool
    named: DocumentResolution | None
    spans: dict[str, qs.Span]
    asked: tuple[str, ...]


def pools(set_name: str, instance, embed) -> list[Case]:
    path = qe.ROOT / "golden" / "questions" / f"{set_name}.yaml"
    look = [q for q in qs.load_questions(path) if q.part == "look"]
    assert qe.ingest(qe.CORPORA[set_name](), set_name, instance=instance).success
    cases = []
    with db.connect() as conn:
        texts, doc_of, spans = qe.stored(conn, set_name)
        for q in look:
            with ExitStack() as stack:
                concurrent = can_run_beside(conn)
                stack.enter_context(db.tenant_reader(conn, set_name))
                reads = Reads(conn, set_name)
                analysis = analyze(q.q, reads.corpus, reads.names)
                plan = _plan(analysis, qs.K, "hybrid", (), (), None, False)
                hits = primary_hits(reads, analysis, plan, embed, qs.K, None, concurrent)
                named = analysis.named.doc_ids if analysis.named else ()
                asked = (*analysis.doc_ids, *named)
                pool = expand(reads, hits, asked, None, 1, MAX_EXPANDED)
            gold = qs.gold_spans(q, texts, doc_of)
            cases.append(Case(q, gold, pool, analysis.named, spans, asked))
    return cases


@dataclass
class SpanCase:
    """A span query's pool, and each of its sections' passages (they do not depend on the
    factors): (file, start, end, share of the section's best passage)."""

    test: evaluation.SpanTest
    pool: Pool
    named: DocumentResolution | None
    asked: tuple[str, ...]
    passages: dict[str, list[tuple[str, int, int, float]]]


def span_pools(path: Path, home: Path, embed) -> list[SpanCase]:
    """The look half of a span set, on the tenant `raag eval` ingested it as (never ingested
    here: run `raag eval SET --half look` with RAAG_HOME=home first)."""
    data = evaluation.load_spans(path)
    look = span_eval.halves(data, None if ALL_CONTRACTS else SPAN_SAMPLE)["look"]
    tenant = span_eval.half_tenant(
        f"spans-{path.stem.lower().replace('_', '-')}"[:40],
        "look",
        None if ALL_CONTRACTS else SPAN_SAMPLE,
    )
    cases = []
    with db.connect(home=home) as conn:
        file_of = dict(
            conn.execute(db.load_sql("select_document_source_names"), {"tenant": tenant}).fetchall()
        )
        if not file_of:
            raise SystemExit(f"{tenant} is not ingested in {home}: run raag eval first")
        look, _ = evaluation.only_files(look, set(file_of.values()))
        for t in look.tests:
            with ExitStack() as stack:
                concurrent = can_run_beside(conn)
                stack.enter_context(db.tenant_reader(conn, tenant))
                reads = Reads(conn, tenant)
                analysis = analyze(t.query, reads.corpus, reads.names)
                plan = _plan(analysis, SPAN_K, "hybrid", (), (), None, False)
                hits = primary_hits(reads, analysis, plan, embed, SPAN_K, None, concurrent)
                named = analysis.named.doc_ids if analysis.named else ()
                asked = (*analysis.doc_ids, *named)
                pool = expand(reads, hits, asked, None, 1, MAX_EXPANDED)
            found = section_passages(pool.sections, analysis.asked, "passage")
            passages = {
                c.section.section_id: [(file_of[c.section.doc_id], *span) for span in spans]
                for c, spans in zip(pool.sections, found, strict=True)
            }
            cases.append(SpanCase(t, pool, analysis.named, asked, passages))
    return cases


SPAN_K = 10
SPAN_SAMPLE = 40  # raag eval's default sample of each half's contracts
ALL_CONTRACTS = False


def rescored(case: Case, w: weights.Weights) -> list[qs.Span]:
    """The case's top spans under factors `w` (the pool was built with the factors in force)."""
    ordered = _ordered(case.pool, _decayed(case.pool, w), w, case.named, case.asked, qs.K)
    ids = [c.section.section_id for c in ordered[: qs.K]]
    return [case.spans[i] for i in ids if i in case.spans]


def _decayed(pool: Pool, w: weights.Weights) -> list:
    sections = copy.deepcopy(pool.sections)
    for s in sections:
        s.adjustments = []
        if s.via is not None:
            kind = "soft" if s.via.edge_type in SOFT_EDGES else "hard"
            if s.depth == 0:  # a version in force standing in for a superseded hit
                kind = "version"
            s.base *= (w.decay[kind] / weights.WEIGHTS.decay[kind]) ** max(1, s.depth)
    return sections


def _ordered(pool: Pool, sections: list, w: weights.Weights, named, asked, k: int) -> list:
    """The sections ranked by scoring under factors `w`."""
    saved = dict(scoring.BOOST), dict(scoring.PENALTY), dict(scoring.RELEVANCE)
    scoring.BOOST.update(w.boost)
    scoring.PENALTY.update(w.penalty)
    scoring.RELEVANCE.update(w.relevance)
    try:
        ordered, _ = scoring.score_and_resolve(
            Pool(sections, pool.edges, pool.doc_edges), None, None, named, asked, k
        )
    finally:
        scoring.BOOST.update(saved[0])
        scoring.PENALTY.update(saved[1])
        scoring.RELEVANCE.update(saved[2])
    return ordered


def span_rescored(case: SpanCase, w: weights.Weights) -> list[evaluation.Span]:
    """The span case's top passages under `w`, ranked as assemble.passage_results ranks
    them (a passage: its section's score times its share)."""
    ordered = _ordered(case.pool, _decayed(case.pool, w), w, case.named, case.asked, SPAN_K)
    scored = [
        (-c.score * share, n, m, (f, a, b))
        for n, c in enumerate(ordered)
        for m, (f, a, b, share) in enumerate(case.passages[c.section.section_id])
    ]
    scored.sort(key=lambda x: x[:3])
    return [x[3] for x in scored[: min(len(ordered), SPAN_K)]]


def span_objective(cases: Sequence[SpanCase], w: weights.Weights) -> float:
    """Mean character recall@10 plus hit@10 of the passages."""
    total = 0.0
    for c in cases:
        spans = span_rescored(c, w)
        total += evaluation.span_precision_recall(spans, c.test.snippets)[1]
        total += evaluation.span_hit(spans, c.test.snippets)
    return total / max(1, len(cases))


def objective(cases: Sequence[Case], w: weights.Weights, spans: Sequence[SpanCase] = ()) -> float:
    """Mean recall@10 plus mean nDCG@10: every answer in the top ten, the first ones first;
    with span cases, plus their span_objective."""
    total = 0.0
    for c in cases:
        s = qs.score(c.question, c.gold, rescored(c, w))
        total += s.recall + s.ndcg
    return total / len(cases) + (span_objective(spans, w) if spans else 0.0)


def exercised(cases: Sequence[Case | SpanCase]) -> set[tuple[str, str]]:
    """The factors some look-half pool has a cause for (an adjustment of that kind)."""
    out = {("decay", "hard"), ("decay", "soft"), ("decay", "version")}
    out |= {("relevance", "exponent"), ("relevance", "source_cap")}
    out |= {("relevance", "displace_margin")}
    for c in cases:
        pool = copy.deepcopy(c.pool)
        ordered, _ = scoring.score_and_resolve(pool, None, None, c.named, c.asked)
        for s in ordered:
            for a in s.adjustments:
                group = "boost" if a.kind in scoring.BOOST else "penalty"
                if a.kind in scoring.BOOST or a.kind in scoring.PENALTY:
                    out.add((group, a.kind))
    return out


def fit(cases: Sequence[Case], passes: int = 2, spans: Sequence[SpanCase] = ()) -> weights.Weights:
    w = weights.WEIGHTS
    best = objective(cases, w, spans)
    factors = sorted(exercised([*cases, *spans]))
    print(
        f"fitting {len(factors)} factors on {len(cases)} look-half questions and "
        f"{len(spans)} span queries: {factors}"
    )
    for _ in range(passes):
        for group, kind in factors:
            current = getattr(w, group)[kind]
            for value in GRID[kind if kind in GRID else group]:
                trial = w.with_factor(group, kind, value)
                score = objective(cases, trial, spans)
                if score > best + 1e-9:
                    best, w = score, trial
            if getattr(w, group)[kind] != current:
                value = getattr(w, group)[kind]
                print(f"  {group}.{kind}: {current} -> {value}  R@10+nDCG@10 {best:.3f}")
    untouched = sorted(
        f"{g}.{k}" for g in ("boost", "penalty") for k in getattr(w, g) if (g, k) not in factors
    )
    print(f"left as they were (no look-half question exercises them): {untouched}")
    return w


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the fitted weights.json")
    ap.add_argument("--spans", type=Path, help="a span set whose look half joins the fit")
    ap.add_argument(
        "--spans-home", type=Path, help="the RAAG_HOME `raag eval --half look` ingested it in"
    )
    args = ap.parse_args()
    instance = qe.dg.DagsterInstance.ephemeral()
    embed = qe.default_embed()  # the model ingest embeds with
    spans = span_pools(args.spans, args.spans_home, embed) if args.spans else []
    cases = []
    for path in sorted((qe.ROOT / "golden" / "questions").glob("*.yaml")):
        cases.extend(pools(path.stem, instance, embed))
    before = objective(cases, weights.WEIGHTS)
    before_spans = span_objective(spans, weights.WEIGHTS) if spans else 0.0
    fitted = fit(cases, spans=spans)
    after = objective(cases, fitted)
    print(f"look half, {len(cases)} questions: R@10+nDCG@10 {before:.3f} -> {after:.3f}")
    if spans:
        after_spans = span_objective(spans, fitted)
        print(
            f"look half, {len(spans)} span queries: R@10+hit@10 {before_spans:.3f} -> "
            f"{after_spans:.3f}"
        )
    if args.write:
        raw = json.loads(weights.PATH.read_text(encoding="utf-8"))
        raw.update(fitted.as_dict(), fitted=True)
        raw["about"] = raw["about"].split(" Until fitted")[0]
        weights.PATH.write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {weights.PATH}")


if __name__ == "__main__":
    try:
        main()
    finally:
        qe.shutil.rmtree(qe.HOME, ignore_errors=True)
