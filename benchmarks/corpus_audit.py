"""Audit raag's reading of CUAD's 422 contracts (../shared/data/cuad), per contract and in
total, for the half we may look at and the half we only score (quality.cuad.part_of):

- sections; numbering gaps (a number skipped or out of order among siblings: 1.1, 1.2, 1.4);
- in-document section citations that resolve / that point at no section;
- visible definitions: of the terms the text visibly defines (quality.visible_terms: a quoted
  capitalised term in a defining frame, found without raag's extractor), the share raag gives
  a `defines` edge (case-folded), per form; --show-misses lists the look half's misses;
- defined terms never used (a definition raag connects to no use); the terms of art and
  their uses (uses_term edges);
- against CUAD's answers: the effective date (Effective Date, 286 contracts), the agreement
  date (Agreement Date, 371), the document name (Document Name), the parties (Parties).
  raag keeps a document's two dates apart (ParsedDocument.effective: the date it takes effect,
  else the date it bears; .agreement: the date it is dated, made or entered into): effective
  is compared with Effective Date, agreement (else effective, when the text states only one)
  with Agreement Date; the title raag reads (metadata, else the text) with Document Name (any
  of the names CUAD gives); the parties it reads into the metadata with Parties (the names,
  not CUAD's collective entries: "Acme and Beta", 'each a "Party"', "[ ]").

No store and no embeddings: parsing, sectioning, Layers 1 and 2 (the real spaCy model) and
term uses, as `graph-eval --offline` runs them.

Run: make corpus-audit   (or .venv/bin/python benchmarks/corpus_audit.py [-v] [--part scored])
  -v  one line per contract;  --limit N  the first N contracts of each half (a quick look)
  --show-misses  the visible definitions raag has no edge for (look half only: never the scored)
Shared data: ../shared beside the checkout, or RAAG_SHARED.
"""

import argparse
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from raag_assets.core.model import DocInfo, SectionInfo  # noqa: E402
from raag_assets.graph.build import Extraction, extract, terms_of_art, titled  # noqa: E402
from raag_assets.graph.lexicon import UNIT_NOUNS  # noqa: E402
from raag_assets.graph.references import Corpus  # noqa: E402
from raag_assets.graph.terms import mentioned_in, term_uses  # noqa: E402
from raag_assets.quality import cuad  # noqa: E402
from raag_assets.quality.graph_gold import read_file  # noqa: E402
from raag_assets.quality.visible_terms import Visible, fold, visible_definitions  # noqa: E402
from resources.nlp import load_pipeline  # noqa: E402

SHARED = Path(os.environ.get("RAAG_SHARED") or ROOT.parent / "shared")
CUAD = SHARED / "data" / "cuad"
CHECKS = ("effective", "agreement", "name", "parties")
# A citation of an attachment rather than of a numbered section: an exhibit a filing often
# leaves out, so it is counted apart as well as in the total.
ATTACHMENT = re.compile(rf"(?i)(?:{UNIT_NOUNS}|addendum)\b")


@dataclass
class Audit:
    file: str
    part: str
    error: str = ""
    sections: int = 0
    gaps: int = 0
    cites_resolved: int = 0
    cites_dangling: int = 0
    # of those, the ones citing an attachment (Exhibit A, Schedule 2): resolved, dangling
    attached_resolved: int = 0
    attached_dangling: int = 0
    terms: int = 0
    terms_unused: int = 0
    # why each never-used term has no use (UNUSED): not a term of art by design (a party's
    # short name, the document itself, an ordinary word, another instrument's name ...), or a
    # candidate used only in the sections defining it, mentioned in no other section, or
    # mentioned in another section yet given no uses_term edge (the misses to look at)
    unused_why: Counter = field(default_factory=Counter)
    terms_of_art: int = 0
    uses: int = 0
    # the visibly defined terms (per form), those raag has a defines edge for, and the rest
    visible: Counter = field(default_factory=Counter)
    visible_found: Counter = field(default_factory=Counter)
    misses: list[Visible] = field(default_factory=list)
    # per CUAD check: None when CUAD gives no usable answer, else right or not
    right: dict[str, bool | None] = field(default_factory=dict)
    found: dict[str, str] = field(default_factory=dict)


