"""Date phrases: effective dates ("effective from January 1, 2024") and the periods a rule
applies to ("purchases between 2000-2005", "leave taken between 2021 and 2023")."""

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass

_MONTHS = {
    m: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for m in names
}
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
# A full date: "January 1, 2024", "1 January 2024", "2024-01-01".
DATE = (
    rf"(?:{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\.?,?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2})"
)
_YEAR = r"(?:19|20)\d{2}"

_EFFECTIVE = re.compile(
    rf"\b(?:(?:is|are|becomes?|shall\s+be|will\s+be)\s+)?(?:effective|in\s+effect|in\s+force)"
    rf"\s+(?:from|on|as\s+of|beginning)\s+(?P<date>{DATE})"
    rf"|\b(?:with\s+effect\s+from|takes?\s+effect\s+(?:on|from))\s+(?P<date2>{DATE})",
    re.IGNORECASE,
)
_PERIOD = re.compile(
    rf"\b(?P<what>(?:[A-Za-z-]+\s+){{0,3}}?)"
    rf"(?:between\s+(?P<a>{_YEAR}|{DATE})\s*(?:-|–|—|and|to)\s*(?P<b>{_YEAR}|{DATE})"
    rf"|from\s+(?P<c>{_YEAR})\s*(?:to|until|through|-|–)\s*(?P<d>{_YEAR}))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DateMention:
    kind: str  # "effective_on" | "applies_to"
    start: int
    text: str
    date_from: dt.date
    date_to: dt.date | None


def parse_date(text: str) -> dt.date | None:
    """A full date in one of the forms DATE accepts, else None."""
    text = text.strip().lower().replace(",", " ")
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return dt.date.fromisoformat(text)
        parts = [p.rstrip(".") for p in text.split()]
        if parts[0].isdigit() or re.fullmatch(r"\d{1,2}(st|nd|rd|th)", parts[0]):
            day, month, year = parts[0], parts[1], parts[2]
        else:
            month, day, year = parts[0], parts[1], parts[2]
        day = re.sub(r"(st|nd|rd|th)$", "", day)
        return dt.date(int(year), _MONTHS[month], int(day))
    except (ValueError, KeyError, IndexError):
        return None


def _bound(text: str, end: bool) -> dt.date | None:
    if re.fullmatch(_YEAR, text):
        return dt.date(int(text), 12, 31) if end else dt.date(int(text), 1, 1)
    return parse_date(text)


def find_dates(text: str) -> Iterator[DateMention]:
    for m in _EFFECTIVE.finditer(text):
        date = parse_date(m.group("date") or m.group("date2"))
        if date:
            yield DateMention("effective_on", m.start(), m.group(0).strip(), date, None)
    for m in _PERIOD.finditer(text):
        a, b = (m.group("a"), m.group("b")) if m.group("a") else (m.group("c"), m.group("d"))
        start, end = _bound(a, end=False), _bound(b, end=True)
        if start and end and start <= end:
            matched = m.group(0)[len(m.group("what")) :] if m.group("what") else m.group(0)
            what = m.group("what").strip()
            yield DateMention(
                "applies_to",
                m.start() + len(m.group(0)) - len(matched),
                f"{what} {matched}".strip(),
                start,
                end,
            )
