"""Date phrases: effective dates ("effective from January 1, 2024") and the periods a rule
applies to ("purchases between 2000-2005", "leave taken between 2021 and 2023"). Each form is
a rule of graph.rules; every edge date_edges makes carries the id of the form that found it."""

import calendar
import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from raag_assets.core.model import DocInfo, Edge, EffectiveDate, SectionInfo
from raag_assets.graph.lexicon import (
    DATE,
    MONTH,
    MONTH_NUMBERS,
    ORDINAL_WORDS,
    UPPER,
    YEAR,
    words_to_int,
)
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
        if OTHER_DOCUMENT_DATED.search(text[max(0, m.start() - OTHER_DOCUMENT_CHARS) : m.start()]):
            continue  # "the original Supply Contract, made effective on ...": another's date
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


# --- the document's own dates: its effective date and the date it is dated ------------------

# A date as contracts and policies state it, with its precision: a day ("January 30, 2000",
# "31 December, 1996", "the 5th day of December 2008", "2024-01-31", "9/27/2018"), a month
# ("March 2003", "November ___, 2006", "[ ] day of May, 2014": a blank day is no day) or only
# a year when day and month were left blank for signing ("[•], 2020", ", 2012",
# "this ___ day of _______, 2004").
_ORD = r"(?:st|nd|rd|th|s\s?t|n\s?d|r\s?d|t\s?h)?"  # "15th", as filings break it: "15t h"
_WEEKDAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s*,?\s+)"
_BLANK = r"(?:\[[^\]\n]{0,12}\]|_{1,40}|\*{1,5}|•)"
_DAY_DATE = (
    rf"\b(?P<day>{MONTH}\.?\s+\d{{1,2}}{_ORD}\s*,?\s+\d{{4}}"
    rf"|\d{{1,2}}{_ORD}\s+(?:day\s+of\s+|of\s+)?{_WEEKDAY}?{MONTH}\.?\s*,?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2}"
    r"|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2}(?![/\d]))"
    # day first with dots, as contracts drafted in Europe or Asia date them: "01.03.2003"
    r"|(?<![\d.])\d{1,2}\.\d{1,2}\.(?:19|20)\d{2}(?![\d.]))"
)
_MONTH_DATE = (
    rf"(?P<month>(?:{_BLANK}\s*)?(?:\bday\s+of\s+)?\b{MONTH}\b\.?\s*(?:{_BLANK}\s*)?,?\s+{YEAR})"
)
_BLANK_DATE = (
    rf"(?P<blank>(?:this\s+)?(?:(?:{_BLANK}\s*)?(?:day\s+of\s+)?{_BLANK}\s*,?|(?:day\s+of\s+)?,)"
    rf"\s*(?P<year>{YEAR}))"
)
_ANY_DATE = rf"(?:{_DAY_DATE}|{_MONTH_DATE}|{_BLANK_DATE})"
# A date with dashes, as a form's field or a hand gives it ("04-01-06", "3-31-16"): month
# first, as US filings write it; read only where a label says it is a date.
_DASHED = r"(?P<dashed>\b\d{1,2}-\d{1,2}-(?:\d{4}|\d{2})\b)"
# Two dates, as CUAD's annotators read a contract: the date it takes effect (Effective Date)
# and the date it is dated, made or entered into (Agreement Date). The effective date is the
# one the text names as its Effective Date, else an "effective as of" or a commencement of its
# term; the agreement date the first drafting phrase that dates it, else a version line, else
# a date standing in its title block. graph/documents.py makes the effective_on edge.
NAMED_EFFECTIVE = rule(
    "date.named_effective_date",
    "date",
    "the date a document names as its Effective Date: 'Effective Date: 1 May 2024', "
    "'the Effective Date of this Agreement shall be'",
    pattern=(
        r"\beffective\s+date[\"”']?(?:(?:\s+(?:of|for)\s+this\s+(?:[\w-]+\s+){0,3}?\w+)?"
        # 'with an effective date of March 1, 2003': "of" before the date itself
        r"\s*(?:[:\-–—]|is|shall\s+be|will\s+be|means|(?P<of>of)(?=\s+(?:the\s+)?\w))?\s*:?"
        # or defined as an event, the date it fell on given in the same sentence: '"Effective
        # Date" shall mean the date of installation, i.e. June 1, 2004'
        r"|\s+(?:shall\s+)?means?\b(?:[^.;]|\b(?:i\.e|e\.g)\.){0,100}?"
        r"(?:,\s*|\bi\.e\.,?\s*|\bnamely\s+|\bbeing\s+))"
        rf"\s*(?:the\s+|on\s+)?{_ANY_DATE}"
    ),
    flags=re.IGNORECASE,
    examples=(
        "Effective Date: 1 May 2024",
        "The effective date is March 2023.",
        "the Effective Date of this Lease shall be June 2, 2021",
        "THE EFFECTIVE DATE OF THIS RESELLER AGREEMENT SHALL BE: Sept 29, 2004",
        "EFFECTIVE DATE shall mean the date of installation of the system, i.e. June 1, 2004.",
        "This Agreement, with an effective date of March 1, 2003, is between",
    ),
    counter=(
        "The effective date is stated below.",
        '"Effective Date" means the Closing Date',
        '"Effective Date" means the date this Agreement is signed. On June 1, 2004 the',
    ),
)
DEFINED_EFFECTIVE = rule(
    "date.defined_effective_date",
    "date",
    "a date defined as the Effective Date or the Commencement Date: "
    "'June 1, 2024 (the \"Effective Date\")'",
    pattern=(
        rf"{_ANY_DATE}\s*,?\s*\(\s*(?:the\s+|this\s+)?[\"“”']?"
        r"(?:effective|commencement)\s+date\b"
    ),
    flags=re.IGNORECASE,
    examples=(
        'made on June 1, 2024 (the "Effective Date")',
        "begins on 1 March 2020 (the Commencement Date)",
    ),
    counter=('made on June 1, 2024 (the "Start Date")',),
)
EFFECTIVE_PHRASE = rule(
    "date.effective_phrase",
    "date",
    "a phrase that says when a document takes effect: effective as of / from / on, made "
    "effective, shall become effective on, with effect from, takes effect on",
    pattern=(
        r"\b(?:(?:is\s+|are\s+|becomes?\s+|become\s+|shall\s+be(?:come)?\s+|will\s+be(?:come)?\s+"
        r"|made\s+)?effective(?:\s+(?:as\s+(?:of|from)|from|on|beginning))?"
        r"|with\s+effect\s+from|takes?\s+effect\s+(?:on|from|as\s+of))"
        rf"\s+(?:the\s+|this\s+)?(?:day\s+of\s+)?{_ANY_DATE}"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This Agreement shall become effective on March 1, 2021.",
        "This agreement is made effective as of the 31st day of March, 2000.",
    ),
    counter=("This Agreement is effective as of the date first written above.",),
)
TERM_COMMENCES = rule(
    "date.term_commences",
    "date",
    "the document or its term commences on a date: 'This Agreement shall commence on', 'the "
    "Term will begin on', '\"Commencement Date\" means'",
    pattern=(
        r"(?:(?:\b(?:this|the)\s+(?:\w+\s+){0,2}?(?:agreement|contract|lease|amendment)"
        r"(?:\s*\([^()]{0,40}\))?,?"  # its short name: 'This Agreement ("Agreement") commences'
        r"|\bthe\s+(?:initial\s+)?term\b[^.;()]{0,60}?(?:\s*\([^)]{0,40}\))?"
        r"|\b(?:the|your|his|her)\s+(?:employment|appointment|engagement)\b[^.;()]{0,40}?"
        r"|\bthe\s+(?:joint\s+venture|partnership)"
        r"|\(\s*the\s+[\"“]?(?:initial\s+)?term[\"”]?\s*\))"
        r"\s+(?:shall\s+|will\s+)?(?:commenc(?:e|es|ing)|begin(?:s|ning)?|start(?:s|ing)?)"
        r"\s+(?:on|upon|as\s+of|from)"
        r"|\b(?:commencement|start(?:ing)?)\s+date[\"”']?(?:\s+(?:of|for)\s+[\w\s]{1,50}?)?\s*"
        r"(?:[:\-–—]|means:?|is|(?:shall|will)\s+be)"
        # a form's field: 'Contract start: 04-01-06', 'Start Date: 1/5/2020'
        r"|\b(?:contract|agreement|term)\s+start\s*:)"
        rf"\s*(?:the\s+)?(?:{_ANY_DATE}|{_DASHED})"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This Agreement shall commence on January 20, 2014 and continue",
        'The term of this Agreement (the "Term") will begin on February 1, 1998',
        "The Appointment will begin on 27 January 2020",
        "The term of this Agreement shall be three years commencing on June 1, 2001",
        "The Joint Venture shall commence on the 1st of March, 2003",
        "Contract start: 04-01-06",
        "Start Date: June 1, 2020",
        'This Supply Agreement ("Agreement") commences on March 1, 2003.',
    ),
    counter=(
        "The Services shall commence on January 20, 2014.",
        "Delivery start: 04-01-06",
        "The partnership agreement signed on March 1, 2003",
    ),
)
DATING_PHRASE = rule(
    "date.dating_phrase",
    "date",
    "a drafting phrase that dates a document: dated as of, made as of, entered into on, "
    "executed on, 'made this 8th day of May 2014'",
    pattern=(
        r"\b(?:dated(?:\s+for\s+(?:reference|identification)(?:\s+purposes)?(?:\s+only)?)?"
        # "concluded": as contracts drafted outside the US say it
        r"|(?:made|entered(?:\s+into)?|executed|signed|concluded)"
        r"(?:\s+(?:and|or|into|is|effective|in|to|effect))*"
        r"|execute[sd]?\s+this\s+(?:[\w-]+\s+){0,4}?(?:agreement|contract|amendment))\s*:?"
        r"(?:\s+(?:in|at)\s+[A-Z][\w-]+(?:\s+[A-Z][\w-]+)?(?=\s+on\b))?"
        r"(?:\s+(?:as\s+of|as|on|at|this|the|of|day))*"
        rf"\s+{_ANY_DATE}"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This lease is dated as of the 5th day of May 2021.",
        "This agreement is made and entered into as of January 2, 2022.",
        "THIS AGREEMENT is made this [ ] day of May, 2014",
        "Dated: July 6, 2020",
        "THIS AGREEMENT, dated for reference purposes as of July 12, 1999,",
        "This Agreement has been concluded on 1 March 2003 between",
    ),
    counter=("This lease is dated and signed below.", "Made in Ohio on the first of May."),
)
# The general form of a dating phrase in a preamble: "as of" and a date, whatever verb (or
# none) stands before it ('As of March 1, 2003, Acme and Beta agree', 'This Agreement, as of
# 1 March 2003, between'); read in the opening only, after the drafting phrases.
AS_OF_OPENING = rule(
    "date.as_of_opening",
    "date",
    "'as of' and a date opening a sentence of a document's opening, or right after the "
    "document's own name, with no drafting verb: 'As of March 1, 2003, Acme and Beta agree', "
    "'This Agreement, as of 1 March 2003, between'",
    # not any "as of" (deposits "as of February 28, 2013", statements "as of December 31")
    pattern=(
        r"(?:^|[.;:]\s*|\b(?:agreement|contract|lease|amendment|addendum)"
        r"(?:\s*\([^()]{0,40}\))?\s*,?\s*)"
        rf"\bas\s+(?:of|at)\s+(?:the\s+)?(?:day\s+of\s+)?{_ANY_DATE}"
    ),
    flags=re.IGNORECASE,
    examples=("As of March 1, 2003, Acme and Beta agree as follows.",),
    counter=(
        "as of the date first written above",
        "to depositors of the Bank as of February 28, 2013",
    ),
)
# A dating phrase that dates another document: 'the Supply Agreement dated as of June 1, 2010',
# 'that certain Stock Purchase Agreement, dated November 14, 2018'.
OTHER_DOCUMENT_DATED = rule(
    "date.other_document_dated",
    "date",
    "before a dating phrase, the name of another document ('the Supply Agreement', 'that "
    "certain Lease'): the date is that document's, not this one's",
    pattern=(
        r"\b(?:the|that\s+certain|said|an?|such|its|their|prior|original)\s+"
        r"(?:[\w&-]+\s+){0,10}?(?:agreement|contract|lease|licen[cs]e|amendment|plan|note|letter"
        r"|indenture|notice|order|deed)s?\s*(?:\([^)]{0,60}\)\s*)?,?\s*"
        # its parties may stand between its name and its date: 'the Supply Agreement between
        # Acme Inc. and Beta LLC dated as of', 'the Master Agreement entered into by and
        # between Acme and Beta, dated as of', 'the original Contract, made effective on'
        r"(?:(?:entered\s+into|made|executed)\s+)?"
        r"(?:(?:by\s+and\s+)?(?:between|among)\s+(?:[^;()]|\([^()]{0,30}\)){1,120}?,?\s*)?"
        r"(?:as\s+amended\s*,?\s*)?"
        r"(?:made\s+)?$"
    ),
    flags=re.IGNORECASE,
    examples=(
        "under the Supply Agreement ",
        "that certain Stock Purchase Agreement, ",
        "that certain Consent to Assignment and Amendment of Use Agreement ",
        "the Supply Agreement between Acme Inc. and Beta LLC ",
        "that certain Lease by and between the Landlord and the Tenant, ",
        "the Master Agreement entered into by and between Acme (Asia) Ltd. and Beta Ltd., ",
        "the original Supply Contract, made ",
    ),
    counter=("This Supply Agreement ", "THIS AGREEMENT ", "This Agreement between Acme and Beta "),
)
OTHER_DOCUMENT_CHARS = 240  # the other document's name and its parties before its date
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
    examples=("March 2003", "Issued 4 July 2019", "November ___, 2006"),
    counter=("Issued in the spring",),
)
TITLE_NAME_DATE = rule(
    "date.title_name_date",
    "date",
    "a date right after the document's name in capitals, in its title block: 'AGENCY "
    "AGREEMENT May 14, 2014', 'AGENCY AGREEMENT , 2009'",
    pattern=(
        r"\b(?:AGREEMENT|CONTRACT|LEASE|AMENDMENT|ADDENDUM|LICEN[CS]E)\s*,?\s*"
        rf"(?i:(?:dated\s+(?:as\s+of\s+)?)?{_ANY_DATE})"
    ),
    examples=("AGENCY AGREEMENT May 14, 2014 Ladies and Gentlemen", "AGENCY AGREEMENT , 2009"),
    counter=("the Agency Agreement May 14, 2014",),
)
BLANK_DATE_LINE = rule(
    "date.blank_date_line",
    "date",
    "a date line left blank but for its year, standing alone in a title block: ', 2009'",
    pattern=rf"^\W*{_BLANK_DATE}\W*$",
    flags=re.IGNORECASE,
    examples=(", 2009", "____________, 1996"),
    counter=("Fiscal 2009",),
)
# A document that takes effect when its last party signs names no date in its text: the date
# is the last of those its signature block gives ("Date: 5/11/2016").
_LAST_SIGNATURE = (
    r"\b(?:(?:(?:last|latest|final)\s+|later\s+of\s+the\s+(?:two\s+|three\s+)?)"
    r"(?:dates?\s+(?:signed|of\s+signature|beneath|below)|signatures?|execution)\b"
    r"|date\s+of\s+(?:the\s+)?(?:last|final)\s+(?:signature|party)"
    r"|(?:last|final)\s+(?:party|signatory)\b[^.;]{0,40}?\b(?:sign|execut)"
    r"|date\s+last\s+(?:signed|written)"
    # or once every party has signed it: 'when signed by both Parties'
    r"|(?:when|upon|once)\s+(?:it\s+(?:is|has\s+been)\s+)?(?:duly\s+)?(?:signed|executed)\s+by\s+"
    r"(?:both|all|each\s+of\s+the)\s+(?:of\s+the\s+)?parties\b)"
)
EFFECTIVE_WHEN_SIGNED = rule(
    "date.effective_when_signed",
    "date",
    "a document that takes effect on its last signature: 'effective as of the last date signed "
    "below', 'the later of the two signature dates', '\"Effective Date\" means the date the last "
    "party hereto has executed this Agreement'",
    pattern=(
        rf"\beffective\b[^.;]{{0,80}}?{_LAST_SIGNATURE}"
        rf"|{_LAST_SIGNATURE}[^.;]{{0,40}}?\beffective\s+date\b"
    ),
    flags=re.IGNORECASE,
    examples=(
        'This Agreement is effective as of the last date signed below ("Effective Date").',
        "entered into and effective as of the later of the two signature dates below",
        '"Effective Date" shall mean the date the last party hereto has executed this Agreement.',
        "Effective Date shall be the date of the last signature on the last page.",
        'entered into as of the date last written below ("the Effective Date")',
        "This Agreement will be effective when signed by both Parties.",
    ),
    counter=(
        "This Agreement is effective as of the date first written above.",
        "payable within 30 days after the effective date of the last amendment",
    ),
)
# A date its signature block gives a signature: "Date: 13/07/05", "/s/ G. Roe 5/17/12",
# "(signature) June 25, 2014".
SIGNATURE_DATE = rule(
    "date.signature_date",
    "date",
    "a full date in the signature block, labelled or not: 'Date: 5/11/2016', '/s/ G. Roe "
    "5/17/12', 'Dated: May 11, 2016'",
    # a signature's date may be written with dashes, as it is by hand: "3-31-16"
    # and a signature dated but for its day ('April ____, 2003') dates it to the month
    pattern=(
        rf"(?:\bdated?\s*:*\s*)?{_DAY_DATE}|(?:\bdated?\s*:*\s*|(?<![a-z]:\s)(?<![a-z]:)){_DASHED}"
        rf"|(?P<month>\b{MONTH}\.?\s*{_BLANK}\s*,?\s*{YEAR})"
    ),
    flags=re.IGNORECASE,
    examples=(
        "Signature /s/ A. Zhang Date 13/07/05",
        "/s/ G. Roe 5/17/12",
        "Dated: May 11, 2016",
        "Date: 3-31-16",
        "Date: Date: 3-29-2016 3-31-16",
        "Rockaway, April ____, 2003",
    ),
    # a dashed date after another field's label is that field's ('Contract end: 04-01-08')
    counter=(
        "Date: ____________",
        "the date of this Agreement",
        "Tel. 555-123-4567",
        "end: 4-1-08",
    ),
)
# Where the signatures begin: "IN WITNESS WHEREOF", else the first signature line ("/s/",
# "Authorized Signature", "(signature)").
SIGNATURE_BLOCK = re.compile(r"\bIN\s+WITNESS\s+WHEREOF\b", re.IGNORECASE)
SIGNATURE_LINE = re.compile(
    r"/s/|\bauthori[sz]ed\s+signature|\(\s*signature\s*\)|\bsignature\s*:", re.IGNORECASE
)
SIGNATURE_BLOCK_CHARS = 3_000  # a signature block's names, titles and dates
_ART = re.compile(r"\s+[-=]{3,}(?=\s|$)")
HEAD_CHARS = 12_000  # the date that dates a document is stated near its beginning
TAIL_CHARS = 8_000  # or in its closing words, before the signatures
OPENING_CHARS = 3_000  # its opening paragraph: "effective as of" there is the document's own
TITLE_LINES = 12  # a bare date in these first lines dates the document (an RFC header)
TITLE_LINE_CHARS = 120  # when the line is that short, and no sentence
TITLE_LINE_WORDS = 8
# Before an "effective" or commencement phrase past the opening, the document as its subject.
_OWN_SUBJECT = re.compile(
    r"\b(?:this|the)\s+(?:[\w-]+\s+){0,4}?(?:agreement|contract|lease|amendment|addendum"
    r"|licen[cs]e|policy|term)\b[^.;]{0,120}$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DocumentDates:
    """The dates a document states for itself: when it takes effect, when it is dated."""

    effective: EffectiveDate | None  # as the text names it (Effective Date, effective as of)
    agreement: EffectiveDate | None  # the date it is dated, made or entered into

    @property
    def one(self) -> EffectiveDate | None:
        """The document's one effective date: the stated one, else the date it bears."""
        return self.effective or self.agreement


def _head(lines: list[str]) -> str:
    return re.sub(r"\s+", " ", _ART.sub(" ", " ".join(t for t in lines if t)))[:HEAD_CHARS]


def document_dates(lines: list[str]) -> DocumentDates:
    """The effective date and the agreement date a document states in its opening text; past
    it, a sentence whose subject is the document ("This Agreement shall be effective as of
    ..."); else its closing words ('This Agreement is dated ...', 'Signed and effective this
    ...', 'IN WITNESS WHEREOF, ... execute this Agreement as of ...'). A document that states
    no date it is dated bears the date its last party signed it (its signature block)."""
    text = re.sub(r"\s+", " ", _ART.sub(" ", " ".join(t for t in lines if t)))
    found = _stated_dates(lines, text)
    if found.agreement is None and (signed := _last_signature_date(text, "agreement")):
        found = DocumentDates(found.effective, signed)
    return found


def _stated_dates(lines: list[str], text: str) -> DocumentDates:
    head = _head(lines)
    found = DocumentDates(_stated_effective(head), _agreement_date(head, lines))
    if found.effective is None and EFFECTIVE_WHEN_SIGNED.search(text):
        found = DocumentDates(_last_signature_date(text, "effective"), found.agreement)
    if len(head) < HEAD_CHARS:
        return found
    if found.effective is None:
        for m in EFFECTIVE_PHRASE.finditer(text, HEAD_CHARS):
            if DOCUMENT_TAKES_EFFECT.search(text[max(0, m.start() - 400) : m.start()]):
                found = DocumentDates(_dated(m, "effective"), found.agreement)
                break
    if found.one:
        return found
    tail = text[-TAIL_CHARS:]
    return DocumentDates(
        _own_date(tail, EFFECTIVE_PHRASE, "effective"), _own_date(tail, DATING_PHRASE, "agreement")
    )


# Past the opening, the document itself as the subject of "effective": "This Agreement shall
# be effective as of", "this letter agreement will be effective".
DOCUMENT_TAKES_EFFECT = rule(
    "date.document_takes_effect",
    "date",
    "before an 'effective' phrase past a document's opening, the document as its subject: "
    "'This Agreement ', 'this letter agreement '",
    pattern=(
        r"\bthis\s+(?:[\w-]+\s+){0,3}?(?:agreement|contract|amendment|lease|addendum)\s+"
        r"(?:(?:shall|will|is|becomes?|has\s+been)\s+)?(?:be\s+|become\s+|made\s+)?$"
        # or "It" opening the sentence after one whose subject is the document ('This
        # contract replaces ... It shall be effective on')
        r"|\bthis\s+(?:[\w-]+\s+){0,3}?(?:agreement|contract|amendment|lease|addendum)\b"
        r"[^.;]{0,300}[.;]\s+It\s+(?:(?:shall|will|is)\s+)?(?:be\s+|become\s+)?$"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This letter agreement ",
        "this Amendment shall ",
        "This contract replaces the former annex. It shall be ",
    ),
    counter=(
        "the Services ",
        "prices under the Agreement ",
        "The Services begin soon. It shall be ",
    ),
)


# In a document's closing words, a sentence about the document itself.
_OWN_SENTENCE = re.compile(
    r"\b(?:this|these)\s+(?:[\w-]+\s+){0,4}?(?:agreement|contract|amendment)\b"
    r"|\b(?:signed|executed)\s+and\s+effective\b",
    re.IGNORECASE,
)


def _own_date(text: str, form: Rule, kind: str) -> EffectiveDate | None:
    """A date the document's closing words give it: in a sentence about this document."""
    for m in form.finditer(text):
        sentence = re.split(r"[.;]\s", text[max(0, m.start() - 200) : m.end()])[-1]
        if _OWN_SENTENCE.search(sentence) and (found := _dated(m, kind)):
            return found
    return None


def _last_signature_date(text: str, kind: str) -> EffectiveDate | None:
    """The latest date beside a signature in the document's signature block: the date its
    last party signed it."""
    block = SIGNATURE_BLOCK.search(text) or SIGNATURE_LINE.search(text)
    if block is None:
        return None
    window = text[block.start() : block.start() + SIGNATURE_BLOCK_CHARS]
    dates = [d for m in SIGNATURE_DATE.finditer(window) if (d := _dated(m, kind))]
    return max(dates, key=lambda d: d.date, default=None)


def document_effective_date(lines: list[str]) -> EffectiveDate | None:
    """The effective date a document states for itself, from its opening text: a named
    Effective Date ("Effective Date: 1 May 2024", 'June 1, 2024 (the "Effective Date")'),
    else "effective as of" or the commencement of its term, else the date it is dated ("dated
    as of", "made as of", "entered into on", "the 5th day of"), else a version line ("Version
    3, 29 June 2007"), else a date standing alone in its first lines ("March 2003")."""
    return document_dates(lines).one


# Words every match of a form holds (its alternatives each spell one, IGNORECASE as the form
# is): a head without them is not scanned by the form, whose search starts with a date, or a
# subject, tried at every word. The two were four fifths of this search's time on `make
# bench`'s corpus; the same dates found.
_NEEDS = {
    DEFINED_EFFECTIVE.id: re.compile(r"(?:effective|commencement)\s+date", re.IGNORECASE),
    TERM_COMMENCES.id: re.compile(r"commenc|begin|start", re.IGNORECASE),
}


def _stated_effective(head: str) -> EffectiveDate | None:
    for form in (NAMED_EFFECTIVE, DEFINED_EFFECTIVE, EFFECTIVE_PHRASE, TERM_COMMENCES):
        need = _NEEDS.get(form.id)
        if need is not None and not need.search(head):
            continue
        for m in form.finditer(head):
            if form is EFFECTIVE_PHRASE and m.start() >= OPENING_CHARS:
                sentence = re.split(r"[.;]\s", head[max(0, m.start() - 200) : m.start()])[-1]
                if not _OWN_SUBJECT.search(sentence):
                    continue  # a clause's date ("prices effective from"), not the document's
            if form is NAMED_EFFECTIVE and m.group("of") and m.start() >= OPENING_CHARS:
                continue  # 'a Developer Agreement with an effective date of': another's
            if form is EFFECTIVE_PHRASE and OTHER_DOCUMENT_DATED.search(
                head[max(0, m.start() - OTHER_DOCUMENT_CHARS) : m.start()]
            ):
                continue
            if found := _dated(m, "effective"):
                return found
    return None


def _agreement_date(head: str, lines: list[str]) -> EffectiveDate | None:
    for form in (DATING_PHRASE, VERSION_LINE):
        for m in form.finditer(head):
            if form is DATING_PHRASE and OTHER_DOCUMENT_DATED.search(
                head[max(0, m.start() - OTHER_DOCUMENT_CHARS) : m.start()]
            ):
                continue  # "the Supply Agreement dated as of ...": another document's date
            if found := _dated(m, "agreement"):
                return found
    # a date a drafting phrase already gave (and set aside as another document's) is no new one
    drafted = {d.end() for d in DATING_PHRASE.finditer(head[:OPENING_CHARS])}
    for m in AS_OF_OPENING.finditer(head[:OPENING_CHARS]):
        before = head[max(0, m.start() - OTHER_DOCUMENT_CHARS) : m.start()]
        if m.end() in drafted or OTHER_DOCUMENT_DATED.search(before):
            continue
        if found := _dated(m, "agreement"):
            return found
    for m in TITLE_NAME_DATE.finditer(head[:OPENING_CHARS]):
        if found := _dated(m, "agreement"):
            return found
    return _title_block_date(lines)


def _title_block_date(lines: list[str]) -> EffectiveDate | None:
    """A date standing alone in the first lines ("May 14, 2014", ", 2009", "March 2003")."""
    for text in [t for t in lines if t][:TITLE_LINES]:
        if re.search(r"\b(?:effective|commenc)", text, re.IGNORECASE):
            continue  # the date it takes effect, not the one it bears
        for form in (TITLE_DATE, BLANK_DATE_LINE):
            for m in form.finditer(text):
                rest = len((text[: m.start()] + text[m.end() :]).split())
                if m.start() > 3 and (len(text) > TITLE_LINE_CHARS or rest > TITLE_LINE_WORDS):
                    continue  # a sentence, or a page flattened on one line, dates other things
                if found := _dated(m, "agreement"):
                    return found
    return None


def _dated(m: re.Match[str], kind: str) -> EffectiveDate | None:
    evidence = m.group(0).strip()
    groups = m.groupdict()
    if dashed := groups.get("dashed"):
        date = _day(dashed.replace("-", "/"))
        return EffectiveDate(date, evidence, "day", kind) if date else None
    if day := groups.get("day"):
        date = _day(day)
        return EffectiveDate(date, evidence, "day", kind) if date else None
    if month := groups.get("month"):
        name = re.search(rf"\b{MONTH}\b", month.replace("day of", " "), re.IGNORECASE)
        year = re.search(YEAR, month)
        if name is None or year is None:
            return None
        number = MONTH_NUMBERS[name.group(0).lower()]
        return EffectiveDate(dt.date(int(year.group(0)), number, 1), evidence, "month", kind)
    year_text = groups.get("year")
    if not year_text:
        return None
    return EffectiveDate(dt.date(int(year_text), 1, 1), evidence, "year", kind)


def _day(text: str) -> dt.date | None:
    if m := re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", text):
        try:  # "01.03.2003": day, month, year
            return dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
        except ValueError:
            return None
    if m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})", text):
        first, second, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if year < 100:  # "13/07/05": a signature block's short year
            year += 2000 if year < 50 else 1900
        # month first, as US filings write it, unless the first number cannot be a month
        month, day = (second, first) if first > 12 else (first, second)
        try:
            return dt.date(year, month, day)
        except ValueError:
            return None
    text = re.sub(r"\b(?:day\s+)?of\b", " ", text, flags=re.IGNORECASE)  # "1st of March"
    text = re.sub(_WEEKDAY, " ", text, flags=re.IGNORECASE)
    text = re.sub(r"(\d)\s?([stnrdh])\s([tdh])\b", r"\1\2\3", text)  # "15t h" -> "15th"
    return parse_date(re.sub(r"\s+", " ", text).replace(" ,", ","))


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
        rf"\b(?P<cue>prior\s+to|before|on\s+or\s+before|(?:no|not|in\s+no\s+event)\s+later\s+than|"
        rf"until|up\s+to\s+and\s+"
        rf"including|on\s+or\s+after|after|since|(?:beginning|commencing|starting)\s+(?:on|from)?)"
        # a deadline's hour and its time zone before the date: "no later than 5:00 p.m., New
        # York City time, on March 17, 2014", "no later than 5:00PM April 1, 2000"
        r"(?:\s+\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m\.?(?:,?\s+(?:[A-Z][\w.]*\s+){1,3}time)?,?"
        r"(?:\s+on)?)?"
        rf"\s+(?P<date>{DATE})"
    ),
    flags=re.IGNORECASE,
    examples=(
        "Orders placed on or after 1 July 2024 ship free.",
        "valid until May 31, 2026",
        "filed not later than 5:30 p.m., Eastern Time, on May 2, 2014",
        "payment received no later than 5:00PM April 1, 2000",
    ),
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
# A term bounded by two stated dates: "shall commence on January 1, 2010 and extend through
# December 31, 2010", "runs from 1 March 2010 to 28 February 2012". One period, in place of
# the open-ended limits its two halves would make apart.
_TERM_END_VERB = (
    r"(?:end(?:s|ing)?|expir(?:e|es|ing)|terminat(?:e|es|ing)|continu(?:e|es|ing)|"
    r"extend(?:s|ing)?|run(?:s|ning)?|remain(?:s|ing)?\s+in\s+(?:full\s+)?(?:force|effect))"
)
TERM_BOUNDS = rule(
    "applies_to.term_bounds",
    "date",
    "a term from one stated date to another: commences on <date> and ends / extends through / "
    "continues until <date>, from <date> to <date>",
    edge_type="applies_to",
    confidence=0.85,
    pattern=(
        r"\b(?:commenc(?:e|es|ed|ing)|begin(?:s|ning)?|start(?:s|ed|ing)?|from)\s+"
        rf"(?:on\s+|as\s+of\s+|from\s+)?(?P<a>{DATE})\s*,?\s+(?:and\s+)?(?:(?:shall|will)\s+)?"
        rf"(?:{_TERM_END_VERB}\s+)?(?:on|through|until|till|thru|to)\s+"
        rf"(?:and\s+including\s+)?(?P<b>{DATE})"
    ),
    flags=re.IGNORECASE,
    examples=(
        "The term shall commence on January 1, 2010 and extend through December 31, 2010.",
        "The licence runs from 1 March 2010 to 28 February 2012.",
        "Services begin on June 1, 2012 and end on May 31, 2014.",
    ),
    counter=("The Services begin on June 1, 2012 and are billed monthly.",),
)
# The stated date a term or a right ends on: "terminating on May 31, 2014", "this Agreement
# shall expire on December 31, 2025", "extend through December 31, 2010".
TERM_ENDS = rule(
    "applies_to.term_ends",
    "date",
    "the stated date a term ends: ending / expires / terminates on <date>, continues or "
    "extends through <date>",
    edge_type="applies_to",
    confidence=0.85,
    pattern=(
        r"\b(?:(?:end(?:s|ing)?|expir(?:e|es|ing)|terminat(?:e|es|ing))\s+on|"
        rf"(?:continu(?:e|es|ing)|extend(?:s|ing)?|run(?:s|ning)?)\s+through)\s+(?P<date>{DATE})"
    ),
    flags=re.IGNORECASE,
    examples=(
        "the Services Period terminating on May 31, 2014",
        "This Agreement shall expire on December 31, 2025.",
    ),
    counter=("Either party may terminate on thirty days' notice.",),
)
# A term of a stated length from the document's effective date (or a stated date): "for a
# period of five (5) years from the Effective Date", "a three (3) year period commencing on
# the Effective Date", "commencing on the Effective Date and ending twenty-four (24) months
# thereafter". The period runs from that date to the same day N years or months later, as
# readers compute it; with no effective date known, no period.