def numbering_gaps(labels: list[str]) -> int:
    """Siblings of a dotted numbering whose number does not follow the one before. An
    attachment (Exhibit A, Schedule 2, ...) numbers its items from 1 again: no gap."""
    last: dict[str, int] = {}
    gaps = 0
    for label in labels:
        if ATTACHMENT.match(label):
            last = {}
            continue
        if not re.fullmatch(r"\d{1,3}(?:\.\d{1,3})*", label):
            continue
        *parent, n = label.split(".")
        key = ".".join(parent)
        if key in last and int(n) != last[key] + 1:
            gaps += 1
        last[key] = int(n)
        for deeper in [k for k in last if k.startswith(label + ".") or k == label]:
            del last[deeper]  # a new parent restarts its children's count
    return gaps


def audit(path: Path, labels: dict | None, parse) -> Audit:
    out = Audit(path.name, cuad.part_of(path.name))
    try:
        doc, sections, parsed = read_file(path)
    except Exception as exc:  # noqa: BLE001 - a contract raag refuses is a finding, not a stop
        out.error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
        return out
    out.sections = len(sections)
    out.gaps = numbering_gaps([s.label for s in sections])
    result = extract([doc], sections, parse)
    label_of = {s.section_id: s.label for s in sections}
    resolved = [
        label_of.get(e.dst_section_id, "")
        for e in result.edges
        if e.edge_type == "references" and e.dst_doc_id == doc.doc_id and e.dst_section_id
    ]
    dangling = [
        u.target_label or u.normalized_target
        for u in result.parked
        if u.kind == "labels" and not u.target_doc
    ]
    out.cites_resolved, out.cites_dangling = len(resolved), len(dangling)
    out.attached_resolved = sum(1 for label in resolved if ATTACHMENT.match(label))
    out.attached_dangling = sum(1 for label in dangling if ATTACHMENT.match(label))
    defined_at = [
        (e.src_section_id or "", e.normalized_target)
        for e in result.edges
        if e.edge_type == "defines"
    ]
    uses = term_uses(sections, result.terms, {}, set(), defined_at)
    used = {e.normalized_target for e in uses}
    # every term the document defines, not only the terms of art (which are now decided by
    # their uses): a definition that reaches no use is a definition misread or a use missed
    defined = {key for _, key in defined_at}
    out.terms = len(defined)
    out.terms_unused = len(defined - used)
    out.unused_why = why_unused(doc, sections, result, defined_at, defined - used)
    out.terms_of_art = len(result.terms)
    out.uses = len(uses)
    check_definitions(out, parsed.raw_text, {fold(key) for key in defined})
    if result.errors:
        out.error = "extraction: " + next(iter(result.errors.values()))
    if labels is None:
        return out
    effective = parsed.effective
    agreement = parsed.agreement or parsed.effective
    for check, category, found in (
        ("effective", "Effective Date", effective),
        ("agreement", "Agreement Date", agreement),
    ):
        expected = cuad.cuad_date(labels[category]["answer"])
        date = found.date if found else None
        out.right[check] = None if expected is None else expected.matches(date)
        out.found[check] = str(date)
    names = [n.strip() for n in labels["Document Name"]["answer"].split("\n") if n.strip()]
    out.right["name"] = any(cuad.name_matches(n, doc.title) for n in names) if names else None
    out.found["name"] = doc.title or ""
    expected_parties = cuad.named_parties(labels["Parties"]["answer"])
    found_parties = list(parsed.meta.parties)
    # compared as CUAD's answers are read: without what stands in parentheses
    folded = [re.sub(r"\(.*?\)", "", f) for f in found_parties]
    out.right["parties"] = (
        cuad.parties_match(expected_parties, found_parties + folded) if expected_parties else None
    )
    out.found["parties"] = "; ".join(found_parties)
    return out


