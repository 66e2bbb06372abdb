"""What the text path loses when a contract's text comes in another plain-text form.

Most contracts that are not PDFs arrive as plain text, and not as CUAD ships them (a
paragraph a line): EDGAR .txt exhibits are hard-wrapped at 60-80 columns with indented first
lines and centred headings, carry page furniture ("-3-", "Page 3 of 12", form feeds, a
running title on every page), end their lines with CRLF, or run a filing's clauses into each
other. This writes each sampled contract again in such forms, the SAME content each time,
reads every file through raag as `graph-eval --offline` does and scores each form's reading
against the reading of the original text: section labels, edges per type (the text's graph
as the reference: precision / recall of the form's), and the title, effective date and
parties raag reads (pdf_audit's comparison helpers, shared).

Forms (--form, repeatable; all by default):
  wrap   EDGAR's layout: 72 columns, first lines indented, headings centred, "-N-" and a
         form feed every 56 lines
  page   CRLF line ends, 64 columns, flush left, "Page N of M" and the title raag reads
         from the text as a running header every 50 lines
  runin  raag's sections run into each other: consecutive clauses joined on one physical
         line (a heading into its first clause, "2. Fees   2.1 The Company shall ...")

The content is pdf_audit's: the Latin-1 text, cut where raag's reading of it starts a
section, its furniture dropped (printed_lines). Sample: pdf_audit's (the first N contracts
under 80 kB per half in SHA-256 order). Per-contract lines for the look half only (-v); the
look half is reported as look-A and look-B as well; the scored half prints its totals only.

Run: make text-audit   (or .venv/bin/python benchmarks/text_audit.py [--per-half N] [-v]
     [--form wrap] [--part look])
"""

import argparse
import sys
import tempfile
import textwrap
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pdf_audit import (  # noqa: E402
    _ratio,
    compare,
    latin1,
    printed_lines,
    reading,
    report,
    sample,
)

from raag_assets.quality import cuad  # noqa: E402
from resources.nlp import load_pipeline  # noqa: E402

_HEADING_MAX = 60  # a short line in capitals without a sentence's end is set as a heading


def _heading(line: str) -> bool:
    """A line EDGAR would centre: a short title in capitals ("ARTICLE 2 FEES"), not the
    start of a clause cut where raag's reading of the text starts the next section."""
    short = len(line) <= _HEADING_MAX and not line.rstrip().endswith((".", ";", ":", ","))
    return short and line == line.upper() and any(c.isalpha() for c in line)


def paragraphs(lines: list[str]) -> list[str]:
    """pdf_audit's printed lines as paragraphs: a line that goes on the sentence of the line
    before (no end of sentence there, a small letter here) was cut by the text's page
    furniture, which raag reads through; a form sets it in the same paragraph."""
    out: list[str] = []
    for line in lines:
        if out and line[:1].islower() and not out[-1].rstrip().endswith((".", ":", ";", "!", "?")):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return out


def paged(body: list[str], every: int, furniture: Callable[[int], list[str]]) -> list[str]:
    """`body` cut into pages of `every` lines, `furniture(page)` after each page but the last
    (the lines that end one page and open the next)."""
    out: list[str] = []
    pages = [body[i : i + every] for i in range(0, len(body), every)] or [[]]
    for n, page in enumerate(pages, 1):
        out.extend(page)
        if n < len(pages):
            out.extend(furniture(n))
    return out


def wrap_form(lines: list[str], title: str) -> str:
    """EDGAR's .txt layout: 72 columns, headings centred, a paragraph's first line indented
    eight columns, "-N-" centred and a form feed between pages."""
    body: list[str] = []
    for line in lines:
        if _heading(line):
            body.append(line.center(72).rstrip())
        else:
            body.extend(textwrap.wrap(line, 72, initial_indent=" " * 8))
        body.append("")
    return "\n".join(paged(body, 56, lambda n: ["", f"-{n}-".center(72).rstrip(), "\f"])) + "\n"