def _count_of(name: str) -> str:
    """A count as written: 'five (5)', '24', 'three'; named `name`."""
    return rf"(?P<{name}>[a-z]+(?:-[a-z]+)?\s*\(\d{{1,3}}\)|\d{{1,3}}|[a-z]+(?:-[a-z]+)?)"


def _date_of(name: str) -> str:
    """The date a term runs from: the effective date, the date of the document, or a date
    stated (named `name`)."""
    return (
        # not "the effective date of termination"
        r"(?:the\s+(?:effective\s+date(?!\s+of\s+(?!this\s+agreement\b))|date\s+(?:hereof|of\s+this\s+agreement|first\s+"
        rf"(?:set\s+forth|written)\s+above))|(?P<{name}>{DATE}))"
    )


# "the first anniversary": the ordinals a term counts its years by
_ORDINALS = {w: n for n, w in enumerate(ORDINAL_WORDS[:10], start=1)}
_FROM = r"(?:(?:commencing|beginning|starting)\s+(?:on|from|as\s+of)|from|following|after)"
TERM_LENGTH = rule(
    "applies_to.term_length",
    "date",
    "a term of a stated length from the effective date or a stated date: for a period of N "
    "years from the Effective Date, an N-year period commencing on, ending N months thereafter, "
    "expiring on the Nth anniversary of the Effective Date",
    edge_type="applies_to",
    confidence=0.75,
    pattern=(
        rf"\b(?:(?:a|the)\s+(?:period|term)\s+of\s+{_count_of('n1')}\s+(?P<u1>years?|months?)\s+"
        rf"{_FROM}\s+{_date_of('d1')}"
        # "each twelve-month period beginning on the Effective Date" is every year, not one
        rf"|(?<!\beach\s)(?<!\bevery\s){_count_of('n2')}[\s-]+(?P<u2>year|month)\s+(?:period|term)\s+{_FROM}\s+{_date_of('d2')}"
        rf"|{_FROM}\s+{_date_of('d3')}\s*,?\s+and\s+(?:ending|expiring|terminating)\s+"
        rf"{_count_of('n3')}\s+(?P<u3>years?|months?)\s+thereafter"
        # "shall expire upon the earlier of (i) the first anniversary of the Effective Date"
        r"|(?:until|through|(?:expir(?:e|es|ing)|end(?:s|ing)?|terminat(?:e|es|ing))\s+"
        r"(?:on|upon|at))\s+(?:the\s+earlier\s+of\s+(?:\(i\)\s+)?)?the\s+"
        rf"(?P<n4>{'|'.join(_ORDINALS)}|\d{{1,2}}(?:st|nd|rd|th))\s+anniversary\s+of\s+"
        rf"{_date_of('d4')}"
        # "shall commence on January 10, 2019 and continue for two (2) years", "... and shall
        # expire on the day that is twenty-four (24) months from that date"
        r"|(?:commenc(?:e|es|ing)|begin(?:s|ning)?|start(?:s|ing)?)\s+(?:on|as\s+of|from)\s+"
        rf"{_date_of('d5')}\s*,?\s+and\s+(?:shall\s+|will\s+)?(?:continu(?:e|es|ing)|"
        r"remain(?:s|ing)?\s+in\s+(?:full\s+)?(?:force|effect)(?:\s+and\s+effect)?|"
        r"expir(?:e|es|ing)|end(?:s|ing)?|terminat(?:e|es|ing)|run(?:s|ning)?)\s+(?:(?:in\s+)?(?:full\s+)?"
        r"(?:force|effect)\s+)?(?:for\s+(?:a\s+(?:period|term)\s+of\s+)?|on\s+the\s+day\s+"
        rf"that\s+is\s+){_count_of('n5')}\s+(?P<u5>years?|months?)\b)"
    ),
    flags=re.IGNORECASE,
    examples=(
        "The initial term shall be for a period of five (5) years from the Effective Date.",
        "for a three (3) year period commencing on the Effective Date",
        "the period commencing on the Effective Date and ending eighteen (18) months thereafter",
        "This Agreement shall expire upon the earlier of (i) the first anniversary of the "
        "Effective Date or (ii) the sale of all Shares.",
        "The Term shall commence on March 1, 2019 and continue for two (2) years.",
    ),
    counter=(
        "within a period of five (5) days after the notice",
        "Each twelve-month period beginning on the Effective Date is a Contract Year.",
    ),
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
    bounded: list[tuple[int, int]] = []
    for m in TERM_BOUNDS.finditer(text):
        a, b = parse_date(m.group("a")), parse_date(m.group("b"))
        if a and b and a <= b:
            bounded.append(m.span())
            yield CalendarLimit(m.start(), m.group(0), a, b, TERM_BOUNDS)
    for m in TERM_ENDS.finditer(text):
        date = parse_date(m.group("date"))
        if date and not _within(m.start(), bounded):
            yield CalendarLimit(m.start(), m.group(0), None, date, TERM_ENDS)
    for m in CALENDAR_LIMIT.finditer(text):
        if NOT_A_LIMIT.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        if _within(m.start(), bounded):
            continue  # one half of a term's two bounds
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


@dataclass(frozen=True)
class TermAnchors:
    """The dates a term's length counts from: the document's own date ('the date hereof',
    'the date first set forth above') and its Effective Date, known only where the
    document states one (not its signing date standing in for it: 'the Effective Date'
    may be a closing date the text never gives)."""

    dated: dt.date | None = None
    effective: dt.date | None = None


_STATES_EFFECTIVE = re.compile(r"\beffective\b", re.IGNORECASE)


def term_anchors(doc: DocInfo | None) -> TermAnchors:
    if doc is None or doc.effective_from is None:
        return TermAnchors()
    stated = bool(_STATES_EFFECTIVE.search(doc.effective_evidence or ""))
    return TermAnchors(doc.effective_from, doc.effective_from if stated else None)


def term_lengths(text: str, anchors: TermAnchors) -> Iterator[CalendarLimit]:
    """The periods a clause states by their length from a date (TERM_LENGTH): from the
    document's effective date or its own date, or the date stated."""
    for m in TERM_LENGTH.finditer(text):
        k = next(i for i in "12345" if m.group(f"n{i}"))  # the form that matched
        stated = m.group(f"d{k}")
        named = re.search(r"\beffective\s+date\b", m.group(0), re.IGNORECASE)
        start = parse_date(stated) if stated else anchors.effective if named else anchors.dated
        count = _count(m.group(f"n{k}"))
        unit = m.group(f"u{k}").lower() if k != "4" else "years"  # an anniversary
        if start is None or count is None:
            continue
        months = count * (12 if unit.startswith("year") else 1)
        yield CalendarLimit(m.start(), m.group(0), start, _months_later(start, months), TERM_LENGTH)


def _count(text: str) -> int | None:
    """'five (5)' -> 5, '24' -> 24, 'three' -> 3; None for another word."""
    if digits := re.search(r"\d{1,3}", text):
        return int(digits.group())
    word = text.strip().lower()
    return words_to_int(word) or _ORDINALS.get(word)


def _months_later(start: dt.date, months: int) -> dt.date:
    """The same day `months` later (the month's last day where it is shorter)."""
    years, month = divmod(start.month - 1 + months, 12)
    year = start.year + years
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(start.day, last))