UNUSED = ("not a term of art", "used only where defined", "mentioned nowhere else", "no edge")


def why_unused(
    doc: DocInfo,
    sections: Sequence[SectionInfo],
    result: Extraction,
    defined_at: list[tuple[str, str]],
    unused: set[str],
) -> Counter:
    """The never-used defined terms of one contract by cause (UNUSED): a candidate term of art
    (graph.build.terms_of_art) is looked for as term uses find it (terms.mentioned_in)."""
    candidates = {
        t.key: t for t in terms_of_art(result.edges, Corpus(titled([doc], sections), sections))
    }
    homes: dict[str, set[str]] = {}
    for section_id, key in defined_at:
        homes.setdefault(key, set()).add(section_id)
    out: Counter = Counter()
    for key in unused:
        if key not in candidates:
            out[UNUSED[0]] += 1
            continue
        where = mentioned_in(sections, candidates[key].term)
        elsewhere = where - homes.get(key, set())
        out[UNUSED[3] if elsewhere else UNUSED[1] if where else UNUSED[2]] += 1
    return out


def check_definitions(out: Audit, raw_text: str, defined: set[str]) -> None:
    """Count the terms the raw text visibly defines, and which of them raag defines."""
    for v in visible_definitions(raw_text):
        out.visible[v.form] += 1
        if fold(v.term) in defined:
            out.visible_found[v.form] += 1
        else:
            out.misses.append(v)


def definitions_line(rows: list[Audit], name: str) -> str:
    visible = sum((r.visible for r in rows), Counter())
    found = sum((r.visible_found for r in rows), Counter())
    total, hit = sum(visible.values()), sum(found.values())
    forms = ", ".join(f"{form} {found[form]}/{n}" for form, n in visible.most_common())
    return (
        f"   visible definitions{name}: {hit}/{total} with a defines edge "
        f"({hit / max(1, total):.3f}); {forms}"
    )


def report(rows: list[Audit], part: str, labelled: dict[str, set[str]]) -> None:
    done = [r for r in rows if not r.error]
    print(f"\n== {part}: {len(rows)} contracts, {len(rows) - len(done)} refused")
    for reason, n in Counter(r.error.split(":")[0] for r in rows if r.error).most_common():
        print(f"   refused: {n} x {reason}")
    cites = sum(r.cites_resolved for r in done)
    dangling = sum(r.cites_dangling for r in done)
    print(
        f"   sections {sum(r.sections for r in done)}; contracts with numbering gaps "
        f"{sum(1 for r in done if r.gaps)} ({sum(r.gaps for r in done)} gaps)"
    )
    share = cites / (cites + dangling) if cites + dangling else 1.0
    print(
        f"   in-document citations: {cites} resolve, {dangling} point at no section "
        f"({share:.3f} resolve)"
    )
    attached = sum(r.attached_resolved for r in done)
    attached_dangling = sum(r.attached_dangling for r in done)
    numbered, numbered_dangling = cites - attached, dangling - attached_dangling
    print(
        f"     numbered sections: {numbered} resolve, {numbered_dangling} point at none "
        f"({numbered / max(1, numbered + numbered_dangling):.3f}); attachments (Exhibit, "
        f"Schedule, Annex, ...): {attached} resolve, {attached_dangling} point at none"
    )
    if part == cuad.LOOK:
        halves = [numbered_line([r for r in done if cuad.look_half(r.file) == h]) for h in "AB"]
        print(f"     numbered sections A {halves[0]}   B {halves[1]}")
    print(
        f"   defined terms {sum(r.terms for r in done)}, never used "
        f"{sum(r.terms_unused for r in done)}; terms of art {sum(r.terms_of_art for r in done)}, "
        f"uses_term edges {sum(r.uses for r in done)}"
    )
    print(unused_line(done, ""))
    if part == cuad.LOOK:
        for half in ("A", "B"):
            print(unused_line([r for r in done if cuad.look_half(r.file) == half], f" {half}"))
    print(definitions_line(done, ""))
    if part == cuad.LOOK:  # the halves a rule is built on (A) and checked on (B)
        for half in ("A", "B"):
            print(definitions_line([r for r in done if cuad.look_half(r.file) == half], f" {half}"))
    halves = ("A", "B") if part == cuad.LOOK else ()
    for check in CHECKS:
        line = f"   {check:<10} {checks_line(rows, check, labelled)}"
        for half in halves:  # a rule built on look-A must also hold on look-B
            mine = [r for r in rows if cuad.look_half(r.file) == half]
            line += f"   {half} {checks_line(mine, check, labelled)}"
        print(line)


