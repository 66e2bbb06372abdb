"""Date phrases: effective dates ("effective from January 1, 2024") and the periods a rule
applies to ("purchases between 2000-2005", "leave taken between 2021 and 2023")."""

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass

from raag_assets.core.model import Edge, EffectiveDate, SectionInfo
from raag_assets.graph.lexicon import DATE, MONTH, MONTH_NUMBERS, YEAR

_MONTHS = MONTH_NUMBERS
_MONTH = MONTH
_YEAR = YEAR

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


# --- the document's own effective date ------------------------------------------------------

_ORD = r"(?:st|nd|rd|th)?"
# A date as contracts and policies state it, with its precision: a day ("January 30, 2000",
# "31 December, 1996", "the 5th day of December 2008", "2024-01-31", "9/27/2018"), a month
# ("March 2003") or only a year when the day was left blank for signing ("[•], 2020", ", 2012").
_DAY_DATE = (
    rf"\b(?P<day>{DATE}"
    rf"|\d{{1,2}}{_ORD}\s+day\s+of\s+{_MONTH}\.?,?\s+\d{{4}}"
    r"|\d{1,2}/\d{1,2}/\d{4})"
)
_MONTH_DATE = rf"\b(?P<month>{_MONTH}\.?,?\s+{_YEAR})"
_BLANK_DATE = (
    r"(?P<blank>(?:this\s+)?(?:_+\s*)?(?:day\s+of\s+)?(?:\[[^\]]{0,12}\]|_+)?\s*,\s*"
    rf"(?P<year>{_YEAR}))"
)
_ANY_DATE = rf"(?:{_DAY_DATE}|{_MONTH_DATE}|{_BLANK_DATE})"
# Strongest first: a date the text names as its Effective Date, then the drafting phrases that
# date a document, then a version line, then a date standing in its title block.
_NAMED_EFFECTIVE = re.compile(
    rf"\beffective\s+date\s*(?:[:\-–—]|is|shall\s+be)\s*(?:the\s+)?{_ANY_DATE}", re.IGNORECASE
)
_DEFINED_EFFECTIVE = re.compile(
    rf"{_ANY_DATE}\s*\(\s*(?:the\s+|this\s+)?[\"“”']?effective\s+date\b", re.IGNORECASE
)
_DATING_PHRASE = re.compile(
    r"\b(?:(?:is\s+|are\s+|becomes?\s+|shall\s+be\s+|will\s+be\s+)?effective"
    r"(?:\s+(?:as\s+of|from|on|beginning))?"
    r"|dated(?:\s+for\s+reference)?(?:\s+(?:as\s+of|on))?"
    r"|(?:made|executed)(?:\s+and\s+entered\s+into)?\s+(?:as\s+of|on)"
    r"|entered\s+into(?:\s+(?:as\s+of|on|effective))+"
    r"|with\s+effect\s+from|takes?\s+effect\s+(?:on|from))"
    rf"\s+(?:the\s+|this\s+)?{_ANY_DATE}",
    re.IGNORECASE,
)
_VERSION_LINE = re.compile(
    rf"\b(?:version|revision|rev\.?|release)\s+[\w.]+\s*[,:(–—-]\s*(?:dated\s+)?"
    rf"(?:{_DAY_DATE}|{_MONTH_DATE})",
    re.IGNORECASE,
)
_TITLE_DATE = re.compile(rf"(?:{_DAY_DATE}|{_MONTH_DATE})", re.IGNORECASE)
_ART = re.compile(r"\s+[-=]{3,}(?=\s|$)")
HEAD_CHARS = 12_000  # the date that dates a document is stated near its beginning
TITLE_LINES = 12  # a bare date in these first lines dates the document (an RFC header)


def document_effective_date(lines: list[str]) -> EffectiveDate | None:
    """The effective date a document states for itself, from its opening text: a named
    Effective Date, else the first dating phrase ("effective as of", "dated as of", "made as
    of", "entered into on", "the 5th day of"), else a version line ("Version 3, 29 June
    2007"), else a date standing alone in its first lines ("March 2003")."""
    head = _ART.sub(" ", " ".join(t for t in lines if t))[:HEAD_CHARS]
    head = re.sub(r"\s+", " ", head)
    for pattern in (_NAMED_EFFECTIVE, _DEFINED_EFFECTIVE, _DATING_PHRASE, _VERSION_LINE):
        for m in pattern.finditer(head):
            found = _dated(m)
            if found:
                return found
    for text in [t for t in lines if t][:TITLE_LINES]:
        for m in _TITLE_DATE.finditer(text):
            found = _dated(m)
            if found:
                return found
    return None