def _within(at: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= at < b for a, b in spans)


def _limit(cue: str, date: dt.date) -> tuple[dt.date | None, dt.date | None]:
    """The (from, to) a cue makes of its date, None where the limit is open."""
    if cue in ("prior to", "before"):
        return None, date - dt.timedelta(days=1)
    if cue in ("on or before", "until", "up to and including") or cue.endswith("later than"):
        return None, date
    if cue == "after":
        return date + dt.timedelta(days=1), None
    return date, None


def date_edges(section: SectionInfo, anchors: TermAnchors | None = None) -> list[Edge]:
    """The dates of a section: when it takes effect, the periods and limits it states, and
    the periods it states by their length from its document's dates (`anchors`)."""
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
        for d in _limits(section.text, anchors or TermAnchors())
    ]


def _limits(text: str, anchors: TermAnchors) -> list[CalendarLimit]:
    """The calendar limits and the terms stated by their length; an open limit inside a
    term's words ('commencing on March 1, 2019 and continuing for two years') is that term's
    start, not a limit of its own."""
    terms = list(term_lengths(text, anchors))
    spans = [(t.start, t.start + len(t.text)) for t in terms]
    return [*(c for c in calendar_limits(text) if not _within(c.start, spans)), *terms]


# --- the document's own name ----------------------------------------------------------------

