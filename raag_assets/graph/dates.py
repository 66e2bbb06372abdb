"""Date phrases: effective dates ("effective from January 1, 2024") and the periods a rule
applies to ("purchases between 2000-2005", "leave taken between 2021 and 2023"). Each form is
a rule of graph.rules; every edge date_edges makes carries the id of the form that found it."""

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from raag_assets.core.model import Edge, EffectiveDate, SectionInfo
from raag_assets.graph.lexicon import DATE, MONTH, MONTH_NUMBERS, YEAR
from raag_assets.graph.rules import Rule, rule

EFFECTIVE_FROM = rule(
    "effective_on.effective_from",
    "date",
    "a full date a clause takes effect on: effective from / as of, in force from, takes effect on",
    edge_type="effective_on",
    confidence=0.95,
    pattern=(
        rf"\b(?:(?:is|are|becomes?|shall\s+be|will\s+be)\s+)?(?:effective|in\s+effect|in\s+force)"
        rf"\s+(?:from|on|as\s+of|beginning)\s+(?P<date>{DATE})"
        rf"|\b(?:with\s+effect\s+from|takes?\s+effect\s+(?:on|from))\s+(?P<date2>{DATE})"
    ),
    flags=re.IGNORECASE,
    examples=(
        "The new rates are effective from 1 April 2025.",
        "This change takes effect on March 3, 2024.",
    ),
    counter=("The new rates are effective immediately.",),
)
PERIOD = rule(
    "applies_to.period",
    "date",
    "a period a rule applies to: between <year or date> and <year or date>, from <year> to <year>",
    edge_type="applies_to",
    confidence=0.95,
    pattern=(
        rf"\b(?P<what>(?:[A-Za-z-]+\s+){{0,3}}?)"
        rf"(?:between\s+(?P<a>{YEAR}|{DATE})\s*(?:-|–|—|and|to)\s*(?P<b>{YEAR}|{DATE})"
        rf"|from\s+(?P<c>{YEAR})\s*(?:to|until|through|-|–)\s*(?P<d>{YEAR}))\b"
    ),
    flags=re.IGNORECASE,
    examples=("Claims made between 2019 and 2021 are covered.", "leave taken from 2020 to 2022"),
    counter=("Claims made between Monday and Friday are covered.",),
)


@dataclass(frozen=True)
class DateMention:
    kind: str  # "effective_on" | "applies_to"
    start: int
    text: str
    date_from: dt.date
    date_to: dt.date | None
    rule: Rule = field(repr=False)  # the form that found it


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
        return dt.date(int(year), MONTH_NUMBERS[month], int(day))
    except (ValueError, KeyError, IndexError):
        return None


def _bound(text: str, end: bool) -> dt.date | None:
    if re.fullmatch(YEAR, text):
        return dt.date(int(text), 12, 31) if end else dt.date(int(text), 1, 1)
    return parse_date(text)


def find_dates(text: str) -> Iterator[DateMention]:
    for m in EFFECTIVE_FROM.finditer(text):
        date = parse_date(m.group("date") or m.group("date2"))
        if date:
            yield DateMention(
                "effective_on", m.start(), m.group(0).strip(), date, None, EFFECTIVE_FROM
            )
    for m in PERIOD.finditer(text):
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
                PERIOD,
            )


# --- the document's own effective date ------------------------------------------------------