def _dated(m: re.Match[str]) -> EffectiveDate | None:
    evidence = m.group(0).strip()
    if day := m.group("day"):
        date = _day(day)
        return EffectiveDate(date, evidence, "day") if date else None
    if month := m.group("month"):
        parts = re.findall(r"[A-Za-z]+|\d{4}", month)
        return EffectiveDate(
            dt.date(int(parts[-1]), _MONTHS[parts[0].lower()], 1), evidence, "month"
        )
    year = m.groupdict().get("year")
    return EffectiveDate(dt.date(int(year), 1, 1), evidence, "year") if year else None


def _day(text: str) -> dt.date | None:
    if m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text):
        try:
            return dt.date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
        except ValueError:
            return None
    text = re.sub(r"\bday\s+of\b", " ", text, flags=re.IGNORECASE)
    return parse_date(re.sub(r"\s+", " ", text))


# --- calendar limits of a rule (applies_to) --------------------------------------------------

# Open-ended limits: "prior to 28 March 2007" (to the day before), "on or before", "until",
# "on or after", "after", and whole years: "for the calendar year 1997".
_LIMIT = re.compile(
    rf"\b(?P<cue>prior\s+to|before|on\s+or\s+before|no\s+later\s+than|until|up\s+to\s+and\s+"
    rf"including|on\s+or\s+after|after|since|(?:beginning|commencing|starting)\s+(?:on|from)?)"
    rf"\s+(?P<date>{DATE})",
    re.IGNORECASE,
)
_WHOLE_YEAR = re.compile(
    rf"\b(?:(?:the\s+)?(?:calendar|fiscal|financial)\s+year|the\s+year)\s+(?P<year>{_YEAR})\b",
    re.IGNORECASE,
)
# A date that dates the document or an act, not a limit: "effective on or after", "made after".
_NOT_A_LIMIT = re.compile(
    r"\b(?:effective|effect|dated|made|executed|signed|entered\s+into)\s+(?:\w+\s+)?$", re.I
)


@dataclass(frozen=True)
class CalendarLimit:
    start: int
    text: str
    date_from: dt.date | None  # None: open at the start
    date_to: dt.date | None  # None: open at the end


def calendar_limits(text: str) -> Iterator[CalendarLimit]:
    """The calendar limits a clause states besides periods ("between 2020 and 2023", in
    find_dates): open-ended ones and whole years, as applies_to with an open end as None."""
    for m in _LIMIT.finditer(text):
        if _NOT_A_LIMIT.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        date = parse_date(m.group("date"))
        if date is None:
            continue
        cue = " ".join(m.group("cue").lower().split())
        if cue in ("prior to", "before"):
            start, end = None, date - dt.timedelta(days=1)
        elif cue in ("on or before", "no later than", "until", "up to and including"):
            start, end = None, date
        elif cue == "after":
            start, end = date + dt.timedelta(days=1), None
        else:
            start, end = date, None
        yield CalendarLimit(m.start(), m.group(0), start, end)
    for m in _WHOLE_YEAR.finditer(text):
        year = int(m.group("year"))
        yield CalendarLimit(m.start(), m.group(0), dt.date(year, 1, 1), dt.date(year, 12, 31))


def date_edges(section: SectionInfo) -> list[Edge]:
    return [
        Edge(
            d.kind,
            layer=1,
            src_doc_id=section.doc_id,
            src_section_id=section.section_id,
            matched_text=d.text,
            normalized_target=d.date_from.isoformat()
            + (f"/{d.date_to.isoformat()}" if d.date_to else ""),
            confidence=0.95,
            date_from=d.date_from,
            date_to=d.date_to,
            position=d.start,
        )
        for d in find_dates(section.text)
    ] + [
        Edge(
            "applies_to",
            layer=1,
            src_doc_id=section.doc_id,
            src_section_id=section.section_id,
            matched_text=d.text,
            normalized_target=f"{d.date_from or ''}/{d.date_to or ''}",
            confidence=0.85,
            date_from=d.date_from,
            date_to=d.date_to,
            position=d.start,
        )
        for d in calendar_limits(section.text)
    ]