# What a document calls itself, as its first words state it: a title line ("MARKETING
# AFFILIATE AGREEMENT", "Strategic Alliance Agreement") after the filing header ("Exhibit
# 10.1"), or the name its opening sentence gives it ('This Cooperation Agreement (this
# "Agreement")'). Filing banners ("Source: ...") are gone by then (ingest/parsing.py).
_KIND_NOUN = (
    r"(?:agreement|contract|lease|licen[cs]e|amendment|addendum|deed|memorandum\s+of\s+"
    r"understanding|power\s+of\s+attorney|statement|guarant(?:y|ee)|indenture|charter|terms"
    r"|policy|undertaking|letter\s+of\s+intent|term\s+sheet|protocol)"
)
_NAME_WORD = (
    rf"(?:(?!This\b|THIS\b)[{UPPER}0-9][\w&@®'’./-]*,?|e-[\w-]+|and|of|for|to|the|in|on|de|&|-)"
)
# Words a legend or a sentence in capitals has and a name has not.
_NOT_A_NAME = (
    r"(?:THIS|THESE|HEREIN|HEREOF|HEREUNDER|SUCH|BEEN|HAVE|HAS|WILL|SHALL|OMITTED|PURSUANT"
    r"|TREATMENT|SECURITIES|COMMISSION|EXCEPT|BETWEEN|BY|IS|ARE|MADE|DATED|ENTERED|HERETO"
    r"|LISTED|IF|DISCLOSED|DISCLOSURE|HARM|REDACTED|REQUESTED|NOTE)"
)
# capitals of any Latin, Greek or Cyrillic letter: "ACCORD DE COOPÉRATION", "ZÜRICH WIDGETS"
_CAPS_WORD = rf"(?:(?!{_NOT_A_NAME}\b)[{UPPER}0-9][{UPPER}0-9&@®'’./-]*,?|&|-)"
_CAPS_NOUN = _KIND_NOUN.upper().replace(r"\S", r"\s")
TITLE_LINE = rule(
    "date.title_line",
    "document",
    "a document's name standing at the start of a line, in title case, ending in what the "
    "document is ('Supply Contract', 'e-business Hosting Agreement between A and B')",
    pattern=(
        rf"^(?P<name>(?:{_NAME_WORD}\s+){{0,12}}(?i:{_KIND_NOUN})"
        r"(?:\s+(?:\(.{1,40}?\)|No\.?\s*\d+|#\s*\d+|[IVX]+\b))?)"
        r"(?=\s|$|[.,:;])"
    ),
    examples=("Supply Contract", "Strategic Alliance Agreement between A and B"),
    counter=("the parties agree as follows", "this agreement is made"),
)
TITLE_CAPS = rule(
    "date.title_caps",
    "document",
    "a document's name in capitals, ending in what the document is: 'MARKETING AFFILIATE "
    "AGREEMENT', 'AMENDMENT NO. 3 TO THE DISTRIBUTOR AGREEMENT', 'LIMITED POWER OF ATTORNEY'",
    pattern=(
        rf"(?<![\w&-])(?P<name>(?:{_CAPS_WORD}\s+){{1,14}}{_CAPS_NOUN}"
        r"(?:\s+(?:\((?!BETWEEN)[^()\"“]{1,40}?\)|NO\.?\s*\d+|#\s*\d+|[IVX]+\b))?)"
        r"(?![\w&-])"
    ),
    examples=("Exhibit 10.1 MARKETING AFFILIATE AGREEMENT Between", "LIMITED POWER OF ATTORNEY"),
    counter=("Marketing Affiliate Agreement", "the AGREEMENT"),
)
SELF_NAME = rule(
    "date.self_name",
    "document",
    "the name a document's opening sentence gives it: 'This Cooperation Agreement (this "
    '"Agreement")\', \'THIS ENDORSEMENT AGREEMENT ("Agreement")\'',
    pattern=(
        rf"\b(?:This|THIS)\s+(?P<name>(?:{_NAME_WORD}\s+){{1,12}}?(?i:{_KIND_NOUN})"
        # a schedule or an order issued under an agreement names itself as such
        rf"(?:\s+No\.?\s*\d+)?|(?:{_NAME_WORD}\s+){{1,6}}?(?i:schedule|order))"
        r"\s*,?\s*(?:\(|is\b|dated\b|made\b|entered\b|by\b|between\b)"
    ),
    examples=(
        'This Cooperation Agreement (this "Agreement")',
        "THIS SUPPLY CONTRACT is made",
        "This Product License Schedule is issued pursuant to the Agreement",
    ),
    counter=('This Agreement ("Agreement") is made', "this agreement is made"),
)
# The filing header and legends before a title: "Exhibit 10.1", "EX-10.27", "Execution Copy".
FILING_HEADER = rule(
    "date.filing_header",
    "document",
    "a filing's header before the document's name: 'Exhibit 10.1', 'Execution Version', "
    "'(TRANSLATION)'",
    pattern=(
        r"^(?:(?:exhibit|ex-?|attachment|annex|appendix)\s*(?:[\w().-]*\d[\w().-]*|[A-Z]\b)\s*:?\s*"
        r"|(?:execution|conformed|final|confidential)\s+(?:copy|version)\s*"
        r"|(?:schedule|article|section)\s+[\dA-Z][\w.]*\s+"
        r"|\[?confidential[^\]]*?\]\s*|confidential\s+|\((?:translation|execution\s+copy)\)\s*"
        r"|\S*\d\S*\s+)+"
    ),
    flags=re.IGNORECASE,
    examples=("Exhibit 10.1 ", "EXHIBIT 99(k)(5) ", "Execution Version "),
    counter=("Exhibition Services Agreement",),
)
_COMPANY_PREFIX = re.compile(
    r"^\S.*?\s(?:inc|incorporated|corporation|corp|llc|l\.l\.c|ltd|limited|plc|n\.a|s\.a|ag|gmbh)"
    r"\b\.?,?\s+(?:d/?b/?a\s+\S+\s+)?(?=\S)|^(?:d/?b/?a|inc|corp|corporation|llc|ltd)\b\.?,?\s+"
    r"(?:d/?b/?a\s+\S+\s+)?(?=\S)",
    re.IGNORECASE,
)
_AGREEMENT_NAME = re.compile(
    r"(?i:agreement|contract|lease|licen[cs]e|amendment|addendum|understanding)(?:\s+No\.?\s*\d+)?$"
)
NAME_CHARS = 3_000  # the name stands this near the start
NAME_LINES = 8  # in these first lines
NAME_WORDS = 16