_ORD = r"(?:st|nd|rd|th)?"
# A date as contracts and policies state it, with its precision: a day ("January 30, 2000",
# "31 December, 1996", "the 5th day of December 2008", "2024-01-31", "9/27/2018"), a month
# ("March 2003") or only a year when the day was left blank for signing ("[•], 2020", ", 2012").
_DAY_DATE = (
    rf"\b(?P<day>{DATE}"
    rf"|\d{{1,2}}{_ORD}\s+day\s+of\s+{MONTH}\.?,?\s+\d{{4}}"
    r"|\d{1,2}/\d{1,2}/\d{4})"
)
_MONTH_DATE = rf"\b(?P<month>{MONTH}\.?,?\s+{YEAR})"
_BLANK_DATE = (
    r"(?P<blank>(?:this\s+)?(?:_+\s*)?(?:day\s+of\s+)?(?:\[[^\]]{0,12}\]|_+)?\s*,\s*"
    rf"(?P<year>{YEAR}))"
)
_ANY_DATE = rf"(?:{_DAY_DATE}|{_MONTH_DATE}|{_BLANK_DATE})"
# Strongest first: a date the text names as its Effective Date, then the drafting phrases that
# date a document, then a version line, then a date standing in its title block. They find the
# document's effective_from; graph/documents.py makes its effective_on edge.
NAMED_EFFECTIVE = rule(
    "date.named_effective_date",
    "date",
    "the date a document names as its Effective Date: 'Effective Date: 1 May 2024'",
    pattern=rf"\beffective\s+date\s*(?:[:\-–—]|is|shall\s+be)\s*(?:the\s+)?{_ANY_DATE}",
    flags=re.IGNORECASE,
    examples=("Effective Date: 1 May 2024", "The effective date is March 2023."),
    counter=("The effective date is stated below.",),
)
DEFINED_EFFECTIVE = rule(
    "date.defined_effective_date",
    "date",
    "a date defined as the Effective Date: 'June 1, 2024 (the \"Effective Date\")'",
    pattern=rf"{_ANY_DATE}\s*\(\s*(?:the\s+|this\s+)?[\"“”']?effective\s+date\b",
    flags=re.IGNORECASE,
    examples=('made on June 1, 2024 (the "Effective Date")',),
    counter=('made on June 1, 2024 (the "Start Date")',),
)
DATING_PHRASE = rule(
    "date.dating_phrase",
    "date",
    "a drafting phrase that dates a document: effective as of, dated as of, made as of, "
    "entered into on, with effect from",
    pattern=(
        r"\b(?:(?:is\s+|are\s+|becomes?\s+|shall\s+be\s+|will\s+be\s+)?effective"
        r"(?:\s+(?:as\s+of|from|on|beginning))?"
        r"|dated(?:\s+for\s+reference)?(?:\s+(?:as\s+of|on))?"
        r"|(?:made|executed)(?:\s+and\s+entered\s+into)?\s+(?:as\s+of|on)"
        r"|entered\s+into(?:\s+(?:as\s+of|on|effective))+"
        r"|with\s+effect\s+from|takes?\s+effect\s+(?:on|from))"
        rf"\s+(?:the\s+|this\s+)?{_ANY_DATE}"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This lease is dated as of the 5th day of May 2021.",
        "This agreement is made and entered into as of January 2, 2022.",
    ),
    counter=("This lease is dated and signed below.",),
)
VERSION_LINE = rule(
    "date.version_line",
    "date",
    "a version line with its date: 'Version 2, 12 March 2020'",
    pattern=(
        rf"\b(?:version|revision|rev\.?|release)\s+[\w.]+\s*[,:(–—-]\s*(?:dated\s+)?"
        rf"(?:{_DAY_DATE}|{_MONTH_DATE})"
    ),
    flags=re.IGNORECASE,
    examples=("Version 2, 12 March 2020", "Revision 4.1 (June 2019)"),
    counter=("Version 2 of the handbook",),
)
TITLE_DATE = rule(
    "date.title_date",
    "date",
    "a date standing alone in a document's first lines (a title block)",
    pattern=rf"(?:{_DAY_DATE}|{_MONTH_DATE})",
    flags=re.IGNORECASE,
    examples=("March 2003", "Issued 4 July 2019"),
    counter=("Issued in the spring",),
)
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
    for form in (NAMED_EFFECTIVE, DEFINED_EFFECTIVE, DATING_PHRASE, VERSION_LINE):
        for m in form.finditer(head):
            found = _dated(m)
            if found:
                return found
    for text in [t for t in lines if t][:TITLE_LINES]:
        for m in TITLE_DATE.finditer(text):
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
            dt.date(int(parts[-1]), MONTH_NUMBERS[parts[0].lower()], 1), evidence, "month"
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
CALENDAR_LIMIT = rule(
    "applies_to.calendar_limit",
    "date",
    "an open-ended calendar limit: prior to / before / until / on or after / since <date>",
    edge_type="applies_to",
    confidence=0.85,
    pattern=(
        rf"\b(?P<cue>prior\s+to|before|on\s+or\s+before|no\s+later\s+than|until|up\s+to\s+and\s+"
        rf"including|on\s+or\s+after|after|since|(?:beginning|commencing|starting)\s+(?:on|from)?)"
        rf"\s+(?P<date>{DATE})"
    ),
    flags=re.IGNORECASE,
    examples=("Orders placed on or after 1 July 2024 ship free.", "valid until May 31, 2026"),
    counter=("Orders placed after lunch ship free.",),
)
WHOLE_YEAR = rule(
    "applies_to.whole_year",
    "date",
    "a whole year as a calendar limit: for the calendar / fiscal year <year>",
    edge_type="applies_to",
    confidence=0.85,
    pattern=(
        rf"\b(?:(?:the\s+)?(?:calendar|fiscal|financial)\s+year|the\s+year)\s+(?P<year>{YEAR})\b"
    ),
    flags=re.IGNORECASE,
    examples=("Fees for the fiscal year 2023 are due.",),
    counter=("Fees for each fiscal year are due.",),
)
# A date that dates the document or an act, not a limit: "effective on or after", "made after".
NOT_A_LIMIT = rule(
    "date.not_a_limit",
    "date",
    "before a limit's cue, a word that makes it the date of the document or an act "
    "('effective', 'made', 'signed'), not a limit",
    pattern=r"\b(?:effective|effect|dated|made|executed|signed|entered\s+into)\s+(?:\w+\s+)?$",
    flags=re.IGNORECASE,
    examples=("This agreement is effective ", "the contract was signed "),
    counter=("orders placed ",),
)


