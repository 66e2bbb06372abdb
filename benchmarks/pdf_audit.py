"""What the PDF path loses against the text path, on CUAD contracts typeset as PDFs.

Contracts reach users as PDFs more often than as text. CUAD ships them as text, so this
typesets each sampled contract as a PDF the way a filing prints (fpdf2: Helvetica 10 pt on
Letter pages, every line a paragraph wrapped to the measure, a running header
("Confidential") and a "Page N of M" footer on every page), reads both files
through raag (parsing, sectioning, Layers 1 and 2, term uses: `graph_gold.extract_read`,
as `graph-eval --offline`) and scores the PDF's reading against the text's: section labels,
edges per type (the text's graph as the reference: precision / recall of the PDF's), and the
title, effective date and parties raag reads. The text side is written from the same Latin-1
text the PDF is typeset from (the core font's alphabet: curly quotes and dashes made plain),
so the two differ only by the PDF. A filing CUAD flattened to a few long lines is cut where
raag's reading of the text starts a section, as a printed contract starts each clause on a
line of its own.

Sample: per half of the corpus (quality.cuad.part_of), the first N contracts under 80 kB in
SHA-256 order of "pdf:" + the file name. Per-contract lines for the look half only; the
scored half prints its totals.

With --run-in each of raag's lines of the text is one paragraph, uncut: the clauses of a
filing CUAD flattened run into each other, as some PDFs print them, and wrap where the
measure falls.

Run: make pdf-audit   (or .venv/bin/python benchmarks/pdf_audit.py [--per-half N] [-v] [--run-in])
Shared data: ../shared beside the checkout, or RAAG_SHARED.
"""

import argparse
import bisect
import hashlib
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fpdf import FPDF  # noqa: E402

from raag_assets.quality import cuad  # noqa: E402
from raag_assets.quality.graph_gold import extract_read, found_keys, read_file  # noqa: E402
from resources.nlp import load_pipeline  # noqa: E402

SHARED = Path(os.environ.get("RAAG_SHARED") or ROOT.parent / "shared")
CONTRACTS = SHARED / "data" / "cuad" / "contracts"
MAX_BYTES = 80_000
CORE = ("references", "defines", "uses_term")
PLAIN = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2022": "*",
        "\u2026": "...",
        "\u00a0": " ",
        "\t": "    ",
    }
)


def sample(part: str, n: int) -> list[Path]:
    files = [
        p
        for p in CONTRACTS.glob("*.txt")
        if cuad.part_of(p.name) == part and p.stat().st_size < MAX_BYTES
    ]
    files.sort(key=lambda p: hashlib.sha256(f"pdf:{p.name}".encode()).hexdigest())
    return files[:n]


def latin1(text: str) -> str:
    """The text in the core font's alphabet: punctuation made plain, anything else '?'."""
    return text.translate(PLAIN).encode("latin-1", "replace").decode("latin-1")