def document_name(lines: list[str], parties: Iterable[str] = ()) -> str | None:
    """The document's name as it states it near its start: its title (in capitals, or a line
    of its own), without the words the title adds before it (a party's name: "ACME INC.
    SUPPLY AGREEMENT" named 'This Supply Agreement'), else the name its opening sentence
    gives it."""
    texts = [FILING_HEADER.regex.sub("", t).strip() for t in lines if t]
    head = re.sub(r"\s+", " ", " ".join(texts))[:NAME_CHARS]
    self_named = next((m.group("name") for m in SELF_NAME.finditer(head)), None)
    title = _title(texts)
    if title is None and self_named is None:
        # a cover page, a long legend or a contents list before it: the first title further on
        title = _title(texts, NAME_LINES * 3, NAME_CHARS * 3)
        if title and not _AGREEMENT_NAME.search(title):
            title = None  # a heading ("PAYMENT TERMS"), not the name of an agreement
    if title is None:
        return self_named
    if self_named and title.casefold().endswith(" " + self_named.casefold()):
        shorter = title[len(title) - len(self_named) :]
        if _without_party(title, parties) == shorter or _COMPANY_PREFIX.match(title):
            return shorter  # the title adds a party's name before it
    return _without_party(title, parties)


_SENTENCE_BREAK = re.compile(r"(?:(?<=[a-z)]\.)|(?<=[A-Z]{2}\.))\s+(?=[A-Z])")


