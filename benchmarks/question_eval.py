"""Written question sets (golden/questions/*.yaml): questions readers wrote over licences,
contracts with an RFC, HR policies and dpkg's specifications, never having seen raag's output.
Each answer is a quote located in its document; a method answers it when one of its top 10
spans overlaps the quote.

Per set and per half (look: may be tuned on; scored: only scored), recall@10 (share of a
question's answers found, mean), nDCG@10 (the answers ranked first), hit@10, hop@10 (answers
a reader reaches through a citation, a definition or a next step) and, for questions that
name one document, named@1 (the first result is in that document). Methods: BM25 and dense
retrieval over 500-character chunks (baselines), raag's vector, full-text and hybrid
retrieval (sections, chunks deduplicated), and search() with graph expansion (1 and 2 hops).

Run: make search-eval   (or .venv/bin/python benchmarks/question_eval.py [--sets licenses,...])
"""

import argparse
import hashlib
import os
import shutil
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
HOME = Path(tempfile.mkdtemp(prefix="raag-question-eval-"))
os.environ["RAAG_HOME"] = str(HOME)
os.environ.pop("RAAG_DATABASE_URL", None)
os.environ.pop("DAGSTER_HOME", None)

import dagster as dg  # noqa: E402
import numpy as np  # noqa: E402

from raag_assets.pipeline.run import ingest  # noqa: E402
from raag_assets.quality import cuad  # noqa: E402
from raag_assets.quality import questions as qs  # noqa: E402
from raag_assets.quality.evaluation import bm25_span_ranker, dense_span_ranker  # noqa: E402
from raag_assets.retrieval.candidates import RetrievalPlan, retrieve  # noqa: E402
from raag_assets.retrieval.search import default_embed, search  # noqa: E402
from raag_assets.store import db  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("RAAG_SHARED", ROOT.parent / "shared"))
LICENSES = "/usr/share/common-licenses"
DPKG_SPECS = "/usr/share/doc/dpkg/spec"
GIT_RELNOTES = "/usr/share/doc/git/RelNotes"
CORPORA: dict[str, Callable[[], list[Path]]] = {
    "licenses": lambda: sorted(
        p for p in Path(LICENSES).iterdir() if p.is_file() and not p.is_symlink()
    ),
    "contracts": lambda: [
        *sorted((SHARED / "data" / "dev_legal" / "contracts").glob("*.txt")),
        SHARED / "data" / "dev_legal" / "rfc" / "rfc3501.txt",
    ],
    "policies": lambda: sorted(p for p in (ROOT / "examples").iterdir() if p.is_file()),
    # dpkg's specifications as installed with dpkg, beside RFC 3501 as a distractor
    "specs": lambda: [
        *sorted(p for p in Path(DPKG_SPECS).glob("*.txt") if p.is_file()),
        SHARED / "data" / "dev_legal" / "rfc" / "rfc3501.txt",
    ],
    # ten X.Org protocol extension specifications (copied into the gold folder, MIT)
    "x11": lambda: sorted((ROOT / "golden" / "graph" / "standards3" / "docs").glob("*.txt")),
    # Git's release notes of the feature releases 2.20.0 ... 2.39.0 as installed with git:
    # twenty versions of one kind of dated document, named by their version
    "x12": lambda: sorted(Path(GIT_RELNOTES).glob("2.[23][0-9].0.txt")),
    "x13": lambda: _x13_contracts(SHARED / "data" / "cuad" / "contracts"),
}


def _x13_contracts(folder: Path) -> list[Path]:
    """Ten contracts of CUAD's scored half (never read while tuning), 15-60 kB, chosen once by
    the SHA-256 of "x13:" + the file name: written questions over contracts nobody tuned on,
    two pairs of them of one kind (endorsement, content licence) to tell apart by party."""
    if not folder.is_dir():
        return []
    files = [
        p
        for p in folder.glob("*.txt")
        if cuad.part_of(p.name) == cuad.SCORED and 15_000 <= p.stat().st_size <= 60_000
    ]
    files.sort(key=lambda p: hashlib.sha256(f"x13:{p.name}".encode()).hexdigest())
    return sorted(files[:10])


METHODS = (
    "bm25 500-char",
    "dense 500-char",
    "vector",
    "fulltext",
    "hybrid",
    "hybrid+graph 1 hop",
    "hybrid+graph 2 hops",
)
CHUNK = 500
Ranker = Callable[[str], list[qs.Span]]


DOCUMENT_SUFFIXES = {".txt", ".md", ".markdown", ".pdf"}


def stored(conn, tenant: str) -> tuple[dict[str, str], dict[str, str], dict[str, qs.Span]]:
    """doc_id -> raw text; the labellers' names (file stems) -> doc_id; section spans."""
    texts, doc_of, stems = {}, {}, {}
    for doc_id, source, raw in conn.execute(
        "SELECT doc_id, source_name, raw_text FROM documents "
        "WHERE tenant_id = %s AND version_of IS NULL ORDER BY doc_id",
        (tenant,),
    ):
        texts[doc_id] = raw
        doc_of[doc_id] = doc_id
        doc_of[Path(source).name] = doc_id
        # the stem only for a document extension: 'LGPL-2.1' is not 'LGPL-2' with suffix '.1'
        if Path(source).suffix.lower() in DOCUMENT_SUFFIXES:
            stems[Path(source).stem] = doc_id
    for stem, doc_id in stems.items():  # a name or id given as such comes first
        doc_of.setdefault(stem, doc_id)
    spans = {
        sid: (doc_id, a, b)
        for sid, doc_id, a, b in conn.execute(
            "SELECT section_id, doc_id, char_start, char_end FROM sections WHERE tenant_id = %s",
            (tenant,),
        )
        if a is not None and b is not None
    }
    return texts, doc_of, spans


