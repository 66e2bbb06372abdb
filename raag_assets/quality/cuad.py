"""CUAD's expert labels as a measure (../shared/data/cuad): the fixed split of its contracts
into a half we may look at and a half we only score, and how raag's reading of a contract
(title, dates, parties) is compared with the annotators' answers."""

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz

LOOK, SCORED = "look", "scored"
NAME_MATCH = 90  # rapidfuzz ratio of a document name to CUAD's, case and spacing folded
PARTY_MATCH = 85  # partial ratio of a party's name to one raag found


def part_of(file_name: str) -> str:
    """The split, fixed once: by the first byte of the SHA-256 of the file name as published.
    Even: a contract we may read while building; odd: one we only score."""
    return LOOK if hashlib.sha256(file_name.encode("utf-8")).digest()[0] % 2 == 0 else SCORED


def look_half(file_name: str) -> str:
    """Within the look half, "A" (to build a rule on) or "B" (to check it on): by the second
    byte of the same hash, so the halves of a fit never share a contract."""
    return "A" if hashlib.sha256(file_name.encode("utf-8")).digest()[1] % 2 == 0 else "B"


@dataclass(frozen=True)
class CuadDate:
    """A CUAD date answer ("5/8/14", "[]/[]/2012"): year always, month and day when given."""

    year: int
    month: int | None
    day: int | None

    def matches(self, found: dt.date | None) -> bool:
        """Right to the precision CUAD gives: the day, else the month, else the year."""
        if found is None or found.year != self.year:
            return False
        if self.month is not None and found.month != self.month:
            return False
        return self.day is None or found.day == self.day


def cuad_date(answer: str) -> CuadDate | None:
    m = re.fullmatch(r"(\d+|\[\])/(\d+|\[\])/(\d+)", (answer or "").strip())
    if not m:
        return None
    year = int(m.group(3))
    if year < 100:
        year += 2000 if year < 50 else 1900
    month = None if m.group(1) == "[]" else int(m.group(1))
    day = None if m.group(2) == "[]" else int(m.group(2))
    return CuadDate(year, month, day)


def _fold(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


def name_matches(expected: str, found: str | None) -> bool:
    return bool(found) and fuzz.ratio(_fold(expected), _fold(found or "")) >= NAME_MATCH


def cuad_parties(answer: str) -> list[str]:
    """The parties' names of a CUAD answer: 'Birch First Global Investments Inc. ("Company");
    Mount Kowledge Holdings Inc. ("Marketing Affiliate", "MA")' -> the two names."""
    names = [re.sub(r"\(.*?\)|\(.*$", "", p).strip(" ,;") for p in party_entries(answer or "")]
    return [n for n in names if n]


def party_entries(answer: str) -> list[str]:
    """CUAD's entries, split at the semicolons that stand outside parentheses and brackets
    ('Acme Ltd ("Acme"), solely for purposes of Section 1(c) [Confidentiality; Non-solicitation]'
    is one entry); an answer set in parentheses as a whole is read inside them."""
    answer = answer.strip()
    if answer.startswith("(") and answer.endswith(")") and _depths(answer[1:-1])[-1:] in ([], [0]):
        answer = answer[1:-1]
    out, start = [], 0
    for i, (ch, depth) in enumerate(zip(answer, _depths(answer), strict=True)):
        if ch == ";" and depth == 0:
            out.append(answer[start:i])
            start = i + 1
    return [*out, answer[start:]]


def _depths(text: str) -> list[int]:
    """How deep in parentheses and brackets each character of `text` stands (never below 0)."""
    depth, out = 0, []
    for ch in text:
        depth = max(0, depth + (ch in "([") - (ch in ")]"))
        out.append(depth)
    return out


# Where an entry naming the parties together parts them: "Lender, Endorser and Fitness" (a
# company form after a comma belongs to its name: "Acme, Inc.").
_TOGETHER = re.compile(r"\s+and\s+|,\s+(?!(?i:inc|llc|ltd|l\.?p|corp|co|n\.a|s\.a)\b)")


def named_parties(answer: str) -> list[str]:
    """The parties' names of a CUAD answer, without its entries that name no one party: a
    blank ("[ ]", "[*]"), a role or a sentence ("an individual", 'each a "Party"'), the parties
    together ("Acme and Beta", "Lender, Endorser and Fitness", where each is named in the
    answer on its own)."""
    entries = party_entries(answer)
    out = []
    for i, cleaned in enumerate(cuad_parties(e) for e in entries):
        if not cleaned:
            continue
        name = cleaned[0]
        others = " ".join(e for j, e in enumerate(entries) if j != i)
        sides = [x.strip(" ,") for x in _TOGETHER.split(name)]
        together = len(sides) > 1 and all(x and x.casefold() in others.casefold() for x in sides)
        if re.fullmatch(r"[\W_]*", name) or not name[0].isupper() and not name[0].isdigit():
            continue
        if together or re.search(r"[\"“”]", name):
            continue
        out.append(name)
    return out


def parties_match(expected: list[str], found: list[str]) -> bool:
    """Every party CUAD names is among the names raag found (fuzzy, case folded)."""
    folded = [_fold(f) for f in found]
    return bool(expected) and all(
        any(fuzz.partial_ratio(_fold(e), f) >= PARTY_MATCH for f in folded) for e in expected
    )


def load_labels(path: Path) -> dict[str, dict]:
    """labels.jsonl by contract file name."""
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line)
    return {r["file"]: r for r in rows}