def _title(texts: list[str], lines: int = NAME_LINES, chars: int = NAME_CHARS) -> str | None:
    """The first title in the first lines: a run of capitals ending in what the document is
    (a legend's sentences left out), or a line of its own in title case."""
    at = 0
    for text in texts[:lines]:
        for m in TITLE_CAPS.finditer(text):
            name = re.split(rf"(?<=\S)[.:;]\s+(?=[{UPPER}]{{2}})", m.group("name"))[-1]
            name = FILING_HEADER.regex.sub("", name)
            name = re.sub(r"^(?:\S*\d\S*\s+|\([^)]*\)\s*)+", "", name).strip(" ,-")
            name = re.sub(r"^(.+?)\s+\1$", r"\1", name)  # a title set twice
            if len(name.split()) >= 2 and not re.match(_CAPS_NOUN + r"$", name):
                return name
        # the line, else a sentence of it after a legend ("... IF DISCLOSED. Execution
        # Version Network Build Agreement Between A And B")
        for piece in [text, *_SENTENCE_BREAK.split(text)[1:]]:
            piece = FILING_HEADER.regex.sub("", piece).strip()
            line = TITLE_LINE.search(piece)
            if line and _titled(line.group("name"), piece):
                return line.group("name").strip(" ,")
        at += len(text) + 1
        if at > chars:
            break
    return None


