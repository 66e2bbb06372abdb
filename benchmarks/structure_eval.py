"""Structure of real documents against what they state, and effective dates against CUAD.

- RFC 3501: every number its table of contents lists is a section label; no section is page
  furniture.
- Contracts and licences with a hand-made section list in golden/structure/<doc>.json, and the
  section lists the graph gold's labellers wrote (golden/graph/<genre>/structure/): label
  precision and recall, and how many matched labels carry the gold heading.
- Effective dates of the 8 dev contracts against the human CUAD answers (the "Effective Date"
  answer, else the "Agreement Date"; `[]/[]/2012` means only the year is known).
- The cost of parsing and sectioning each document.

Run: make structure-eval   (or .venv/bin/python benchmarks/structure_eval.py)
Shared data: ../shared beside the checkout, or RAAG_SHARED.
"""

import datetime as dt
import json
import os
import re
import time
from pathlib import Path

from raag_assets.ingest.parsing import parse_file
from raag_assets.ingest.sectioning import build_sections

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("RAAG_SHARED") or ROOT.parent / "shared")
DEV = SHARED / "data" / "dev_legal"
FURNITURE = re.compile(r"\[Page \d+\]|^RFC \d+ +\S+ +\w+ \d{4}$|^Source: |\S +Standards Track +\[")


def _sections(path: Path):
    started = time.perf_counter()
    doc = parse_file(path, 100_000_000)
    sections = build_sections(doc.doc_id, doc.lines, doc.format)
    return doc, sections, time.perf_counter() - started


def rfc() -> None:
    path = DEV / "rfc" / "rfc3501.txt"
    toc = [
        m.group(1)
        for line in path.read_text(encoding="utf-8").splitlines()
        if (m := re.match(r"^\s+([0-9]+(?:\.[0-9]+)*|[A-Z])\.?\s+\S.*\.{3,}\s*\d+$", line))
    ]
    _, sections, seconds = _sections(path)
    labels = {s.label for s in sections}
    furniture = [s.label for s in sections if FURNITURE.search(s.label) or FURNITURE.search(s.text)]
    found = sum(1 for label in toc if label in labels)
    print(
        f"RFC 3501: {found}/{len(toc)} contents numbers are section labels; "
        f"{len(furniture)} sections hold page furniture; {len(sections)} sections "
        f"({seconds * 1000:.0f} ms)"
    )


def _score_section_lists(folder: Path) -> tuple[int, int, int]:
    """Print label precision / recall per hand-made section list in `folder`; return the
    totals (gold, found, matched) over its documents."""
    print(f"{'document':58} {'gold':>5} {'found':>5} {'P':>6} {'R':>6} {'heading':>8}")
    totals = [0, 0, 0]
    for gold_file in sorted(folder.glob("*.json")):
        gold = json.loads(gold_file.read_text(encoding="utf-8"))
        source = gold.get("source", "")
        path = SHARED / source if source.startswith("data/") else Path(source)
        if not path.is_file():
            path = Path("/usr/share/common-licenses") / gold["doc"]
        if not path.is_file():
            continue
        _, sections, _ = _sections(path)
        want = [(s["label"], s.get("heading", "")) for s in gold["sections"]]
        got = {s.label: s.heading for s in sections}
        want = list(dict(want).items())  # a label listed twice is one section
        hit = [label for label, _ in want if label in got]
        heading = sum(1 for label, h in want if label in got and got[label].lower() == h.lower())
        p = len(hit) / len(sections) if sections else 0
        r = len(hit) / len(want) if want else 0
        print(
            f"{gold['doc'][:58]:58} {len(want):5d} {len(sections):5d} {p:6.2f} {r:6.2f} "
            f"{heading:4d}/{len(hit)}"
        )
        for i, n in enumerate((len(want), len(sections), len(hit))):
            totals[i] += n
    return totals[0], totals[1], totals[2]


def gold_structure() -> None:
    print("\nHand-made section lists (golden/structure):")
    _score_section_lists(ROOT / "golden" / "structure")


def graph_gold_structure() -> None:
    """The section lists the graph gold's labellers wrote beside their edges
    (golden/graph/<genre>/structure/): where a blind set loses edges because its sections
    came out otherwise, this says so. Figures only: no label is printed."""
    for folder in sorted((ROOT / "golden" / "graph").glob("*/structure")):
        print(f"\nSection lists of the graph gold, {folder.parent.name}:")
        gold, found, hit = _score_section_lists(folder)
        if gold and found:
            name = "= " + folder.parent.name
            print(f"{name:58} {gold:5d} {found:5d} {hit / found:6.2f} {hit / gold:6.2f}")


def _cuad_answer(answer: str) -> tuple[str, int, int | None, int | None] | None:
    m = re.fullmatch(r"(\d+|\[\])/(\d+|\[\])/(\d+)", answer.strip())
    if not m:
        return None
    year = int(m.group(3))
    year = year + (2000 if year < 50 else 1900) if year < 100 else year
    if "[]" in (m.group(1), m.group(2)):
        return "year", year, None, None
    return "day", year, int(m.group(1)), int(m.group(2))


def cuad_dates() -> None:
    print("\nEffective dates vs CUAD (Effective Date answer, else Agreement Date):")
    right = total = 0
    for line in (DEV / "cuad_labels.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        answer = row["Effective Date"]["answer"] or row["Agreement Date"]["answer"]
        expected = _cuad_answer(answer or "")
        if expected is None:
            continue
        doc, _, _ = _sections(DEV / "contracts" / row["file"])
        found = doc.effective
        kind, year, month, day = expected
        if kind == "year":
            ok = found is not None and found.date.year == year
        else:
            ok = found is not None and found.date == dt.date(year, month, day)  # type: ignore[arg-type]
        right += ok
        total += 1
        shown = f"{found.date} ({found.precision}) {found.evidence!r}" if found else "none"
        print(f"  {'ok ' if ok else 'NO '} {row['file'][:48]:48} CUAD {answer:12} found {shown}")
    print(f"effective dates right: {right}/{total}")


if __name__ == "__main__":
    rfc()
    gold_structure()
    graph_gold_structure()
    cuad_dates()