def page_form(lines: list[str], title: str) -> str:
    """A word processor's text export: 64 columns flush left, CRLF line ends, a "Page N of M"
    footer and the document's title as a running header at each page break."""
    body: list[str] = []
    for line in lines:
        body.extend(textwrap.wrap(line, 64))
        body.append("")
    pages = max(1, -(-len(body) // 50))
    out = paged(body, 50, lambda n: ["", f"Page {n} of {pages}".center(64).rstrip(), "", title, ""])
    return "\r\n".join(out) + "\r\n"


def runin_form(lines: list[str], title: str) -> str:
    """A filing's clauses run into each other: consecutive lines (each a section of raag's
    reading, or part of one) joined on one physical line, three spaces apart, until it holds
    some 400 characters (the runs of spaces of a filing CUAD flattened made single: those
    read as line breaks, and a run-in line has none)."""
    out: list[str] = []
    cur = ""
    for line in lines:
        line = " ".join(line.split())  # a flattened filing's runs of spaces are no run-in
        cur = f"{cur}   {line}" if cur else line
        if len(cur) >= 400:
            out.extend([cur, ""])
            cur = ""
    if cur:
        out.append(cur)
    return "\n".join(out) + "\n"


FORMS: dict[str, Callable[[list[str], str], str]] = {
    "wrap": wrap_form,
    "page": page_form,
    "runin": runin_form,
}


def audit(part: str, n: int, forms: list[str], parse, workdir: Path, verbose: bool) -> dict:
    """Totals per form (and per look half, "A" / "B", on the look half)."""
    totals: dict[tuple[str, str], Counter] = {}
    for src in sample(part, n):
        half = cuad.look_half(src.name) if part == cuad.LOOK else ""
        txt = workdir / src.name
        txt.write_text(latin1(src.read_text(encoding="utf-8", errors="replace")), "utf-8")
        lines = paragraphs(printed_lines(txt))
        ref = reading(txt, parse)
        for form in forms:
            out = workdir / form / src.name  # the same name: the same document id
            out.parent.mkdir(exist_ok=True)
            out.write_bytes(
                FORMS[form](lines, ref["title"] or "CONFIDENTIAL").encode("utf-8")
            )  # as is: CRLF stays
            scores = compare(ref, reading(out, parse))
            out.unlink()
            for key in ((form, ""), (form, half)) if half else ((form, ""),):
                tot = totals.setdefault(key, Counter())
                for kind, (r, g, b) in scores.items():
                    tot[kind, "ref"] += r
                    tot[kind, "got"] += g
                    tot[kind, "both"] += b
            if verbose and part == cuad.LOOK:
                s, c = scores["sections"], scores["core"]
                print(
                    f"  {form:5} {half} {src.stem[:50]:50} sections {s[2]}/{s[0]} ({s[1]})"
                    f"  core P {_ratio(c[2], c[1])} R {_ratio(c[2], c[0])}"
                    f"  title {'ok' if scores['title'][2] else 'NO'}"
                    f"  date {'ok' if scores['effective'][2] else 'NO'}"
                    f"  parties {'ok' if scores['parties'][2] else 'NO'}"
                )
        txt.unlink()
    return totals


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-half", type=int, default=40)
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per look contract")
    ap.add_argument("--form", action="append", choices=sorted(FORMS), help="default: all")
    ap.add_argument("--part", choices=(cuad.LOOK, cuad.SCORED), help="default: both")
    args = ap.parse_args()
    forms = args.form or list(FORMS)
    nlp = load_pipeline("en_core_web_sm")

    def parse(texts: list[str]) -> list:
        return list(nlp.pipe(texts, batch_size=64))

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="raag-text-audit-") as tmp:
        for part in [args.part] if args.part else [cuad.LOOK, cuad.SCORED]:
            files = sample(part, args.per_half)
            totals = audit(part, args.per_half, forms, parse, Path(tmp), args.verbose)
            for form in forms:
                report(part, totals[form, ""], len(files), form)
                for half in ("A", "B") if part == cuad.LOOK else ():
                    count = sum(1 for f in files if cuad.look_half(f.name) == half)
                    report(f"{part}-{half}", totals[form, half], count, form)
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
