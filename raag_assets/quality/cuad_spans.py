"""A span-labelled retrieval set from CUAD's clause labels (../shared/data/cuad): for every
contract and every category whose answer is a clause, one query that names the contract as a
user would ("Consider the <Document Name> between <Parties>; <the category's question>"), its
answer the annotated clauses as character spans of the file as open() reads it. Each test
carries its half of the fixed split (`cuad.part_of`), and `sample` picks the fixed subsample of
a half that one evaluation run ingests as one tenant."""

import ast
import hashlib
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from raag_assets.quality.cuad import LOOK, SCORED, part_of

PARTS = (LOOK, SCORED)
SAMPLE = 40  # contracts per half by default: ingest here runs at 20-40 chunks a second
OMITTED = "<omitted>"  # CUAD joins the pieces of a clause with this marker
MIN_PIECE = 4  # characters: shorter pieces (a stray "(a)") locate nowhere in particular

# One plain question per category whose answer is a clause. Left out: Document Name,
# Parties (they are in every query), Agreement Date and Effective Date (a date, not a clause).
QUESTIONS: dict[str, str] = {
    "Governing Law": "which jurisdiction's law governs it?",
    "Expiration Date": "when does its initial term end?",
    "Renewal Term": "does it renew automatically, and for how long?",
    "Notice Period To Terminate Renewal": "how much notice must be given to stop it renewing?",
    "Exclusivity": "is a party bound to deal exclusively with the other?",
    "Non-Compete": "is a party restricted from competing with the other?",
    "No-Solicit Of Customers": "is a party barred from soliciting the other's customers?",
    "No-Solicit Of Employees": "is a party barred from soliciting or hiring the other's employees?",
    "Competitive Restriction Exception": (
        "what exceptions are there to its non-compete, exclusivity or no-solicit restrictions?"
    ),
    "Non-Disparagement": "must a party refrain from disparaging the other?",
    "Termination For Convenience": "can a party terminate it without cause, for convenience?",
    "Rofr/Rofo/Rofn": "does a party have a right of first refusal, offer or negotiation?",
    "Change Of Control": "what happens if a party undergoes a change of control?",
    "Anti-Assignment": "may a party assign it without the other's consent?",
    "Revenue/Profit Sharing": "must a party share revenue or profits with the other?",
    "Price Restrictions": "are there restrictions on changing prices?",
    "Minimum Commitment": "is there a minimum order, purchase or payment commitment?",
    "Volume Restriction": "is there a limit on volume, quantity or usage?",
    "Ip Ownership Assignment": "who owns the intellectual property created under it?",
    "Joint Ip Ownership": "is any intellectual property owned jointly?",
    "License Grant": "what licence does it grant?",
    "Non-Transferable License": "may the licence be transferred or sublicensed?",
    "Affiliate License-Licensor": "does the licence cover the licensor's affiliates' rights?",
    "Affiliate License-Licensee": "may the licensee's affiliates use the licence?",
    "Unlimited/All-You-Can-Eat-License": "is the licence unlimited in users, copies or use?",
    "Irrevocable Or Perpetual License": "is a licence irrevocable or perpetual?",
    "Source Code Escrow": "must source code be deposited in escrow?",
    "Post-Termination Services": "what must a party do after it ends (transition, wind-down)?",
    "Audit Rights": "may a party audit the other's books and records?",
    "Uncapped Liability": "is any liability left uncapped by the limitation of liability?",
    "Cap On Liability": "what is the cap on liability?",
    "Liquidated Damages": "are liquidated damages or a termination fee payable?",
    "Warranty Duration": "how long does the warranty last?",
    "Insurance": "what insurance must a party maintain?",
    "Covenant Not To Sue": "is a party barred from suing or contesting the other's rights?",
    "Third Party Beneficiary": "does it give rights to third-party beneficiaries?",
    "Most Favored Nation": "does a party get terms as good as any given to others?",
}


def locate(text: str, clause: str) -> tuple[int, int] | None:
    """The span of `clause` in `text`: exactly, else with any run of whitespace matching any
    other (CUAD's exports collapse line breaks and padding)."""
    at = text.find(clause)
    if at >= 0:
        return at, at + len(clause)
    words = clause.split()
    if not words:
        return None
    m = re.search(r"\s+".join(re.escape(w) for w in words), text)
    return (m.start(), m.end()) if m else None