def rankers(conn, tenant: str, texts: dict[str, str], spans, embed) -> dict[str, Ranker]:
    chunks = [
        ((doc_id, a, min(a + CHUNK, len(t))), t[a : a + CHUNK])
        for doc_id, t in sorted(texts.items())
        for a in range(0, len(t), CHUNK)
        if t[a : a + CHUNK].strip()
    ]

    def sections_of(mode: str) -> Ranker:
        plan = RetrievalPlan(k=30, mode=mode)  # type: ignore[arg-type]

        def rank(q: str) -> list[qs.Span]:
            out: list[str] = []
            for c in retrieve(conn, q, tenant, embed, plan):
                if c.section_id not in out:
                    out.append(c.section_id)
            return [spans[s] for s in out if s in spans]

        return rank

    def searched(hops: int) -> Ranker:
        def rank(q: str) -> list[qs.Span]:
            res = search(q, tenant, conn=conn, embed=embed, k=qs.K, max_expansion_hops=hops)
            return [spans[r["section_id"]] for r in res.results if r["section_id"] in spans]

        return rank

    return {
        "bm25 500-char": bm25_span_ranker(chunks),  # type: ignore[arg-type]
        "dense 500-char": dense_span_ranker(chunks, embed),  # type: ignore[arg-type]
        "vector": sections_of("vector"),
        "fulltext": sections_of("fulltext"),
        "hybrid": sections_of("hybrid"),
        "hybrid+graph 1 hop": searched(1),
        "hybrid+graph 2 hops": searched(2),
    }


def evaluate(name: str, path: Path, instance, embed, verbose: bool) -> dict[str, dict]:
    questions = qs.load_questions(path)
    docs = CORPORA[name]()
    if not docs:
        print(f"  (skipped: no documents of the {name} corpus on this machine)")
        return {}
    assert ingest(docs, name, instance=instance).success
    totals: dict[str, dict] = {}
    with db.connect() as conn:
        texts, doc_of, spans = stored(conn, name)
        ranks = rankers(conn, name, texts, spans, embed)
        for q in questions:
            gold = qs.gold_spans(q, texts, doc_of)
            missing = [a.quote[:40] for a, g in zip(q.answers, gold, strict=True) if g is None]
            if missing:
                print(f"  ! {q.id}: quote not found: {missing}")
            named = doc_of.get(q.names) if q.names else None
            line = []
            for method, rank in ranks.items():
                s = qs.score(q, gold, rank(q.q), named)
                t = totals.setdefault(
                    f"{q.part}|{method}",
                    {
                        "n": 0,
                        "recall": 0.0,
                        "ndcg": 0.0,
                        "hit": 0,
                        "hop": 0,
                        "hops": 0,
                        "named": 0,
                        "named_n": 0,
                    },
                )
                t["n"] += 1
                t["recall"] += s.recall
                t["ndcg"] += s.ndcg
                t["hit"] += s.hit
                t["hop"] += s.hop_found
                t["hops"] += s.hops
                if s.named_first is not None:
                    t["named_n"] += 1
                    t["named"] += s.named_first
                line.append(f"{s.recall:.2f}")
            if verbose:
                print(f"  {q.part[:4]} {q.id:<8} {' '.join(line)}  {q.q[:70]}")
    return totals


def report(title: str, totals: dict[str, dict]) -> None:
    for part in ("look", "scored"):
        print(f"\n{title} — {part} half")
        print(
            f"{'method':<22} {'n':>4} {'R@10':>6} {'nDCG@10':>8} {'hit@10':>7} {'hop@10':>7}"
            f" {'named@1':>8}"
        )
        for method in METHODS:
            t = totals.get(f"{part}|{method}")
            if not t:
                continue
            hop = t["hop"] / t["hops"] if t["hops"] else float("nan")
            named = t["named"] / t["named_n"] if t["named_n"] else float("nan")
            print(
                f"{method:<22} {t['n']:>4} {t['recall'] / t['n']:>6.3f} {t['ndcg'] / t['n']:>8.3f}"
                f" {t['hit'] / t['n']:>7.3f}"
                f" {hop:>7.3f} {named:>8.3f}"
            )


def merged(runs: list[dict[str, dict]]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for run in runs:
        for key, t in run.items():
            acc = out.setdefault(key, dict.fromkeys(t, 0))
            for k, v in t.items():
                acc[k] += v
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per question")
    args = ap.parse_args()
    wanted = [s for s in args.sets.split(",") if s]
    files = sorted((ROOT / "golden" / "questions").glob("*.yaml"))
    instance = dg.DagsterInstance.ephemeral()
    embed = default_embed()  # RAAG_EMBED_MODEL, the model ingest embeds with
    np.set_printoptions(precision=3)
    runs = []
    for path in files:
        if wanted and path.stem not in wanted:
            continue
        print(f"\n== {path.stem}")
        totals = evaluate(path.stem, path, instance, embed, args.verbose)
        report(path.stem, totals)
        runs.append(totals)
    if len(runs) > 1:
        report("all written sets", merged(runs))


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(HOME, ignore_errors=True)
