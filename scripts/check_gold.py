#!/usr/bin/env python3
"""Check the hand-labelled gold graph files against their documents (stdlib only).

For every golden/graph/**/*.jsonl file: each line is a well-formed edge, no line repeats, every
src/dst label exists in the document's structure list (golden/structure/<doc>.json), and every
evidence string occurs, whitespace-normalised and case-sensitive, in the text of its src
section. Sections are located in the source file by their headings, in list order; a section's
text runs from its heading to the next one. A document without a structure list is checked
against its whole text. Sources are relative to the shared folder ($RAAG_SHARED, else
../shared beside the checkout), to the checkout (golden/graph/standards3/docs/...) or absolute
(/usr/share/common-licenses/GPL-3).

Usage: python3 scripts/check_gold.py [JSONL ...]   (default: every golden/graph/**/*.jsonl)
       python3 scripts/check_gold.py --sections DOC_ID   (show where each section starts)
Prints one line per problem and exits 1 if there is any.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTION_TYPES = {"references", "depends_on", "overrides", "amends", "supersedes"}
EDGE_TYPES = SECTION_TYPES | {
    "defines",
    "uses_term",
    "effective_on",
    "applies_to",
    "applies_to_scope",
    "precedes",
}
KEYS = ("doc", "src", "type", "dst_doc", "dst", "term", "evidence", "confidence")
DATE = r"\d{4}-\d{2}-\d{2}"
ROMAN = re.compile(r"^[IVXLCDM]+$")
SYSTEM_DIRS = (Path("/usr/share/common-licenses"),)


def shared_root() -> Path:
    env = os.environ.get("RAAG_SHARED")
    return Path(env) if env else ROOT.parent / "shared"


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Doc:
    """A document's normalised text cut into labelled sections (empty when no list exists)."""

    doc_id: str
    text: str
    sections: dict[str, str] = field(default_factory=dict)
    has_structure: bool = False


def resolve_source(source: str) -> Path:
    """Absolute, else relative to the shared folder, else to the checkout (gold documents
    copied into golden/)."""
    path = Path(source)
    if path.is_absolute():
        return path
    shared = shared_root() / path
    return shared if shared.exists() or not (ROOT / path).exists() else ROOT / path


def find_source(doc_id: str) -> Path | None:
    """Where a document without a structure list lives: a system licence or shared data."""
    for folder in SYSTEM_DIRS:
        if (folder / doc_id).is_file():
            return folder / doc_id
    examples = sorted((ROOT / "examples").glob(f"{doc_id}.*"))
    if examples:
        return examples[0]
    data = shared_root() / "data"
    for name in (f"{doc_id}.txt", doc_id):
        hits = sorted(data.rglob(name)) if data.is_dir() else []
        if hits:
            return hits[0]
    return None


def label_pattern(label: str) -> str:
    """How a section's own label may be printed at its heading."""
    words = label.split()
    if len(words) == 2 and (ROMAN.match(words[1]) or words[0].lower() in {"article", "part"}):
        return rf"{re.escape(words[0])}\s+{re.escape(words[1])}\b\.?"
    if re.match(r"^[\dA-Z]+(\.[\dA-Z]+)*$", label):
        return rf"(?:(?:Section|Clause|§)\s*)?{re.escape(label)}(?![\d.]\d)\.?"
    return r"\s*".join(re.escape(w) for w in words)


def heading_pattern(heading: str) -> str:
    tokens = re.findall(r"\w+", heading)
    return r"\W*".join(re.escape(t) for t in tokens)


def locate(text: str, entry: dict[str, str], start: int) -> int | None:
    """Offset of the section's heading at or after `start`, or None."""
    label, heading = entry.get("label", ""), entry.get("heading", "")
    if label == "Title" and start == 0:
        return 0
    anchor = entry.get("anchor")
    if anchor:
        pos = text.find(norm(anchor), start)
        return None if pos < 0 else pos
    head = heading_pattern(heading)
    tries = []
    if label and head:
        tries.append(label_pattern(label) + r"[\W_]*" + head)
    if head:
        tries.append(head)
    if label and not head:
        tries.append(label_pattern(label))
    for pattern in tries:
        match = re.compile(pattern, re.IGNORECASE).search(text, start)
        if match:
            return match.start()
    return None