def unused_line(rows: list[Audit], name: str) -> str:
    """The share of defined terms never used, and why (UNUSED)."""
    terms, unused = sum(r.terms for r in rows), sum(r.terms_unused for r in rows)
    why = sum((r.unused_why for r in rows), Counter())
    causes = ", ".join(f"{cause} {why[cause]}" for cause in UNUSED)
    return f"   never used{name}: {unused}/{terms} = {unused / max(1, terms):.3f} ({causes})"


def numbered_line(rows: list[Audit]) -> str:
    """The numbered-section citations of some contracts that resolve (attachments apart)."""
    right = sum(r.cites_resolved - r.attached_resolved for r in rows)
    wrong = sum(r.cites_dangling - r.attached_dangling for r in rows)
    return f"{right}/{right + wrong} = {right / max(1, right + wrong):.3f}"


def checks_line(rows: list[Audit], check: str, labelled: dict[str, set[str]]) -> str:
    scored = [r.right[check] for r in rows if r.right.get(check) is not None]
    # a refused contract that CUAD answers counts as wrong
    refused = sum(1 for r in rows if r.error and r.file in labelled[check])
    total = len(scored) + refused
    right = sum(1 for x in scored if x)
    return f"{right}/{total} = {right / total if total else 0:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--part", choices=(cuad.LOOK, cuad.SCORED))
    ap.add_argument("--limit", type=int)
    ap.add_argument("--show-misses", action="store_true")
    args = ap.parse_args()
    labels = cuad.load_labels(CUAD / "labels.jsonl")
    labelled: dict[str, set[str]] = {}  # per check, the contracts CUAD answers
    for check, category in (
        ("effective", "Effective Date"),
        ("agreement", "Agreement Date"),
        ("name", "Document Name"),
        ("parties", "Parties"),
    ):
        answer = cuad.cuad_date if "Date" in category else str.strip
        labelled[check] = {f for f, row in labels.items() if answer(row[category]["answer"])}
    nlp = load_pipeline("en_core_web_sm")

    def parse(texts: list[str]) -> list:
        return list(nlp.pipe(texts, batch_size=64))

    files = sorted((CUAD / "contracts").glob("*.txt"))
    started = time.perf_counter()
    for part in (cuad.LOOK, cuad.SCORED):
        if args.part and part != args.part:
            continue
        mine = [f for f in files if cuad.part_of(f.name) == part][: args.limit]
        rows = [audit(f, labels.get(f.name), parse) for f in mine]
        if args.verbose and part == cuad.LOOK:  # the scored half only as totals
            for r in rows:
                marks = " ".join(
                    f"{c}={'-' if r.right.get(c) is None else 'ok' if r.right[c] else 'NO'}"
                    for c in CHECKS
                )
                print(
                    f"{cuad.look_half(r.file)} {r.file[:60]:60} sec {r.sections:3d} "
                    f"gaps {r.gaps:2d} cites "
                    f"{r.cites_resolved}/{r.cites_resolved + r.cites_dangling} terms "
                    f"{r.terms - r.terms_unused}/{r.terms} {marks} {r.error}"
                )
        report(rows, part, labelled)
        if args.show_misses and part == cuad.LOOK:  # never the scored half's text
            for r in rows:
                for v in r.misses:
                    where = f"{cuad.look_half(r.file)} {r.file[:40]}"
                    print(f"   miss {where} {v.form:<11} {v.term!r:<36} | {v.snippet}")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