@dataclass(frozen=True)
class CalendarLimit:
    start: int
    text: str
    date_from: dt.date | None  # None: open at the start
    date_to: dt.date | None  # None: open at the end
    rule: Rule = field(repr=False)  # the form that found it


def calendar_limits(text: str) -> Iterator[CalendarLimit]:
    """The calendar limits a clause states besides periods ("between 2020 and 2023", in
    find_dates): open-ended ones and whole years, as applies_to with an open end as None."""
    for m in CALENDAR_LIMIT.finditer(text):
        if NOT_A_LIMIT.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        date = parse_date(m.group("date"))
        if date is None:
            continue
        start, end = _limit(" ".join(m.group("cue").lower().split()), date)
        yield CalendarLimit(m.start(), m.group(0), start, end, CALENDAR_LIMIT)
    for m in WHOLE_YEAR.finditer(text):
        year = int(m.group("year"))
        yield CalendarLimit(
            m.start(), m.group(0), dt.date(year, 1, 1), dt.date(year, 12, 31), WHOLE_YEAR
        )


def _limit(cue: str, date: dt.date) -> tuple[dt.date | None, dt.date | None]:
    """The (from, to) a cue makes of its date, None where the limit is open."""
    if cue in ("prior to", "before"):
        return None, date - dt.timedelta(days=1)
    if cue in ("on or before", "no later than", "until", "up to and including"):
        return None, date
    if cue == "after":
        return date + dt.timedelta(days=1), None
    return date, None


def date_edges(section: SectionInfo) -> list[Edge]:
    return [
        d.rule.edge(
            src_doc_id=section.doc_id,
            src_section_id=section.section_id,
            matched_text=d.text,
            normalized_target=d.date_from.isoformat()
            + (f"/{d.date_to.isoformat()}" if d.date_to else ""),
            date_from=d.date_from,
            date_to=d.date_to,
            position=d.start,
        )
        for d in find_dates(section.text)
    ] + [
        d.rule.edge(
            src_doc_id=section.doc_id,
            src_section_id=section.section_id,
            matched_text=d.text,
            normalized_target=f"{d.date_from or ''}/{d.date_to or ''}",
            date_from=d.date_from,
            date_to=d.date_to,
            position=d.start,
        )
        for d in calendar_limits(section.text)
    ]