def load_doc(doc_id: str, problems: list[str]) -> Doc | None:
    spec_path = ROOT / "golden" / "structure" / f"{doc_id}.json"
    if not spec_path.is_file():  # contract gold keeps its section lists beside its edges
        beside = sorted((ROOT / "golden" / "graph").glob(f"*/structure/{doc_id}.json"))
        spec_path = beside[0] if beside else spec_path
    spec: dict[str, object] = {}
    if spec_path.is_file():
        spec = json.loads(spec_path.read_text(encoding="utf-8"))
        if spec.get("doc") != doc_id:
            problems.append(f"{spec_path.name}: doc is {spec.get('doc')!r}, not {doc_id!r}")
    source = spec.get("source")
    path = resolve_source(str(source)) if source else find_source(doc_id)
    if path is None or not path.is_file():
        problems.append(f"{doc_id}: source not found ({source or 'no structure list'})")
        return None
    if path.suffix == ".pdf":  # no PDF text extraction in a stdlib script: labels unchecked
        return None
    text = norm(path.read_text(encoding="utf-8", errors="replace"))
    entries = spec.get("sections") or []
    doc = Doc(doc_id, text, has_structure=bool(entries))
    if not isinstance(entries, list):
        problems.append(f"{spec_path.name}: sections is not a list")
        return doc
    starts: list[tuple[str, int]] = []
    pos = 0
    for entry in entries:
        at = locate(text, entry, pos)
        if at is None:
            problems.append(
                f"{doc_id}: cannot locate section {entry.get('label')!r} "
                f"{entry.get('heading')!r} after offset {pos}"
            )
            continue
        starts.append((entry["label"], at))
        pos = at + 1
    for i, (label, at) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(text)
        # A label printed twice by the document (two "6.12"s) keeps both texts.
        doc.sections[label] = (doc.sections.get(label, "") + " " + text[at:end]).strip()
    return doc


def check_line(
    edge: dict[str, object], where: str, docs: dict[str, Doc | None], problems: list[str]
) -> None:
    missing = [k for k in KEYS if k not in edge]
    if missing:
        problems.append(f"{where}: missing keys {missing}")
        return
    kind, src, dst, term = edge["type"], edge["src"], edge["dst"], edge["term"]
    if kind not in EDGE_TYPES:
        problems.append(f"{where}: unknown type {kind!r}")
    if edge["confidence"] not in ("certain", "likely"):
        problems.append(f"{where}: confidence {edge['confidence']!r}")
    if (kind in ("defines", "uses_term")) != isinstance(term, str):
        problems.append(f"{where}: term {term!r} does not fit type {kind}")
    if kind == "defines" and dst is not None:
        problems.append(f"{where}: defines has dst {dst!r}")
    if kind == "effective_on" and not re.fullmatch(DATE, str(dst)):
        problems.append(f"{where}: effective_on dst {dst!r} is not YYYY-MM-DD")
    if kind == "applies_to" and not re.fullmatch(rf"({DATE})?/({DATE})?", str(dst)):
        problems.append(f"{where}: applies_to dst {dst!r} is not FROM/TO")
    if kind == "applies_to_scope" and (not isinstance(dst, str) or dst != dst.lower()):
        problems.append(f"{where}: applies_to_scope dst {dst!r} is not a lower-case phrase")
    # a whole-document target may lie outside the corpus (e.g. "Obsoletes: 2060"): not loaded
    targets = {str(edge["doc"])} | ({str(edge["dst_doc"])} if dst and edge["dst_doc"] else set())
    for doc_id in targets:
        if doc_id not in docs:
            docs[doc_id] = load_doc(doc_id, problems)
    doc, target = docs[str(edge["doc"])], docs.get(str(edge["dst_doc"]))
    if doc is None:
        return
    text = doc.text
    if doc.has_structure:
        if src not in doc.sections:
            problems.append(f"{where}: src {src!r} is not a section of {doc.doc_id}")
            return
        text = doc.sections[str(src)]
    cites_section = kind in SECTION_TYPES | {"uses_term"} and dst is not None
    known = target is None or not target.has_structure or dst in target.sections
    if cites_section and not known:
        problems.append(f"{where}: dst {dst!r} is not a section of {target.doc_id}")
    if kind in SECTION_TYPES and dst == src and edge["dst_doc"] == edge["doc"]:
        problems.append(f"{where}: section {src!r} cites itself")
    evidence = norm(str(edge["evidence"]))
    if not evidence or evidence not in text:
        scope = f"section {src!r}" if doc.has_structure else "the document"
        problems.append(f"{where}: evidence {evidence!r} not in {scope} of {doc.doc_id}")


def check_file(path: Path, docs: dict[str, Doc | None], problems: list[str]) -> int:
    seen: set[tuple[object, ...]] = set()
    count = 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{n}"
        try:
            edge = json.loads(line)
        except json.JSONDecodeError as err:
            problems.append(f"{where}: not JSON ({err})")
            continue
        if not isinstance(edge, dict):
            problems.append(f"{where}: not an object")
            continue
        key = tuple(edge.get(k) for k in ("doc", "src", "type", "dst_doc", "dst", "term"))
        if key in seen:
            problems.append(f"{where}: repeats an earlier line {key}")
        seen.add(key)
        check_line(edge, where, docs, problems)
        count += 1
    return count


def show_sections(doc_id: str) -> int:
    problems: list[str] = []
    doc = load_doc(doc_id, problems)
    for label, text in doc.sections.items() if doc else []:
        print(f"{label:>12}  {len(text):6}  {text[:90]}")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--sections"] and len(argv) == 2:
        return show_sections(argv[1])
    default = sorted((ROOT / "golden" / "graph").glob("*/*.jsonl"))  # <genre>/<doc>.jsonl
    files = [Path(a).resolve() for a in argv] or default
    docs: dict[str, Doc | None] = {}
    problems: list[str] = []
    total = sum(check_file(f, docs, problems) for f in files)
    for problem in problems:
        print(problem)
    print(f"{len(files)} files, {total} lines, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