def typeset(lines: list[str], path: Path) -> None:
    """`lines` as a filing prints them: a paragraph per line, wrapped to the measure, a
    running header and a page footer on every page."""

    class Filing(FPDF):
        def header(self) -> None:
            self.set_font("Helvetica", "", 8)
            self.cell(0, 5, "Confidential", align="R", new_x="LMARGIN", new_y="NEXT")
            self.ln(4)

        def footer(self) -> None:
            self.set_y(-15)
            self.set_font("Helvetica", "", 8)
            self.cell(0, 5, f"Page {self.page_no()} of {{nb}}", align="C")

    pdf = Filing(format="Letter")
    pdf.set_margins(25, 20, 25)
    pdf.set_auto_page_break(True, margin=20)
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    for line in lines:
        pdf.multi_cell(0, 4.6, line.strip(), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    path.write_bytes(bytes(pdf.output()))


def printed_lines(txt: Path) -> list[str]:
    """The text's lines as a printed contract sets them: a filing flattened to a few long
    lines is cut where raag's reading of the text starts a section, as a PDF starts each
    clause on a line of its own; the page furniture the text path drops (EDGAR's "Source:"
    banners, page numbers) is left to the PDF's own header and footer."""
    _, sections, parsed = read_file(txt)
    raw = parsed.raw_text
    kept = sorted(
        (ln.start, ln.end) for ln in parsed.lines if ln.start is not None and ln.end is not None
    )
    starts = [a for a, _ in kept]
    cuts = sorted({0, len(raw), *(s.char_start for s in sections if s.char_start)})
    out = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        at = a
        for line in raw[a:b].splitlines(keepends=True):
            lo, hi, at = at, at + len(line), at + len(line)
            i = bisect.bisect_right(starts, hi) - 1  # the last kept line starting before hi
            if line.strip() and i >= 0 and kept[i][1] > lo:
                out.append(line.strip())
    return out


def run_in_lines(txt: Path) -> list[str]:
    """raag's lines of the text as they are (page furniture dropped): a filing CUAD flattened
    keeps its clauses run into long paragraphs, as some PDFs print them ("1. Grant 1.1
    License. ... 1.2 Marks. ..."), wrapped to the measure by the typesetter."""
    return [line.text for line in read_file(txt)[2].lines if line.text]


def pr(reference: set, got: set) -> tuple[int, int, int]:
    return len(reference), len(got), len(reference & got)


def reading(path: Path, parse) -> dict:
    """What raag reads from one file: section labels, edge keys by type, metadata."""
    doc, sections, parsed = read_file(path)
    keys = found_keys(extract_read([doc], sections, parse))
    by_type: dict[str, set] = {}
    for key in keys:
        by_type.setdefault(key[0], set()).add(key)
    return {
        "labels": {s.label for s in sections},
        "edges": by_type,
        "title": doc.title,
        "effective": parsed.effective.date if parsed.effective else None,
        "parties": tuple(parsed.meta.parties),
    }


def compare(text: dict, pdf: dict) -> dict[str, tuple[int, int, int]]:
    out = {"sections": pr(text["labels"], pdf["labels"])}
    for kind in sorted(set(text["edges"]) | set(pdf["edges"])):
        out[kind] = pr(text["edges"].get(kind, set()), pdf["edges"].get(kind, set()))
    core = [out.get(k, (0, 0, 0)) for k in CORE]
    out["core"] = (sum(c[0] for c in core), sum(c[1] for c in core), sum(c[2] for c in core))
    for field in ("title", "effective", "parties"):
        out[field] = (1, 1, int(text[field] == pdf[field]))
    return out


def _ratio(n: int, d: int) -> str:
    return f"{n / d:.3f}" if d else "  -  "


def audit(part: str, n: int, parse, workdir: Path, verbose: bool, run_in: bool) -> Counter:
    totals: Counter = Counter()
    for src in sample(part, n):
        plain = latin1(src.read_text(encoding="utf-8", errors="replace"))
        txt = workdir / src.name
        pdf = workdir / (src.stem + ".pdf")
        txt.write_text(plain, encoding="utf-8")
        typeset(run_in_lines(txt) if run_in else printed_lines(txt), pdf)
        scores = compare(reading(txt, parse), reading(pdf, parse))
        txt.unlink()
        pdf.unlink()
        for kind, (ref, got, both) in scores.items():
            totals[kind, "ref"] += ref
            totals[kind, "got"] += got
            totals[kind, "both"] += both
        if verbose and part == cuad.LOOK:
            s, c = scores["sections"], scores["core"]
            print(
                f"  {src.stem[:56]:56} sections {s[2]}/{s[0]} ({s[1]} in PDF)"
                f"  core P {_ratio(c[2], c[1])} R {_ratio(c[2], c[0])}"
                f"  title {'ok' if scores['title'][2] else 'NO'}"
                f"  date {'ok' if scores['effective'][2] else 'NO'}"
                f"  parties {'ok' if scores['parties'][2] else 'NO'}"
            )
    return totals


def report(part: str, totals: Counter, count: int, form: str = "pdf") -> None:
    """Totals of `compare` over some contracts: the `form`'s reading against the text's
    (benchmarks/text_audit.py reports its plain-text forms with it)."""
    print(f"\n== {part}: {count} contracts, the {form} reading against the text's")
    print(f"{'':18} {'text':>6} {form[:6]:>6} {'both':>6} {'P':>6} {'R':>6}")
    kinds = sorted(
        {k for k, _ in totals}, key=lambda k: (k in ("title", "effective", "parties"), k)
    )
    for kind in kinds:
        ref, got, both = totals[kind, "ref"], totals[kind, "got"], totals[kind, "both"]
        if kind in ("title", "effective", "parties"):
            print(f"{kind + ' same':18} {both:6d}/{ref:<6d}        {_ratio(both, ref):>6}")
        else:
            p, r = _ratio(both, got), _ratio(both, ref)
            print(f"{kind:18} {ref:6d} {got:6d} {both:6d} {p:>6} {r:>6}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-half", type=int, default=40)
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per look contract")
    ap.add_argument(
        "--run-in", action="store_true", help="clauses run into paragraphs as CUAD has them"
    )
    args = ap.parse_args()
    nlp = load_pipeline("en_core_web_sm")

    def parse(texts: list[str]) -> list:
        return list(nlp.pipe(texts, batch_size=64))

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="raag-pdf-audit-") as tmp:
        for part in (cuad.LOOK, cuad.SCORED):
            totals = audit(part, args.per_half, parse, Path(tmp), args.verbose, args.run_in)
            report(part, totals, len(sample(part, args.per_half)))
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