def clause_spans(text: str, clauses: Iterable[str]) -> tuple[list[tuple[int, int]], int]:
    """The sorted distinct spans of the clauses' pieces in `text`, and the number of pieces
    not found."""
    spans: set[tuple[int, int]] = set()
    missing = 0
    for clause in clauses:
        for piece in clause.split(OMITTED):
            piece = piece.strip()
            if len(piece) < MIN_PIECE:
                continue
            span = locate(text, piece)
            if span is None:
                missing += 1
            else:
                spans.add(span)
    return sorted(spans), missing


def organisations(answer: str) -> list[str]:
    """The parties' own names in CUAD's Parties answer, without the defined short names:
    'Birch First Global Investments Inc. ("Company"); Mount Kowledge Holdings Inc. ("MA")' ->
    the two names. A part that is only a description ("the individual ... identified on the
    cover page") or a list of defined names ("(collectively "Parties")") names no one."""
    names: list[str] = []
    for part in (answer or "").split(";"):
        part = part.strip().lstrip("(").strip()
        part = re.sub(r"\(.*?\)|\(.*$|[\"“”].*$", "", part)  # defined names, quoted or not
        part = re.sub(r"\s+and its (?:affiliates|subsidiaries)\b.*$", "", part, flags=re.I)
        name = " ".join(part.split()).strip(" ,;:")
        if name and name[0].isupper() and name not in names:
            names.append(name)
    return names


def document_name(answer: str) -> str:
    """CUAD's Document Name as a user would write it: spacing folded, a trailing fragment
    CUAD's span cut off dropped ("…AGREEMENT, d"), an all-capitals title in title case."""
    name = " ".join(re.sub(r",\s*\w?$", "", answer.strip()).split())
    return name.title() if name.isupper() else name


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def query(name: str, parties: list[str], question: str) -> str:
    """'Consider the <name> between <parties>; <question>'."""
    article = "" if name.lower().startswith("the ") else "the "
    between = f" between {_joined(parties)}" if parties else ""
    return f"Consider {article}{name}{between}; {question}"


def contract_tests(row: Mapping[str, Any], text: str) -> tuple[list[dict[str, Any]], int]:
    """The tests of one labelled contract (one per category with a located clause), and the
    number of clause pieces not found in its text."""
    file = row["file"]
    name = document_name(row["Document Name"]["answer"])
    parties = organisations(row["Parties"]["answer"])
    tests, missing = [], 0
    for category, question in QUESTIONS.items():
        raw = (row.get(category) or {}).get("clauses")
        spans, lost = clause_spans(text, ast.literal_eval(raw) if raw else [])
        missing += lost
        if spans:
            tests.append(
                {
                    "query": query(name, parties, question),
                    "category": category,
                    "part": part_of(file),
                    "snippets": [{"file_path": file, "span": list(s)} for s in spans],
                }
            )
    return tests, missing


def build(labels: Mapping[str, Mapping[str, Any]], contracts: Path) -> tuple[list[dict], int]:
    """Every test of every labelled contract whose file is in `contracts`, in the order of
    `file_order`; the number of clause pieces not found."""
    tests: list[dict[str, Any]] = []
    missing = 0
    for file in file_order(f for f in labels if (contracts / f).is_file()):
        with open(contracts / file, encoding="utf-8") as fh:
            found, lost = contract_tests(labels[file], fh.read())
        tests += found
        missing += lost
    return tests, missing


def file_order(files: Iterable[str]) -> list[str]:
    """The fixed order of contracts: by the SHA-256 of the file name as published (the same
    hash `part_of` splits by), so the first N of a half are a sample no one picked."""
    return sorted(files, key=lambda f: (hashlib.sha256(f.encode("utf-8")).hexdigest(), f))


def sample(files: Iterable[str], part: str, n: int | None = SAMPLE) -> list[str]:
    """The fixed subsample of a half: its first `n` contracts in `file_order` (all if None)."""
    if part not in PARTS:
        raise ValueError(f"{part!r} is not a half: {PARTS}")
    ordered = file_order({f for f in files if part_of(f) == part})
    return ordered if n is None else ordered[:n]