def _without_party(title: str, parties: Iterable[str]) -> str:
    """A title without a party's name before the name of the document ("AIRSOPURE FRANCHISE
    AGREEMENT" of the party "AIRSOPURE"; "ACME INC. SUPPLY AGREEMENT")."""
    if title.startswith(("FORM OF", "Form of")):
        return title
    shorter = _COMPANY_PREFIX.sub("", title) or title
    folded = shorter.casefold()
    names = [p.casefold().strip() for p in sorted(parties, key=len, reverse=True)]
    # a document's name ("the Non-Competition Agreement") the text gives is no party's
    names = [p for p in names if p and not re.search(rf"(?i:{_KIND_NOUN})$", p)]
    stripped = True
    while stripped:  # each party's name the title sets before it ("ACME - BETA SUPPLY ...")
        stripped = False
        for p in names:
            if folded.startswith(p + " ") and len(shorter[len(p) :].split()) >= 2:
                shorter = shorter[len(p) :].strip(" -,/&")
                folded, stripped = shorter.casefold(), True
                break
    return _COMPANY_PREFIX.sub("", shorter) or shorter


def _titled(name: str, line: str) -> bool:
    """A title line: short, of capitalised words, not a sentence."""
    words = name.split()
    if not 2 <= len(words) <= NAME_WORDS or words[0].lower() == "this":
        return False
    # "Contract No. 017" is no title, "License and Development Agreement" is one
    bare_kind = len(re.findall(rf"(?i:\b{_KIND_NOUN}\b)", name)) == 1
    if (bare_kind and re.match(rf"(?i:{_KIND_NOUN})\b", name)) or sum(
        w.isupper() for w in words[:-1]
    ) > 1:
        return False  # a line in capitals is TITLE_CAPS's
    capitalised = sum(1 for w in words if w[:1].isupper() or w[:1].isdigit())
    rest = line.strip()[len(name) :].strip()
    # the whole line, or the name before its parties or date: not a sentence's last words
    return capitalised >= len(words) - 2 and bool(
        not rest
        or re.match(r"(?i:between|by\b|among|dated|made|entered|this|[(\-–—:{\[\"“])", rest)
        # or before its date ('Supply Agreement July 2013') or what it is about ('Cooperation
        # Agreement of the Solar Project')
        or re.match(rf"(?i:{MONTH}\b|\d{{1,2}}\s+{MONTH}\b|(?:of|for|regarding)\s)", rest)
    )
