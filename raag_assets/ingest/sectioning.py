"""Deterministic section trees from layout lines.

Headings are recognised by numbering (1 / 1.1 / 1.1.1, "Section 4", "Article IV", "§ 3",
"Exhibit A"), by Markdown syntax, by underlines, by short title lines standing alone, and in
PDFs by font size or weight. A bare number only starts a section when it continues the
numbering so far (1.2 after 1.1, 2 after 1.14), so numbered lists inside a section and a
wrapped "section\\n7." stay body text; numbers run into a line (flattened filings) open
sections when they continue the outline exactly (ingest.outline). Each heading form and each
veto is a rule of kind "heading" in graph.rules' table; `heading_rules` names the rule behind
each heading found.
"""

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from rapidfuzz import fuzz

from raag_assets.core.identity import section_id
from raag_assets.core.model import FRONT_LABEL, Line, SectionInfo
from raag_assets.graph.lexicon import (
    DOC_NOUNS,
    MONTH_NAME,
    NUMBER_IN_WORDS,
    UNIT_NOUNS,
    words_to_int,
)
from raag_assets.graph.rules import rule
from raag_assets.ingest.normalize import (
    Item,
    join_lines,
    join_lines_mapped,
    line_offsets,
    sub_span,
)
from raag_assets.ingest.outline import (
    BARE_NUMBER,
    BARE_RUN_IN,
    SENTENCE_OPENERS,
    TIGHT_NUMBER,
    Key,
    ahead,
    cited_ahead,
    cited_labels,
    continues,
    follows,
    roman,
    run_in_cuts,
    second_child,
)
from raag_assets.ingest.outline import key as outline_key

# 3: N.0 labels, exhibit items, amendments, run-in headings, PDF title pages
# 4: the numbering read as an outline (numbers run into lines, untitled clauses, defined terms)
# 5: running page headers dropped, roman-numbered headings, titles run into their sentence
# 6: quoted attachment letters; the name after a banner, version line or legend in Title
# 7: a cited number run in a few numbers on, a second subsection whose first lost its number,
#    a bare number over a run-in title, a page number before a keyword heading
# 8: units cited in capitals or quoted open after page furniture; three-level schedules
# 9: an underlined heading with no text before its first sub-heading stays a section
# 10: plain-text standards: a title line over an indented block is an item (request blocks),
#    the next numbered heading right under the title block or a block's closing line ("]"),
#    "contents." and "Schedule a copy" in prose
# 11: PDFs with a table of contents: headings before it it does not list are the Title's, and
#    candidates it does not list, set no larger than listed headings, are items (not sections)
# 12: the first child of the outline's next number at any depth opens a section, at a line's
#    start or run in ("6.4.1" after "6.3", "8.1" after "7.2": that number's heading was lost)
# 13: a heading's title may join topics by semicolons ("Governing Law; Dispute Settlement") and
#    run to 80 characters before its first subsection ("7. Third Party ...; Cooperation 7.1")
# 14: a title line is no heading when it is an address (a postal code: heading.not_an_address)
#    or a list item's tail ("United Kingdom; or")
# 15: a bare run-in number's title may join topics by semicolons ("10 Governing Law; Venue
#    10.1"); inside sections said by their keyword, a list numbered from 1 stays text when its
#    items reach the outline's number ('4. "Permitted ..." means' in Section 4); a dotted
#    number a few on heads a section when the next one continues it ("3.5" after "3.2", then
#    "3.6"); an ARTICLE heading over its first subsection stays a section in a numbered text;
#    a page number before a dotted heading opening a page's line is furniture ("8 7.4 ...");
#    a dotted number run in one on ("5.6" after "5.4") when the next run-in number follows it
# 16: headings run into their first subsections at every depth ("3 Purchase 3.1 Packaging
#    3.1.1 The Buyer ..."); a dotted number a few on at a paragraph's start opens a section
#    when the number run into its paragraph follows it ("14.5 ... 14.6 ..."); the exhibit a
#    document was filed as ("EXHIBIT C" over "... FRANCHISE AGREEMENT") is part of its Title;
#    a party's name over its signatory's fields (By: ... Name: ... Title:) heads no section;
#    nor does a table's row standing alone (a registration number, a date in figures);
#    articles numbered in words and chapters are keyword headings ("Article One", "Chapter 3");
#    a numbered entry "1.1.1 PRC Laws: means ..." is titled by its term, its text the meaning;
#    a dotted number one on ending a line opens a section when the next paragraph follows it
# 17: a heading run into a line, and the rest of a heading line the body begins with, map
#    onto the raw text exactly (their lines' Shifts), not in proportion to the line
# 18: a PDF's numbers run into its lines open sections as plain text's do; a wrapped line
#    opening with the outline's next dotted number after a sentence's end opens its clause
# 19 (textforms36): a number run into a line after a list's "; and" / "; or", or before an
#    amount ("6.2.1 $*** upon ..."), opens its clause when it continues the outline
SECTIONER_VERSION = "19"
BODY_LABEL = "Body"

_BOX_EDGE = re.compile(r"^\*{3,}$")
_BOX_INNER = re.compile(r"^\*\s?(.*?)\s?\*$")

# The heading forms and the vetoes of ingest (kind "heading": they find sections, they make no
# edge), registered with the extraction rules; `heading_rules` names the one behind a heading.
FENCE = rule(
    "heading.not_in_code_fence",
    "heading",
    "a Markdown code fence: no line inside it is a heading",
    pattern=r"^(```|~~~)",
    examples=("```python", "~~~"),
    counter=("# Installation", "Use ``` to open a code block"),
)
UNDERLINED = rule(
    "heading.underlined",
    "heading",
    "an underline of dashes, equals signs or tildes: the line above it is a heading",
    pattern=r"^(?:-{3,}|={3,}|~{3,})$",
    examples=("======", "-----"),
    counter=("-- draft --", "= total"),
)
MARKDOWN = rule(
    "heading.markdown",
    "heading",
    "a Markdown heading: one to six hashes, the level",
    pattern=r"^(#{1,6})\s+(.+?)(?:\s+#+)?$",
    examples=("# Introduction", "### 2.1 Scope ###"),
    counter=("#hashtag", "Issue #42 is fixed"),
)
SECTION = rule(
    "heading.section",
    "heading",
    "a numbered section keyword: Section 4, Sect. 2.1, § 3",
    pattern=r"^(?:section|sect\.|§§?)\s*(\d{1,3}(?:\.\d{1,3})*[a-z]?)(\s*[.:)\-–—]|\s*$)?\s*(.*)$",
    flags=re.IGNORECASE,
    examples=("Section 4. Payment Terms", "§ 3 Definitions", "SECTION 2.1: Term"),
    counter=("The Section applies to all staff", "Sections of this policy"),
)
ARTICLE = rule(
    "heading.article",
    "heading",
    "an article, numbered in roman or arabic numerals: Article IV, ARTICLE 2",
    pattern=r"^article\s+([ivxlcdm]+|\d{1,3})\b\.?\s*[-–—:.]?\s*(.*)$",
    flags=re.IGNORECASE,
    examples=("Article IV - Termination", "ARTICLE 2. DEFINITIONS"),
    counter=("Article of incorporation", "This article explains the rules"),
)
# An article numbered in words ("ARTICLE ONE DEFINITION", "Article Eight") or a chapter, as
# translated contracts number their parts ("Chapter 3 Cooperation Term" over "3.1 ..."): a
# keyword heading like "Article IV" when a title or nothing follows its number; the label is
# the number as the text cites it ("Article Eight", "Chapter 3").
KEYWORD_PART = rule(
    "heading.article_in_words_or_chapter",
    "heading",
    "an article numbered in words, or a chapter: ARTICLE ONE DEFINITION, Chapter 3 Term",
    pattern=rf"^(?:(?P<kw>article)\s+(?P<words>{NUMBER_IN_WORDS})|(?P<ch>chapter)\s+"
    r"(?P<n>\d{1,3}|[ivxlc]{1,6}))\b\.?\s*[-–—:.]?\s*(?P<rest>.*)$",
    flags=re.IGNORECASE,
    examples=("ARTICLE ONE DEFINITION", "Article Twenty-One Notices", "Chapter 3 Cooperation Term"),
    counter=("Article of incorporation", "Chapters 3 and 4 apply", "Article 1 Scope"),
)


def _part_title(rest: str) -> bool:
    """What follows a KEYWORD_PART's number is a title or nothing, and no page number ends it
    (a PDF's running header "Chapter 3: Utilities 6")."""
    return not rest or (_is_title(_tidy(rest)) and not re.search(r"\s\d{1,4}$", rest))


# A top-level heading numbered in roman numerals without a keyword ("IV. EXPENSES", "VI -
# COMPLIANCE WITH LAWS"): its title
# in capitals ends the line, and like any bare number it is a heading only where the outline
# continues ("IV." after "III."); "I. When delivered, ..." is an item of a list.
ROMAN = rule(
    "heading.roman_title",
    "heading",
    "a roman numeral and a title in capitals on a line of their own: IV. EXPENSES (a heading "
    "where the outline continues)",
    pattern=r"^(?P<n>[IVXL]{1,6})(?:\.|\s+[-–—:])\s+(?P<title>[A-Z][A-Z0-9 ,;&'’/()-]{2,80}?)\.?$",
    examples=("IV. EXPENSES", "II. INDEPENDENT CONTRACTOR", "VI - COMPLIANCE WITH LAWS"),
    counter=("I. When delivered, the shares shall be issued", "IV. NOTICES. All notices shall"),
)
# "Exhibit 10.6" is a filing's exhibit number (an EDGAR banner), not an exhibit of the text;
# a schedule, annex, appendix or attachment may be numbered for the section that calls for it
# ("Schedule 1.1(e) - Assigned Patents", "Annex 4.2").
APPENDIX = rule(
    "heading.appendix",
    "heading",
    "an exhibit, appendix, annex, schedule or attachment with its letter or number",
    # a letter in lower case before a word in lower case is an article: "Schedule a copy of"
    pattern=r"^(exhibit|appendix|annex|schedule|attachment)\s+[\"“]?((?!(?-i:[a-z]\s+[a-z]))"
    r"[A-Z](?:-\d{1,2})?(?!\w)"
    r"|\d{1,2}(?!\w|\.\d)|(?<!exhibit )(?<!EXHIBIT )(?<!Exhibit )\d{1,2}\.\d{1,2}(?:\.\d{1,2})?"
    r"(?:\([a-z0-9]{1,3}\))?(?![\w.]))[\"”]?\.?\s*[-–—:.]?\s*(.*)$",
    flags=re.IGNORECASE,
    examples=(
        "Exhibit A - Pricing",
        "SCHEDULE 2: Fees",
        "Annex B",
        "Attachment 1",
        "Schedule 1.1(e) - Assigned Patents",
        'SCHEDULE "B" - DESCRIPTION OF SERVICES',
        "Schedule 2.3.2: Service Levels",
    ),
    counter=(
        "Exhibit 10.6",
        "Schedules are published weekly",
        "Exhibit Alpha",
        "Schedule a copy from one buffer to another.",
    ),
)
# The one appendix of a document, set in capitals ("APPENDIX: How to apply ...", "ANNEX",
# "ADDENDUM: How to use this License"): labelled by its keyword (GRAPH_GOLD: `Appendix`); in
# running text the word is not a heading.
UNLETTERED = rule(
    "heading.unlettered_appendix",
    "heading",
    "the one appendix of a document, its keyword in capitals without a letter",
    pattern=r"^(APPENDIX|ANNEX|ADDENDUM)(?:\s*:\s*(\S.*))?$"
    r"|^((?i:appendix|annex|addendum)):\s*([A-Z](?:[^.\s]*\s+){0,11}[^.\s]*)$",
    examples=(
        "APPENDIX",
        "ADDENDUM: How to use this License",
        "Appendix: How to Apply These Terms to Your New Programs",
    ),
    counter=(
        "Appendix",
        "See the APPENDIX below",
        "appendix: see below",
        "Annex: Prices are listed in the table below and apply from the Effective Date.",
    ),
)
# An exhibit named inside a sentence that wrapped onto a line of its own ("... in the initial
# / APPENDIX C shall be updated ..."): the words after its letter go on the sentence.
APPENDIX_IN_SENTENCE = rule(
    "heading.not_appendix_in_sentence",
    "heading",
    "an exhibit's name followed by the rest of a sentence: a citation, not a heading",
    pattern=r"^(?:[,;(]|(?:shall|will|may|must|is|are|was|were|has|have|hereto|attached|which|"
    r"that|as|and|or|of|in|for|sets|contains|herein|below|above|annexed)\b)",
    examples=("shall be updated accordingly", "attached hereto", ", which report"),
    counter=("Pricing", "to the Supply Agreement"),
)
NUMBERED = rule(
    "heading.numbered_title",
    "heading",
    "a numbered line: 1 / 1.1 / 1.1.1 and its title (a heading when the numbering continues)",
    pattern=r"^(\d{1,3}(?:\.\d{1,3})*)(\.?)\s+(\S.*)$",
    examples=("1. Introduction", "4.2 Payment Terms"),
    counter=("Introduction", "2013 was a good year"),
)
# A lettered appendix of a standard ("A. References", "A.1 Informative References"): a
# heading only when the document's table of contents lists its letter.
LETTERED = rule(
    "heading.lettered",
    "heading",
    "a lettered heading, A. / A.1, when the table of contents lists its letter",
    pattern=r"^([A-Z](?:\.\d{1,3})*)\.?\s+(\S.*)$",
    examples=("A. References", "B.1 Informative References"),
    counter=("References", "AB Testing"),
)
# A table of contents: its heading, and what its entries look like (a page number or dot
# leaders at the end, or several entries run together on one line).
CONTENTS = rule(
    "heading.contents",
    "heading",
    "the heading of a table of contents",
    # not the word ending a sentence that wrapped ("contents." / "contents of the box")
    pattern=r"^(?:table\s+of\s+contents|contents)\b(?!\s*[.,;]|\s+(?!page\b)(?-i:[a-z]))",
    flags=re.IGNORECASE,
    examples=("Table of Contents", "CONTENTS", "Contents page", "CONTENTS 1. Scope"),
    counter=("The contents of the box", "Summary", "contents.", "Contents of the box are"),
)
# Dot leaders may run straight into the page number ("A.1 Licence.........24") or be set
# spaced (". . . . 24").
CONTENTS_ENTRY = rule(
    "heading.contents_entry",
    "heading",
    "an entry of a table of contents: it ends in dot leaders or a page number",
    pattern=r"(?:(?:\.\s?){3,}\s*(?:\d{1,3}|[ivx]{1,5})?|\s(?:\d{1,3}|[ivx]{1,5}))$",
    flags=re.IGNORECASE,
    examples=("1. Definitions ........ 3", "Article IV Termination 12"),
    counter=("1. Definitions", "The term lasts two years"),
)
CONTENTS_RUN = rule(
    "heading.contents_run",
    "heading",
    "a page number then the next entry: entries of a table of contents run together",
    pattern=r"\s\d{1,3}\s+(?:article|section|schedule|exhibit|annex|\d{1,2}\.\d)",
    flags=re.IGNORECASE,
    examples=("Definitions 3 Article II Term 5", "Scope 4 2.1 Services"),
    counter=("Definitions 3", "pay within 30 days"),
)
CONTENTS_LABEL = rule(
    "heading.contents_label",
    "heading",
    "a label a table of contents lists: evidence that the numbered line is a heading",
    pattern=r"(?:^|\s\d{1,3}\s+)(?:(?P<kw>article|section|§)\s+(?P<kwnum>[ivxlcdm]+\b"
    r"|\d{1,3}(?:\.\d{1,3})*)|(?P<num>\d{1,3}(?:\.\d{1,3})*|[A-Z](?=\.?\s))\.?\s+[A-Z\[\"“(])",
    flags=re.IGNORECASE,
    examples=("Article IV Termination", "2.1 Services ..... 4"),
    counter=("termination of services", "see page 4 below"),
)


def _contents_line(text: str) -> bool:
    """A line of contents entries run together ("19. Term 18 19.1. Term 18 19.2. ..."), as a
    contents page after the first prints them, with no verb of running text."""
    return len(CONTENTS_RUN.regex.findall(text)) >= 2 and not _VERB.search(text)


def _contents_run_labels(lines: list[Line]) -> frozenset[str]:
    """The top-level numbers a table of contents run together lists ("... 3.6. Payment Terms
    7 4. Business Plan 7 5. Development Work 8"): evidence for a number run into the text."""
    return frozenset(
        m.group("num")
        for ln in lines
        if _contents_line(ln.text)
        for m in CONTENTS_LABEL.regex.finditer(ln.text)
        if m.group("num") and m.group("num").isdigit()
    )


_TOC_PAGE = re.compile(r"[\s.]*(?:\d{1,3}|[ivx]{1,5})?$", re.IGNORECASE)
FILING_EXHIBIT = rule(
    "heading.not_filing_exhibit",
    "heading",
    "a filing's exhibit banner (an EDGAR exhibit number): part of the title, not a heading",
    pattern=r"^exhibit\s+\d{1,3}\.\d{1,3}\b",
    flags=re.IGNORECASE,
    examples=("EXHIBIT 10.32", "Exhibit 99.1"),
    counter=("Exhibit A", "Exhibit 3 Pricing"),
)
LABEL_VALUE = rule(
    "heading.not_label_value",
    "heading",
    "a label and its value (a form field): a short line that is not a heading",
    pattern=r"\S:\s+\S",
    examples=("Name: J. Smith", "Date: 1 May 2024"),
    counter=("Terms and Conditions", "Note:"),
)
_UNDERLINE_ART = re.compile(r"\s*[-_=]{3,}\s*$")
# OCR damage in the keyword of a heading ("Secti0n 4", "ARTlCLE II"): letters a scanner
# confuses, mapped back before fuzzy matching.
OCR_KEYWORD = rule(
    "heading.ocr_keyword",
    "heading",
    "a word before a number, read as Section or Article when it is one damaged by OCR",
    pattern=r"^([A-Za-z0-9|]{1,8}(?: [A-Za-z0-9|]{1,7})?)(?=\s+(?:\d|[IVXLC]+\b))",
    examples=("Secti0n 4 Payment", "ARTlCLE II", "Sec tion 4"),
    counter=("The Supplier shall deliver", "Payment terms"),
)
_OCR_LETTERS = str.maketrans({"0": "o", "1": "l", "|": "l", "5": "s", "3": "e"})
_KEYWORDS = ("section", "article")
TERMINAL = rule(
    "heading.not_punctuated",
    "heading",
    "a line ending like a sentence or a lead-in: not a title",
    # a list item's tail wrapped onto a line of its own ("United Kingdom; or") ends so too
    pattern=r"(?:[.,;:!?]|[,;]\s*(?:and|or))$",
    examples=("The parties agree as follows:", "Payment is due monthly.", "United Kingdom; or"),
    counter=("Payment Terms", "Scope of Work", "Terms and Conditions"),
)
# A line of an address (a notice block, a letterhead) set alone: its postal code tells it from a
# title ("Springfield, Ohio 45501", "Quay Street Leith EH6 6LX").
ADDRESS_LINE = rule(
    "heading.not_an_address",
    "heading",
    "a line holding a postal code (a US ZIP after a place's name, a UK postcode): an address, "
    "not a title",
    pattern=r"\b[A-Z][A-Za-z]+,?\s+\d{5}(?:-\d{4})?$|\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b",
    examples=("Springfield, Ohio 45501", "Quay Street Leith EH6 6LX", "Dover, Delaware 19901-2345"),
    counter=("Payment Terms", "Schedule 2", "Article 12 Notices", "Exhibit 10.1"),
)
# The name over an address (a notice block's "Acme Trading Corporation" over "414 Elm
# Avenue"): the next line is a street, a postal code or an attention line.
_ADDRESS_NEXT = re.compile(
    r"^\d{1,5}\s+(?:[A-Z][\w.'-]*\s+){1,4}(?:Avenue|Ave|Street|St|Road|Rd|Drive|Dr|Boulevard|"
    r"Blvd|Lane|Ln|Way|Square|Place|Plaza|Court|Parkway|Highway)\b\.?|^(?:Attn|Attention)\b"
)
RUN_IN = rule(
    "heading.run_in",
    "heading",
    "a run-in title: a clause that opens with its title and a full stop",
    pattern=r"^([^.]{3,100})\.(?:\s+\S|(?=[A-Z][a-z]))",
    examples=("Right to Use. The Licensee may use the software.", "Grant of License. Subject to"),
    counter=("No full stop here", "Ok."),
)
TITLE_LINE = rule(
    "heading.title_line",
    "heading",
    "a short line in Title Case or capitals standing alone as its paragraph",
)
EMPHASISED = rule(
    "heading.emphasised",
    "heading",
    "in a PDF, a line set larger than the body text or in bold; its size gives the level",
)
_SMALL_WORDS = {
    "a",
    "an",
    "and",
    "as",
    "at",
    "by",
    "for",
    "from",
    "in",
    "of",
    "on",
    "or",
    "the",
    "to",
    "with",
    "under",
    "into",
    "this",
    "that",
    "these",
    "your",
    "its",
    "etc",
}

# A paragraph at most this long may be a heading wrapped over lines.
_HEADING_MAX_LINES = 2
_HEADING_MAX_CHARS = 120


@dataclass(frozen=True)
class Section(SectionInfo):
    """A section as sectioning builds it: what the graph reads (`SectionInfo`), plus where it
    lies in the document (pages, raw-text offsets) for chunks and passages."""

    page_start: int | None
    page_end: int | None
    # Where the section (heading to last line) lies in the document's raw text, and for each
    # character of `text` its raw offset (-1 unknown): see parsing.Line.
    char_start: int | None = None
    char_end: int | None = None
    offsets: tuple[int, ...] = ()


@dataclass
class _Heading:
    line: int  # index of the heading line
    label: str
    heading: str
    level: int
    body_from: int  # first line index of the body
    lead: str = ""  # text of the heading line that also belongs to the body
    numbered: bool = True  # False for a heading that is only a name ("Abstract", "RECITALS")
    contents: bool = False  # the table of contents
    rule: str = field(kw_only=True)  # id of the rule that recognised it (not stored)


@dataclass(frozen=True)
class _Contents:
    """A table of contents: lines [start, end), the rest of its heading line, the labels it
    lists (evidence for which numbered lines are headings)."""

    start: int
    end: int
    lead: str
    labels: frozenset[str]
    names: frozenset[str]  # its entries without page numbers, lower case


@dataclass(frozen=True)
class _Numbering:
    label: str
    rest: str
    level: int
    explicit: bool  # "Section 4", "Article IV": the keyword itself says it is a heading
    key: tuple[int, ...] | None  # numeric path, for the numbering-continuity check
    rule: str  # id of the rule that read the numbering


def build_sections(doc_id: str, lines: Sequence[Line], fmt: str) -> list[Section]:
    """Split a document's lines into an ordered section tree with stable ids."""
    clean, headings, name = _headings(lines, fmt)
    return _assemble(doc_id, clean, headings, name)


def heading_rules(lines: Sequence[Line], fmt: str) -> list[tuple[str, str]]:
    """The headings build_sections finds in `lines`, in order, each as (label, id of the rule
    that recognised it): which heading form made a section, without storing it."""
    return [(h.label, h.rule) for h in _headings(lines, fmt)[1]]


def _headings(lines: Sequence[Line], fmt: str) -> tuple[list[Line], list[_Heading], str | None]:
    """The cleaned lines, the headings among them and the document's name, if its title block
    gives one."""
    # the numbers the document cites as its sections: evidence for both scans
    cited = frozenset(cited_labels([ln.text for ln in lines]))
    if fmt in ("text", "pdf"):
        lines = _split_run_ins(list(lines), cited)
    clean, underlined = _clean(lines, fmt)
    toc = _table_of_contents(clean) if fmt != "markdown" else None
    headings = _find_headings(clean, underlined, fmt, cited, toc)
    name = None
    if fmt == "text":
        headings, name = _absorb_title(clean, headings)
    elif fmt == "pdf":  # a PDF's title page sets its name and authors as headings
        headings, name = _absorb_title(clean, headings, pdf=True, toc=toc)
    return clean, headings, name


def _clean(lines: Sequence[Line], fmt: str) -> tuple[list[Line], set[int]]:
    """Strip box art, turn underlines into a mark on the line above."""
    out: list[Line] = []
    underlined: set[int] = set()
    in_fence = False
    for line in lines:
        text = line.text
        if fmt == "markdown" and FENCE.search(text):
            in_fence = not in_fence
        if not in_fence:
            if _BOX_EDGE.match(text):
                text = ""
            elif (inner := _BOX_INNER.match(text)) and len(text) > 2:
                text = inner.group(1).strip()
            if UNDERLINED.search(text) and out and out[-1].text:
                underlined.add(len(out) - 1)
                continue
        shifts = line.shifts if text == line.text else None
        out.append(
            Line(text, line.page, line.size, line.bold, line.start, line.end, line.indent, shifts)
        )
    return out, underlined


# Text extracted from a PDF runs headings into the line before them. A numbered heading in
# capitals at the end of a lead-in ("... the parties agree as follows: 1.0 DEFINITIONS."),
# when the next line opens its first subsection ("1.1."), is a heading of its own.
TRAILING_HEAD = rule(
    "heading.trailing_numbered",
    "heading",
    "a numbered heading in capitals run onto the end of a lead-in (cut onto its own line when "
    "its first subsection follows)",
    pattern=r"(?<=[:.;])\s+(?P<n>\d{1,3})(?:\.0)?\.?\s+[A-Z][A-Z0-9 ,;&'’-]{2,80}\.?$",
    examples=("as follows: 1.0 DEFINITIONS.", "as set out below. 2 SCOPE OF WORK"),
    counter=("the parties agree as follows:", "as set out in 2 copies."),
)
# The numbered items of a lettered exhibit ("Exhibit D ... D.1 Future Product Specifications.
# [*]. D.2 ..."): the exhibit's letter, a number, a capitalised title; not a table or a figure
# ("Table E.1"), nor a citation of the item ("under Section C.2 Purchase Orders").
ITEM_RUN_IN = rule(
    "heading.exhibit_item_run_in",
    "heading",
    "an item of a lettered exhibit run into a line (cut onto its own line when it is the "
    "exhibit's letter and the next number)",
    pattern=r"(?<![\w.])(?<!Table\s)(?<!Figure\s)(?<!Diagram\s)(?<![Ss]ection\s)"
    r"(?<![Ss]ections\s)(?<![Pp]aragraph\s)(?<![Ii]tem\s)(?<!\bto\s)(?<!\bin\s)(?<!\bof\s)"
    r"(?<!\bsee\s)(?<!\band\s)(?<!\bor\s)(?<!\bunder\s)"
    r"(?P<letter>[A-Z])\.(?P<n>\d{1,2})\.?\s+(?=[A-Z])",
    examples=("Specifications. D.2 Delivery Terms", "D.1 Future Products"),
    counter=("as described in Table E.1 Results", "under Section C.2 Purchase Orders"),
)


# A running page header (the same words opening several lines of the document) printed onto
# the line of the heading that follows it.
RUNNING_HEAD = rule(
    "heading.after_running_head",
    "heading",
    "a heading after a running page header on its line (the header opens three lines or more "
    "of the document, one of them running text): the heading opens where the header ends",
    pattern=r"^(?!(?i:sections?|articles?|clauses?|exhibits?|schedules?|annex|appendix)\b)"
    r"(?P<head>[A-Z][A-Za-z0-9&,.:#/'’ -]{2,60}?)\s+"
    r"(?P<n>\d{1,3}(?:\.\d{1,3}){1,3}\.?|\d{1,3}\.)\s+(?=[A-Z\"“(])",
    examples=(
        "Confidential Execution Version 15.2.2 Termination by Bioeq",
        "Northwind Learning Group 9. Events of Default",
        "Contract No.: AB 2018-0044 4.2 During the Term",
    ),
    counter=("Section 15.2.2 Termination", "as set out in 4.2 The", "Payments due within 30 days"),
)


RULE_BEFORE = rule(
    "heading.after_rule_line",
    "heading",
    "a numbered heading printed on the line of a rule drawn above it: the heading opens at "
    "its number",
    pattern=r"^[-_=]{10,}\s+(?=\d{1,3}(?:\.\d{1,3})*\.?\s+[A-Z])",
    examples=("------------------------------ 6.0 Confidentiality",),
    counter=("------------------------------", "--- 6 items"),
)


# The number of the page before printed onto the line of the keyword heading that opens the
# next page ("4 ARTICLE 4 TERMINATION 4.1 ..."): the heading opens at its keyword.
PAGE_BEFORE_KEYWORD = rule(
    "heading.after_page_number",
    "heading",
    "a page number printed before an article or section keyword heading, or a dotted number, "
    "at the start of a paragraph whose text runs on: the heading opens at its keyword",
    pattern=r"^\d{1,3}\s+(?=(?:(?:ARTICLE|Article|SECTION|Section)\s+(?:\d{1,3}|[IVXLC]{1,6})\b"
    r"|\d{1,3}\.\d{1,3}\b)\.?\s+[A-Z])",
    examples=(
        "4 ARTICLE 4 TERMINATION 4.1 Termination.",
        "12 Section 9. Notices",
        "8 7.4 Assignment. Except as provided",
    ),
    counter=("ARTICLE 4 TERMINATION", "4 Sections of the report", "3 Section 2 applies"),
)


# An exhibit or schedule the document cites, its heading in capitals printed after page
# furniture on its line (a running header, a date, box art): the unit opens where its keyword
# does. The words before it are no sentence (none in lower case).
UNIT_AFTER_FURNITURE = rule(
    "heading.unit_after_furniture",
    "heading",
    "a cited exhibit or schedule in capitals after words that are no sentence at the start of "
    "a paragraph: the unit opens at its keyword",
    pattern=r"^(?P<before>(?:(?![a-z])\S+\s+){1,8}?)(?P<kw>EXHIBIT|SCHEDULE|ANNEX|APPENDIX|ATTACHMENT)\s+"
    r"[\"“]?(?P<label>[A-Z0-9]{1,3}(?:\.\d{1,2})?)\b",
    examples=(
        "Execution Copy EXHIBIT D To Affiliation Agreement",
        "May 3, 2016 EXHIBIT A FEES",
        '12. EXHIBIT "B" TO SUPPLY AGREEMENT - PRICES',
        "******************************************************************** EXHIBIT A A. SCOPE",
    ),
    counter=("as set forth in EXHIBIT B hereto", "EXHIBIT A Fees"),
)
# Furniture of any length drawn in punctuation only (a row of asterisks): no list of units.
_DRAWN = re.compile(r"[^\w\s]+\s+")
_UNIT_WORD = re.compile(rf"(?i)\b{UNIT_NOUNS}s?\b")  # "EXHIBITS EXHIBIT A ...": a list of the units
# Cited in running text: the keyword capitalised, or in capitals after a word of a sentence
# ("set forth on EXHIBIT A"; the heading "EXHIBIT A" itself cites nothing), the letter or
# number quoted or not ('Exhibit "A"').
_CITED_UNIT = re.compile(
    r"(?:\b(Exhibit|Schedule|Annex|Appendix|Attachment)|(?<![\w-])[a-z]+,?\s+(EXHIBIT|SCHEDULE"
    r"|ANNEX|APPENDIX|ATTACHMENT))\s+[\"“]?([A-Z0-9]{1,3}(?:\.\d{1,2})?)\b"
)


def _cited_units(lines: list[Line]) -> set[str]:
    """The exhibits and schedules the document cites as written in running text ("Exhibit
    D", "on EXHIBIT D"), lower case: "exhibit d"."""
    return {
        f"{m.group(1) or m.group(2)} {m.group(3)}".lower()
        for ln in lines
        for m in _CITED_UNIT.finditer(ln.text)
    }


def _unit_after_furniture(text: str, units: set[str]) -> int:
    """Where a cited unit's heading opens after page furniture on its line, or 0."""
    m = UNIT_AFTER_FURNITURE.regex.match(text)
    before = m.group("before") if m else ""
    if not m or (len(before) > 60 and not _DRAWN.fullmatch(before)) or _UNIT_WORD.search(before):
        return 0  # "EXHIBIT A1 - Patent Assignment EXHIBIT A2 - ...": a list of the units
    return m.start("kw") if f"{m.group('kw')} {m.group('label')}".lower() in units else 0


def _running_heads(lines: list[Line]) -> set[str]:
    """The words a numbered heading follows on its line (RUNNING_HEAD) that open three lines
    of the document or more: a running page header, not a sentence or a unit's keyword."""
    found = {m.group("head") for ln in lines if (m := RUNNING_HEAD.regex.match(ln.text))}
    found = {h for h in found if not h.endswith(" -")}
    out = set()
    for head in found:
        rests = [ln.text[len(head) :].strip() for ln in lines if ln.text.startswith(head)]
        # a page's header stands over any text, not only over numbers ("PAGE 5.2.1 ...",
        # "PAGE ARTICLE VI ...": the page column of a table of contents)
        prose = any(r and not _NUMBER_OR_UNIT.match(r) for r in rests)
        if len(rests) >= 3 and prose:
            out.add(head)
    return out


def _two_word_names(lines: list[Line]) -> frozenset[str]:
    """Pairs of capitalised words the document writes two times or more ("Service Provider")."""
    pairs = Counter(
        m.group(1) + " " + m.group(2)
        for ln in lines
        for m in re.finditer(r"\b([A-Z][a-z]+) (?=([A-Z][a-z]+)\b)", ln.text)
    )
    return frozenset(p for p, n in pairs.items() if n >= 2 and p.split()[1] not in SENTENCE_OPENERS)


def _contents_entries(lines: list[Line], run: int = 3) -> set[int]:
    """Lines of a table of contents set one entry a line ("ARTICLE 8 TERM 11"): a numbered
    heading whose title ends in its page number, three or more in a row (blank lines between),
    and the line before them when it names the contents."""
    out: set[int] = set()
    streak: list[int] = []
    before = -1  # the line before the streak: the contents' heading, when it says so

    def close() -> None:
        if len(streak) >= run:
            out.update(streak)
            if before >= 0 and re.search(r"(?i)\bcontents\b", lines[before].text):
                out.add(before)

    for n, line in enumerate(lines):
        if _contents_entry(line.text):
            streak.append(n)
        elif line.text:
            close()
            streak, before = [], n
    close()
    return out


def _contents_entry(text: str) -> bool:
    m = re.fullmatch(r"(.+?)\s+\d{1,3}", text) if len(text) <= 100 else None
    numbering = _numbering(m.group(1), markdown=False) if m else None
    return bool(numbering and numbering.rest and _is_title(_tidy(numbering.rest)))


def _after_furniture(text: str, units: set[str]) -> int:
    """Where a heading opens after a rule drawn over it ("------ 6.0 Confidentiality"), after
    the page number before a keyword heading ("4 ARTICLE 4 TERMINATION"), or after
    furniture before a cited unit ("Execution Copy EXHIBIT D To Affiliation Agreement"), or 0."""
    if drawn := RULE_BEFORE.regex.match(text):
        return drawn.end()
    if (paged := PAGE_BEFORE_KEYWORD.regex.match(text)) and len(text) > _HEADING_MAX_CHARS:
        return paged.end()  # its text runs on: no entry of a contents page ("6 ARTICLE III TERM")
    return _unit_after_furniture(text, units)


def _after_running_head(text: str, furniture: set[str], alone: set[str]) -> int:
    """Where the text opens after a running page header printed at the start of its line, or
    0: before a heading ("Acme Group 9. Events of Default"), and before anything when the
    header also stands on a line of its own ("Acme Group (2) Support Services"); a header
    that never does may be words of the text too ("Confidential Information means ...")."""
    for head in sorted(furniture, key=len, reverse=True):
        if text.startswith(head + " "):
            rest = text[len(head) :]
            if head in alone or _numbering(rest.strip(), markdown=False):
                return len(head) + len(rest) - len(rest.lstrip())
    return 0


_NUMBER_OR_UNIT = re.compile(r"(?i)(?:\d|article|section|schedule|exhibit|annex|appendix)")


def _split_run_ins(lines: list[Line], cited: frozenset[str]) -> list[Line]:
    """Cut headings run into other lines onto lines of their own (a paragraph break between):
    a trailing numbered heading whose first subsection follows, and the items of a lettered
    exhibit, numbered in sequence from 1."""
    out: list[Line] = []
    letter, expected = None, 1
    last: Key | None = None  # the outline so far
    listed = _contents_run_labels(lines)
    furniture = _running_heads(lines)
    alone = {ln.text for ln in lines if ln.text in furniture}
    units = _cited_units(lines)
    entries = _contents_entries(lines)
    names = _two_word_names(lines)
    for n, line in enumerate(lines):
        if n in entries:
            out.append(line)  # the contents list the outline: they do not move it on
            continue
        if m := APPENDIX.search(line.text):
            letter = m.group(2).upper() if re.fullmatch(r"[A-Za-z]", m.group(2)) else None
            expected = 1
            last = None
        if _contents_line(line.text):
            out.append(line)  # a page of the contents after the first: entries, not sections
            continue
        wrapped = n > 0 and _wrapped_clause(line.text, lines[n - 1].text, last)
        para_start = n == 0 or not lines[n - 1].text or wrapped
        out.extend([Line("", line.page)] * wrapped)  # a clause run in where a wrap fell
        if para_start and line.text in furniture:
            out.append(Line("", line.page))  # a running page header on a line of its own
            continue
        header = _after_running_head(line.text, furniture, alone) if para_start else 0
        skip = header or (_after_furniture(line.text, units) if para_start else 0)
        opens = _opens if para_start else _opens_not
        then = _next_opens(lines, n)
        cuts, last = run_in_cuts(line.text[skip:], last, opens, _titled, cited, listed, names, then)
        cuts = [*([skip] if skip else []), *(c + skip for c in cuts)]
        if letter:
            for m in ITEM_RUN_IN.finditer(line.text):
                if m.group("letter") == letter and int(m.group("n")) == expected:
                    cuts.append(m.start())
                    expected += 1
        tail = max(0, len(line.text) - 100)  # the heading ends the line: search its tail
        if not cuts and (m := next(TRAILING_HEAD.finditer(line.text, tail), None)):
            after = next((ln.text for ln in lines[n + 1 :] if ln.text), "")
            if re.match(rf"{m.group('n')}\.0?1\.?\s", after):
                cuts.append(m.start("n"))
        pieces = _cut(line, sorted({c for c in cuts if c > 0}))
        if header:  # the page header itself is no text of the section it interrupts
            pieces[0] = Line("", line.page)
        out.extend(pieces)
    return out


# A title in capitals that runs into the clause's first sentence or first subsection
# ("OPERATING MANUAL We will furnish ...", "FEES 2.1 The Company ...").
_CAPS_TITLE = re.compile(
    r"([A-Z][A-Z0-9,;&'’/-]*(?: [A-Z0-9][A-Z0-9,;&'’/-]*)*):? (?=[A-Z][a-z]|\d|\(|\")"
)


def _opens(text: str) -> Key | None:
    """The number a paragraph opens with, as the outline reads it (a number without its dot
    over a run-in title too: "7 Indemnity. 7.1 Each Party ...")."""
    numbering = _numbering(text, markdown=False)
    if numbering is None and (m := BARE_RUN_IN.search(text)) and _is_title(_tidy(m["title"])):
        return (int(m["n"]),)
    return numbering.key if numbering else None


def _next_opens(lines: list[Line], n: int) -> Key | None:
    """The number the paragraph after line n opens with, if line n ends its paragraph."""
    if n + 1 >= len(lines) or lines[n + 1].text:
        return None
    after = next((ln.text for ln in lines[n + 1 :] if ln.text), "")
    return _opens(after) if after else None


def _opens_not(text: str) -> Key | None:
    return None


def _wrapped_clause(text: str, before: str, last: Key | None) -> bool:
    """A line of a wrapped paragraph that opens with the outline's next dotted number after
    a line ending a sentence ("... no other way." / "1.3 Reserved. The ..."): the clause ran
    in where the wrap fell, as it would run in mid-line."""
    k = _opens(text)
    return (
        k is not None
        and len(k) > 1
        and last is not None
        and (continues(k, last) or second_child(k, last))
        and bool(re.search(r"[.;:]$", before))
    )


# A section kept with its number only ("Section 3. [Reserved] Section 4. ...", "7.
# Intentionally Omitted."): its number stays in the outline, and citations of it resolve.
RESERVED = rule(
    "heading.reserved",
    "heading",
    "a section kept with its number only: [Reserved], Intentionally Omitted, Deleted",
    pattern=r"^(?P<open>\[)?(?:Reserved|RESERVED|Intentionally\s+(?:Omitted|Deleted|Left\s+Blank)"
    r"|INTENTIONALLY\s+(?:OMITTED|DELETED)|Deleted|DELETED)(?(open)\]|(?:\.|$))",
    examples=("[Reserved] Section 4. General", "Intentionally Omitted.", "RESERVED."),
    counter=("Reserved rights are held by the Company", "Deleted items are restored"),
)


def _titled(rest: str) -> bool:
    """The text after a top-level number run into a line opens with a title: a run-in title
    ("Exclusivity. The Supplier shall ..."), or one in capitals its first subsection follows;
    or it marks a section kept with its number only ("[Reserved]")."""
    if _run_in_title(rest) or _CAPS_TITLE.match(rest) or _short_run_in(rest):
        return True
    if RESERVED.regex.match(rest):
        return True
    if rest.isupper() and rest.endswith(":") and _is_title(_tidy(rest.rstrip(":"))):
        return True  # "... in Exhibit D. 5.DELIVERY OF THE SERVICE:" and its text below
    m = re.match(r"(.{3,80}?)\s+\d{1,3}\.0?1\b", rest)  # "Conditions Precedent 2.1 ..."
    # or its first lettered item: "Rights of Termination (a) Regulatory Proceedings ..."
    m = m or re.match(r"([^()]{3,80}?)\s+\((?:a|i|1)\)\s", rest)
    return bool(m and _is_title(m.group(1).rstrip(":"), max_chars=80))  # "Sales Plan: (a) ..."


def _short_run_in(rest: str) -> str | None:
    """A short run-in title in sentence case: "Time is of the Essence. Time is ...",
    "Engagement: (a) ..." (at most eight words)."""
    m = re.match(r"([A-Z][^.:]{2,80})[.:]\s+[A-Z(\"“]", rest)
    return m.group(1) if m and len(m.group(1).split()) <= 8 else None


def _cut(line: Line, cuts: list[int]) -> list[Line]:
    """The line in pieces at `cuts`, a made-up blank line between pieces; each piece keeps
    its raw span (exact where the line's Shifts are known, as normalize.line_offsets maps
    it, else proportional)."""
    if not cuts:
        return [line]
    n = len(line.text)
    out: list[Line] = []
    bounds = [0, *cuts, n]
    at = line.text, line.start, line.end, line.shifts
    offsets = line_offsets(*at)  # once for the line, not once per piece
    for a, b in zip(bounds, bounds[1:], strict=False):
        piece = line.text[a:b].rstrip()
        start, end, shifts = sub_span(*at, a, a + len(piece), offsets)
        indent = line.indent if not out else None  # a piece run in after text: none of its own
        if out:
            out.append(Line("", line.page))
        out.append(Line(piece, line.page, line.size, line.bold, start, end, indent, shifts))
    return out


@dataclass(frozen=True)
class _Fonts:
    """A PDF's font sizes: the body's, and those set larger, largest first (the levels)."""

    body: float | None
    headings: list[float]
    # the smallest size of a heading the table of contents lists (None: no contents, or none
    # of its entries found as a heading): what is set no larger and unlisted is no section
    listed: float | None = None


@dataclass
class _Scan:
    """What the scan for headings has seen so far, line by line."""

    listed: set[str]  # labels the contents list that have not headed a section yet
    cited: frozenset[str] = frozenset()  # numbers the document cites as its sections
    last_key: tuple[int, ...] | None = None  # the numbering so far
    # top-level keyword headings since the last numbered subsection ("SECTION 10", "SECTION
    # 11" printed in one block above their text), and the numbering before them
    keywords: list[Key] = field(default_factory=list)
    before: Key | None = None
    taken: set[str] = field(default_factory=set)  # the labels that headed sections so far
    # the top-level numbered headings so far said by a keyword ("Section 4") and not
    tops: Counter[bool] = field(default_factory=Counter)
    # the last top-level number without a keyword read as no heading since the last heading:
    # an item of a list inside the clause ("1. ... 2. ... 3. ...")
    list_item: int | None = None
    item: tuple[str, int] | None = None  # a lettered exhibit's letter, its last item number
    amending: bool = False  # inside an amendment filed after the agreement
    signed: bool = False  # past the signature block: what follows is filed with the agreement
    in_fence: bool = False  # inside a Markdown code fence
    margin: int | None = None  # where the text under the last numbered heading stands

    def took(self, head: _Heading, text: str, fmt: str) -> None:
        """Move past a heading (its line `text`): its label and numbering are used up."""
        self.listed.discard(head.label)  # a listed label heads one section; later ones are lists
        self.taken.add(head.label)
        numbering = None if fmt == "markdown" else _numbering(text, markdown=fmt == "pdf")
        if numbering and numbering.rule == ROMAN.id and head.rule != ROMAN.id:
            numbering = None  # "I. MISCELLANEOUS" read as a title: the letter I, no number
        self._keyword_block(numbering)
        if numbering and numbering.key is not None and len(numbering.key) == 1:
            self.tops[numbering.explicit] += 1
        if head.rule in (BARE_NUMBER.id, BARE_RUN_IN.id):  # "9 LIMITATION": no dot to read
            self.last_key = (int(head.label),)
        elif numbering and numbering.key is not None:
            self.last_key = numbering.key
        elif numbering and (APPENDIX.search(text) or UNLETTERED.search(text)):
            self.last_key = None  # an exhibit or schedule numbers its own items from 1
            self.tops = Counter()  # in its own form
            letter = numbering.label.split()[-1]
            self.item = (letter, 0) if re.fullmatch(r"[A-Z]", letter) else None
        if self.item and re.fullmatch(rf"{self.item[0]}\.\d{{1,2}}", head.label):
            self.item = (self.item[0], int(head.label.split(".")[1]))

    def _keyword_block(self, numbering: _Numbering | None) -> None:
        key = numbering.key if numbering else None
        if numbering and numbering.explicit and key is not None and len(key) == 1:
            if not self.keywords:
                self.before = self.last_key
            self.keywords = [*self.keywords[-2:], key]
        elif key is not None and len(key) > 1:
            self.keywords, self.before = [], None

    def outline(self) -> "_Outline":
        earlier = tuple(k for k in (self.before, *self.keywords) if k is not None)
        keyworded = self.tops[True] >= _KEYWORD_TOPS and not self.tops[False]
        listing = self.list_item if keyworded else None
        return _Outline(self.cited, earlier, frozenset(self.taken), listing)


@dataclass(frozen=True)
class _Outline:
    """What may place a number in the outline besides its last number: the numbers the
    document cites, and the numbering before keyword headings that a PDF's text printed in
    one block above their text ("SECTION 10 ... SECTION 11 ... 10.01 Compensation ...")."""

    cited: frozenset[str] = frozenset()
    earlier: tuple[Key, ...] = ()
    taken: frozenset[str] = frozenset()
    # when every top-level heading so far is said by its keyword ("Section 3", "Section 4"):
    # the last item of a list inside the clause ("1. ... 2. ... 3. ..."); the next bare number
    # ('4. "Permitted ..." means') continues that list, not the outline
    list_item: int | None = None


# How many top-level keyword headings, and no bare one, make the keyword the outline's form.
_KEYWORD_TOPS = 3


def _find_headings(
    lines: list[Line],
    underlined: set[int],
    fmt: str,
    cited: frozenset[str],
    toc: _Contents | None,
) -> list[_Heading]:
    body_size = _body_font_size(lines) if fmt == "pdf" else None
    fonts = _Fonts(
        body_size,
        _heading_sizes(lines, body_size) if body_size else [],
        _listed_size(lines, toc, body_size) if body_size and toc else None,
    )
    scan = _Scan(set(toc.labels) if toc else set(), cited)
    headings: list[_Heading] = []
    i = 0
    while i < len(lines):
        if toc and i == toc.start:
            name = "Table of Contents"
            # numbered=True: like a numbered heading, the contents end the title block
            headings.append(
                _Heading(i, name, name, 1, i + 1, toc.lead, contents=True, rule=CONTENTS.id)
            )
            i = toc.end
            continue
        head = _heading_at(lines, i, underlined, fmt, scan, toc, fonts)
        if head is None or (headings and _repeats_title(head, headings[-1])):
            i += 1
            continue
        headings.append(head)
        i = head.body_from
    if fmt == "pdf":
        return _levels_of_numbered(lines, headings)
    return _drop_empty_names(lines, headings, toc) if fmt == "text" else headings


def _levels_of_numbered(lines: list[Line], headings: list[_Heading]) -> list[_Heading]:
    """A PDF's unnumbered heading set in the size of numbered ones takes their level: "Concept
    Index" set like "1 Introduction" is a chapter, not a part of the appendix before it (its
    rank among sizes counts the title's too)."""
    by_size: dict[float, Counter[int]] = {}
    for h in headings:
        size = lines[h.line].size
        if h.numbered and size and re.match(r"\d", h.label):
            by_size.setdefault(size, Counter())[h.level] += 1
    out = []
    for h in headings:
        size = lines[h.line].size
        if h.rule == EMPHASISED.id and size in by_size:
            h = replace(h, level=by_size[size].most_common(1)[0][0])
        out.append(h)
    return out


def _repeats_title(head: _Heading, unit: _Heading) -> bool:
    """A title line that repeats the title of the unit it stands in ("Annex 1 - Form of the
    Letter of Confirmation" over "Letter of Confirmation"): the unit's own title, no section."""
    if head.numbered or head.rule != TITLE_LINE.id or unit.rule != APPENDIX.id:
        return False
    if len(head.heading.split()) < 3:
        return False  # "Warranty" under "Exhibit B - Warranty Terms" may be a part of its own
    return fuzz.partial_ratio(head.heading.lower(), unit.heading.lower()) >= 95


def _heading_at(
    lines: list[Line],
    i: int,
    underlined: set[int],
    fmt: str,
    scan: _Scan,
    toc: _Contents | None,
    fonts: _Fonts,
) -> _Heading | None:
    """The heading on line i, if there is one; `scan` moves past line i."""
    text = lines[i].text
    if fmt == "markdown" and FENCE.search(text):
        scan.in_fence = not scan.in_fence
    if scan.in_fence or not text or (fmt != "markdown" and _contents_line(text)):
        return None
    para_start = i == 0 or not lines[i - 1].text
    scan.signed = scan.signed or bool(SIGNED.search(text))
    if fmt == "text" and para_start and scan.signed and (amend := _amendment_heading(lines, i)):
        # an amendment filed after the agreement is one section: the clauses it quotes
        # or adds ("6.5 Shipping Term ...") are its text, not the agreement's
        scan.amending = True
        return amend
    if scan.amending and not APPENDIX.search(text):
        return None
    scan.amending = False  # an exhibit attached to the amendment is a unit of its own
    if fmt == "markdown":
        head = _markdown_heading(lines, i, underlined)
    else:
        head = _layout_heading(lines, i, underlined, para_start, scan, toc, fonts)
    if head is not None and _indented_item(lines, head, scan.margin):
        return None
    if head is None and para_start and (item := _BARE_ITEM.match(text)):
        scan.list_item = int(item.group(1))
    if head is not None:
        scan.list_item = None
        scan.took(head, text, fmt)
        if head.numbered and not head.contents:
            scan.margin = _body_indent(lines, head)
    return head


_BARE_ITEM = re.compile(r"^(\d{1,3})\.\s")


# A plain-text standard indents the blocks its sections hold deeper than their prose: a
# request or type named on a line of its own over its indented fields ("QueryVersion" /
# "        client-major-version: CARD32"), a formula, a table's column headings. A title line
# over such a block is an item of its section, not a heading; a first-line indent is no block.
INDENTED_ITEM = rule(
    "heading.not_indented_item",
    "heading",
    "in plain text, a title line over a paragraph of lines all indented deeper than the "
    "prose under the numbered headings: an item of its section (a request block), no heading",
)


# A request's field and its type ("region: Region", "x, y: CARD16"): a one-line block.
_FIELD = re.compile(r"[a-z][\w-]*(?:,\s*[a-z][\w-]*)*:\s+\S")


def _body_indent(lines: list[Line], head: _Heading) -> int | None:
    """Where the text under a heading stands: the indent of its first line of text."""
    if head.lead:
        return lines[head.line].indent
    return next((ln.indent for ln in lines[head.body_from :] if ln.text), None)


def _indented_item(lines: list[Line], head: _Heading, margin: int | None) -> bool:
    """Whether a title line heads an indented block inside the numbered text (INDENTED_ITEM):
    every line of the paragraph under it stands deeper than `margin`."""
    if head.rule != TITLE_LINE.id or margin is None:
        return False
    j = next((k for k in range(head.body_from, len(lines)) if lines[k].text), None)
    if j is None:
        return False
    block = _paragraph(lines, j)
    fields = len(block) > 1 or bool(_FIELD.match(block[0].text))
    return fields and all(ln.indent is not None and ln.indent > margin for ln in block)


def _layout_heading(
    lines: list[Line],
    i: int,
    underlined: set[int],
    para_start: bool,
    scan: _Scan,
    toc: _Contents | None,
    fonts: _Fonts,
) -> _Heading | None:
    """A heading of plain text or a PDF: only a line that opens a paragraph, is underlined or
    is set in a heading's font may be one."""
    emphasised = _emphasised(lines[i], fonts.body)
    para_start = para_start or _under_title_block(lines, i, scan.last_key)
    if not (emphasised or para_start or i in underlined):
        return None
    head = _text_heading(
        lines,
        i,
        underlined,
        scan.last_key,
        emphasised,
        fonts.headings,
        toc,
        scan.listed,
        scan.item,
        scan.outline(),
    )
    if head and toc and _unlisted_item(head, lines[i], toc, fonts.listed, scan.taken):
        return None
    return head


# A PDF whose table of contents lists its outline: a line set like a heading that the
# contents do not list, and no larger than the headings they do, is an item of the section it
# stands in (a function's entry in a reference manual, an index's letter, a licence's
# clause "2. VERBATIM COPYING" or ADDENDUM printed inside an appendix).
UNLISTED_ITEM = rule(
    "heading.not_unlisted_pdf_item",
    "heading",
    "in a PDF whose contents list its outline, a heading candidate the contents do not list "
    "(no number, or a number already used), set no larger than the listed headings: an item "
    "of its section, not a section",
)


def _listed_size(lines: list[Line], toc: _Contents, body: float) -> float | None:
    """The smallest font size of a line after the contents, set like a heading, that one of
    their entries lists: the smallest size the document sets a section's heading in."""
    if len(toc.labels) < 3:  # a few labels are no outline
        return None
    sizes = [
        ln.size
        for ln in lines[toc.end :]
        if ln.size and _emphasised(ln, body) and _in_contents(ln.text, toc)
    ]
    return min(sizes) if sizes else None


def _in_contents(text: str, toc: _Contents) -> bool:
    """Whether a heading line is an entry of the contents (as printed, or the start of an
    entry the contents wrapped over two lines)."""
    text = " ".join(text.lower().split()).rstrip(". ")
    if len(text) < 3:
        return False
    names = (" ".join(name.split()) for name in toc.names)
    return any(name == text or (name.startswith(text) and len(text) >= 8) for name in names)


def _unlisted_item(
    head: _Heading, line: Line, toc: _Contents, listed: float | None, taken: set[str]
) -> bool:
    """A heading candidate of a PDF that the contents do not list (UNLISTED_ITEM): no number
    and set no larger than the listed headings; a number used already; or a number at a
    depth the contents go down to, set smaller than any listed heading."""
    if listed is None or head.contents or not line.size or line.size > listed:
        return False
    if _in_contents(line.text, toc) or _in_contents(head.heading, toc):
        return False
    if head.label in taken:
        return True  # "2. VERBATIM COPYING" after chapter 2: a list of the text
    if head.label in toc.labels:
        return False
    if not head.numbered or head.rule == UNLETTERED.id:  # a name, or "ADDENDUM"
        return True
    if not re.fullmatch(r"\d{1,3}(?:\.\d{1,3})*", head.label):
        return False  # "Appendix B", "Article IV": units the contents may leave out
    depth = max(len(label.split(".")) for label in toc.labels if label[:1].isdigit())
    return line.size < listed and len(head.label.split(".")) <= depth


# A plain text's title block may run straight into its first heading, no blank line between
# ("Intel Corporation" / "1. Introduction"), and a standard's block may end right above the
# next heading ("        ]" or a line of ornaments / "7. Standard PictFormats"). A numbered
# title standing alone above a blank line opens its section all the same when it is exactly
# the outline's next number and the line above is no sentence: under the title block (the
# first number), or a block's closing bracket or ornament (a line ending in no letter).
UNDER_TITLE_BLOCK = rule(
    "heading.under_title_block",
    "heading",
    "the outline's next numbered heading, a title alone above a blank line, set right under the "
    "title block's last line (a name) or under a block's closing line (no letter at its end)",
    pattern=r"^(?P<n>\d{1,3}(?:\.\d{1,3})*)\.?\s+[A-Z]",
    examples=("1. Introduction", "1 Scope", "7. Standard Formats"),
    counter=("1.5 per cent", "the 2. Acknowledgements"),
)


def _under_title_block(lines: list[Line], i: int, last: Key | None) -> bool:
    """Whether line i is the outline's next heading right under a line that is no sentence
    (UNDER_TITLE_BLOCK): "1. Introduction" under the title block, "7. Types" under "]"."""
    if i == 0 or i + 1 >= len(lines) or lines[i + 1].text:
        return False
    text, above = lines[i].text, lines[i - 1].text
    m = UNDER_TITLE_BLOCK.search(text)
    if not m or not follows(outline_key(m["n"]), last) or not above:
        return False
    if not _is_title(_tidy(text[m.end() - 1 :])):
        return False
    if last is not None and re.search(r"[^\W_]\W*$", above) and not above.endswith(("]", "}")):
        return False  # inside the outline, only after a line that ends in no letter or digit
    return not TERMINAL.search(above) and not above[:1].islower()


def _markdown_heading(lines: list[Line], i: int, underlined: set[int]) -> _Heading | None:
    text = lines[i].text
    if match := MARKDOWN.search(text):
        level, title, by = len(match.group(1)), match.group(2).strip(), MARKDOWN
    elif i in underlined and len(text) <= _HEADING_MAX_CHARS:
        level, title, by = 1, text, UNDERLINED
    else:
        return None
    label, heading = _label_and_heading(title, markdown=True)
    return _Heading(i, label, heading, level, i + 1, rule=by.id)


def _text_heading(
    lines: list[Line],
    i: int,
    underlined: set[int],
    last_key: tuple[int, ...] | None,
    emphasised: bool,
    heading_sizes: list[float],
    toc: _Contents | None = None,
    listed: set[str] | None = None,
    item: tuple[str, int] | None = None,
    outline: _Outline = _Outline(),
) -> _Heading | None:
    """The heading line i of a text or PDF starts: numbered, set in a heading's font, or a
    title line standing alone."""
    text = lines[i].text
    if FILING_EXHIBIT.search(text):
        return None  # the filing's exhibit banner ("EXHIBIT 10.32") is part of the title
    numbering = _text_numbering(text, emphasised, toc, item) or _bare_number(lines, i, last_key)
    if numbering:
        heading = _numbered_heading(
            lines, i, numbering, underlined, last_key, emphasised, listed, outline
        )
        if heading or numbering.rule != ROMAN.id:
            return heading
        # a numeral the outline does not continue ("I. MISCELLANEOUS" after "H. ..." is the
        # letter I): the line is read as any other title
    if emphasised and len(text) <= _HEADING_MAX_CHARS and not text.endswith((",", ";")):
        size = lines[i].size
        level = heading_sizes.index(size) + 1 if size in heading_sizes else len(heading_sizes) + 1
        return _Heading(
            i, _name_label(text), _tidy(text), level, i + 1, numbered=False, rule=EMPHASISED.id
        )
    return _title_heading(lines, i, underlined, last_key, toc)


def _bare_number(lines: list[Line], i: int, last: Key | None) -> _Numbering | None:
    """ "7 Confidentiality" alone on its line, its first subsection ("7.1 ...") next; a
    title in capitals ("9 LIMITATION OF LIABILITY.") that is the outline's next number; or,
    as the outline's next number, a run-in title ("3 Insurance. Supplier shall ...")."""
    run_in = BARE_RUN_IN.search(lines[i].text)
    if run_in and follows((int(run_in["n"]),), last) and _is_title(_tidy(run_in["title"])):
        key = (int(run_in["n"]),)
        return _Numbering(run_in["n"], run_in["rest"], 1, False, key, BARE_RUN_IN.id)
    m = BARE_NUMBER.search(lines[i].text)
    if not m or i + 1 < len(lines) and lines[i + 1].text:
        return None
    n, title = int(m.group(1)), m.group(2)
    caps = title.isupper() and _is_title(_tidy(title)) and follows((n,), last)
    if not (caps or (_is_title(_tidy(title)) and _first_child_next(lines, i, m.group(1)))):
        return None
    return _Numbering(m.group(1), _tidy(title), 1, False, (n,), BARE_NUMBER.id)


def _first_child_next(lines: list[Line], i: int, number: str) -> bool:
    after = next((ln.text for ln in lines[i + 1 :] if ln.text), "")
    return bool(re.match(rf"{number}\.0?1\b", after))


def _text_numbering(
    text: str, emphasised: bool, toc: _Contents | None, item: tuple[str, int] | None
) -> _Numbering | None:
    """The numbering a line opens with: a section number (a font-marked heading is numbered
    like a Markdown one, "1 Scope", no dot needed), a letter the contents list, or the next
    item of a lettered exhibit."""
    if numbering := _numbering(text, markdown=emphasised):
        return numbering
    if toc and (numbering := _lettered(text, toc.labels)):
        return numbering
    return _exhibit_item(text, *item) if item else None


def _numbered_heading(
    lines: list[Line],
    i: int,
    numbering: _Numbering,
    underlined: set[int],
    last_key: tuple[int, ...] | None,
    emphasised: bool,
    listed: set[str] | None,
    outline: _Outline = _Outline(),
) -> _Heading | None:
    """A numbered line as a heading: one that continues the numbering, says it is one
    ("Section 4") or is marked as one (font, contents); a heading block, or else a numbered
    paragraph. A number the document cites ("Section 4.2") may stand a few numbers ahead of
    the outline (headings the text lost: outline.ahead); a second subsection whose first lost
    its number ("11.2" after "11."), when the next numbered paragraph continues it."""
    key = numbering.key or ()
    # a dotted number a few on ("3.5" after "3.2", the numbers between run into a line the
    # text does not break) or a second subsection whose first lost its number: a heading when
    # the next numbered paragraph continues it ("3.6"), the document's own numbering going on
    lost = (second_child(key, last_key) or (len(key) > 1 and ahead(key, last_key))) and (
        _next_continues(lines, i, key)
    )
    if not (_heads(numbering, lines[i].text, last_key, emphasised, listed, outline) or lost):
        return None
    if emphasised:  # the font marks exactly one line as the heading
        heading = _tidy(numbering.rest) or numbering.label
        return _Heading(i, numbering.label, heading, numbering.level, i + 1, rule=numbering.rule)
    para = _paragraph(lines, i)
    para_text = join_lines([ln.text for ln in para])
    whole = _numbering(para_text, markdown=False)
    if numbering.rule == APPENDIX.id and whole is None:
        return None  # "APPENDIX C / shall be updated ...": the sentence goes on below it
    short = i in underlined or _is_heading_block(para, para_text)
    if short and not numbering.explicit and _is_sentence(whole.rest if whole else ""):
        # '1.4. "BOM" means the bill of materials for a given Product.': a short numbered
        # clause is text, not a heading with an empty body
        short = False
    if short:
        return _heading_block(lines, i, numbering, whole, i + len(para))
    if numbering.explicit and not numbering.rest:
        return None
    title = _paragraph_title(numbering, len(para))
    repeated = numbering.label in outline.taken and not numbering.explicit
    if not title and repeated and numbering.label.isdigit():
        # an exhibit or schedule numbering its items from 1 again ("1. The Consultant will
        # attend two events a year."): a top-level item without a title whose number the
        # agreement already used is text of the exhibit, not a section of its own
        # (UNTITLED_REPEAT); its untitled sub-clauses ("1.1 The bonus is ...") stay sections
        return None
    lead = numbering.rest
    if entry := ENTRY_MEANING.regex.match(lead):  # "1.1.1 PRC Laws: means any law ..."
        title, lead = entry["term"], lead[entry.start("meaning") :]
    return _Heading(
        i, numbering.label, _tidy(title), numbering.level, i + 1, lead=lead, rule=numbering.rule
    )


# A numbered entry of a list of definitions opened by its term, a colon and its meaning
# ("1.1.1 PRC Laws: means any law ..."): the term is the entry's title, its text the meaning,
# as a definitions list in Title Case headings reads ("Affiliate" over "means any ...").
ENTRY_MEANING = rule(
    "heading.defined_entry_title",
    "heading",
    "a numbered entry opened by a term, a colon and 'means': the term titles the section, "
    "its text is the meaning",
    pattern=r"^(?P<term>[A-Z][\w'’&/-]*(?:\s+(?:[A-Z][\w'’&/-]*|of|or|and|the|for|to|in|on)){0,5})"
    r"\s*:\s+(?P<meaning>(?:means|shall\s+mean|refers\s+to)\b.*)$",
    flags=re.DOTALL,
    examples=("PRC Laws: means any present and future laws", "Affiliate: shall mean any entity"),
    counter=("Notice: All notices shall be in writing", "the Product: means"),
)


# How far ahead the next numbered paragraph is looked for.
_NEXT_LINES = 60


def _next_continues(lines: list[Line], i: int, here: tuple[int, ...]) -> bool:
    """Whether the next numbered paragraph after line i continues its number `here` (its next
    sibling or its first child): "11.2" is a heading when "11.3" or "11.2.1" comes next."""
    for j in range(i + 1, min(len(lines), i + _NEXT_LINES)):
        if lines[j].text and not lines[j - 1].text:
            numbering = _numbering(lines[j].text, markdown=False)
            if numbering and numbering.key is not None:
                return follows(numbering.key, here) and len(numbering.key) >= len(here)
    return False


def _paragraph_title(numbering: _Numbering, para_lines: int) -> str:
    """A numbered paragraph's title: a run-in title ("Grant of Copyright License. Subject to
    ..."), the term it defines, a title in capitals or on a line of its own; else none ("1.2
    The Supplier represents that: ...")."""
    run_in = RUN_IN.search(numbering.rest)
    if run_in and _run_in_title(numbering.rest):
        return run_in.group(1)
    if sentence_case := _short_run_in(numbering.rest):
        return sentence_case  # "26. Time is of the Essence. Time is ..."
    if defined := DEFINED_TITLE.search(numbering.rest):
        return defined.group(1).strip()  # '1.4 "BOM" means ...': the term it defines
    if (caps := _CAPS_TITLE.match(numbering.rest)) and len(caps.group(1)) > 3:
        return caps.group(1)  # "11. OPERATING MANUAL We will furnish ..."
    if _titles_paragraph(numbering.rest, para_lines):
        return numbering.rest  # its first line is its title, the text goes on below
    return ""


UNTITLED_REPEAT = rule(
    "heading.not_untitled_repeat",
    "heading",
    "a top-level numbered item without a title whose number the document already used (an "
    "exhibit or schedule numbering its items from 1 again): text of the unit it stands in, "
    "no heading",
)


# A top-level number before a word in lower case continues a sentence as the next item of a
# list inside a clause ("... based on: 1. infringement ... 2. misappropriation ..."), never a
# heading: taken as one, it would carry the outline off to the next top-level number.
LIST_ITEM = rule(
    "heading.not_list_item",
    "heading",
    "a top-level number followed by a word in lower case: an item of a list, not a heading",
    pattern=r"^\d{1,3}[.)]?\s+[a-z]",
    examples=("4. the relevant specifications are of Vendor's design", "2) misappropriation of"),
    counter=("4. Term. This Agreement", "4.2 the Supplier shall", "4. TERM"),
)


def _heads(
    numbering: _Numbering,
    text: str,
    last_key: Key | None,
    emphasised: bool,
    listed: set[str] | None,
    outline: _Outline,
) -> bool:
    """Whether a numbered line may head a section: it says it is one, is marked as one, or
    continues the outline (a cited number a few numbers ahead too); never a list's item."""
    if not numbering.explicit and LIST_ITEM.search(text):
        return False  # "4. the relevant specifications are ...": an item of a list in a clause
    key = numbering.key
    if not numbering.explicit and key and len(key) == 1 and outline.list_item == key[0] - 1:
        return False  # 'Section 4. ... 3. ... 4. "Permitted ..." means': a list in Section 4
    again = key == last_key and not numbering.explicit
    if key and last_key and (key < last_key or again) and numbering.label in outline.taken:
        # "Section 12.6. This Section shall ...": a citation the text wrapped; or, without a
        # keyword, the number the outline stands at again ('4. "Permitted ..." means' in a
        # list inside Section 4)
        return False
    goes_on = (
        key is None
        or continues(key, last_key)
        or (numbering.label in outline.cited and ahead(key, last_key))
        # a cited top-level number a few on, with its title ("9. Notices. ..." after "4.")
        or (
            len(key) == 1
            and cited_ahead(key, last_key, outline.cited, numbering.label)
            and _titled(numbering.rest)
        )
        or any(continues(key, earlier) for earlier in outline.earlier)
    )
    return numbering.explicit or goes_on or emphasised or numbering.label in (listed or ())


# A numbered definition ('1.4 "BOM" means the bill of materials ...') is titled by the term it
# defines, quoted as printed (GRAPH_GOLD: the heading a reader sees in the list of terms).
DEFINED_TITLE = rule(
    "heading.defined_term_title",
    "heading",
    "a numbered definition: its heading is the quoted term (or terms) it defines",
    pattern=r"^((?:[\"“][^\"”]{1,80}[\"”](?:,\s*|\s+or\s+|\s+and\s+|,\s+or\s+)?)+)\s*"
    r"(?=means\b|shall\s+mean\b|shall\s+have\b|has\s+the\s+meaning\b|refers\b)",
    examples=('"BOM" means the bill of materials', '"Term" shall have the meaning'),
    counter=("BOM means the bill of materials", '"BOM" is defined below'),
)
_VERB = re.compile(r"\b(?:means|shall|will|may|must|is|are|has|have|was|were)\b", re.IGNORECASE)


def _titles_paragraph(rest: str, lines: int) -> bool:
    """The rest of a numbered paragraph's first line is its title: a title on a line of its
    own ('1.1. "Contributor"' over "means each ..."), or a short phrase without a verb that is
    the whole paragraph ("3. Product sales to TL.")."""
    tidy = _tidy(rest)
    if lines > 1:
        return _is_title(tidy.lstrip("\"“'‘"))
    return len(tidy.split()) <= 8 and not _VERB.search(tidy) and tidy[:1].isupper()


def _heading_block(
    lines: list[Line], i: int, numbering: _Numbering, whole: _Numbering | None, body_from: int
) -> _Heading:
    """A numbered paragraph that is all heading (lines i to body_from): its title is the rest
    of the paragraph, a run-in title, or for a bare "ARTICLE II" the title line under it."""
    rest = whole.rest if whole else numbering.rest
    if _run_in_title(rest):  # "Section 3.01 Right to Use. ETI grants ..."
        title = RUN_IN.search(rest).group(1)  # type: ignore[union-attr]
        return _Heading(
            i, numbering.label, _tidy(title), numbering.level, body_from, rest, rule=numbering.rule
        )
    if numbering.explicit and not _tidy(rest):
        rest, body_from = _title_below(lines, body_from, rest)
    return _Heading(
        i, numbering.label, _tidy(rest), numbering.level, body_from, rule=numbering.rule
    )


def _title_below(lines: list[Line], j: int, rest: str) -> tuple[str, int]:
    """ "ARTICLE II" with its title as the next line of its own ("NTL TECHNOLOGY"): that title
    and the line after it, else `rest` and j unchanged."""
    k = j
    while k < len(lines) and not lines[k].text:
        k += 1
    nxt = _paragraph(lines, k)
    if len(nxt) == 1 and _is_title(_tidy(nxt[0].text)):
        return nxt[0].text, k + 1
    return rest, j


def _title_heading(
    lines: list[Line],
    i: int,
    underlined: set[int],
    last_key: tuple[int, ...] | None,
    toc: _Contents | None,
) -> _Heading | None:
    """A name standing alone as a heading: an underlined line or a title line."""
    text = lines[i].text
    by = UNDERLINED if i in underlined else TITLE_LINE
    if not (by is UNDERLINED or (len(_paragraph(lines, i)) == 1 and _is_title(text))):
        return None
    if len(text) > 100 or LABEL_VALUE.search(text) or _in_an_address(lines, i):
        return None  # "Name: J. Smith", "Example: S: * 23 EXISTS", "Dover, Delaware 19901"
    if _table_row(lines, i):
        return None  # "US TIMBERLAND Registered 76496979 13-Mar-03": a row of a schedule's table
    if toc and last_key is not None and _tidy(text).lower() not in toc.names:
        return None  # inside the numbered text, a name heads a section only if listed
    return _Heading(i, _name_label(text), _tidy(text), 1, i + 1, numbered=False, rule=by.id)


# A row of a table standing alone at a page's end (a schedule of trademarks, patents,
# domain names): a registration or application number, or a date in figures, is no title's.
TABLE_ROW = rule(
    "heading.not_table_row",
    "heading",
    "a short line holding a number of five digits or more or a date in figures: a table's row "
    "(a schedule of registrations), not a title",
    pattern=r"\b\d{5,}\b|\b\d{1,2}[-/](?:\d{1,2}|[A-Z][a-z]{2})[-/]\d{2,4}\b",
    examples=(
        "US TIMBERLAND Registered 76496979 13-Mar-03",
        "CA SDF Pending 1902212 1-Jun-18",
        "Japan 2008-541319",
    ),
    counter=("Schedule 2", "Article 12 Notices", "1998 Stock Option Plan", "Exhibit 10.1"),
)


def _table_row(lines: list[Line], i: int) -> bool:
    """Line i is a row of a table (TABLE_ROW), or a short line among such rows ("US ARTISTIC
    TIMBERS CLTM" between two registrations): the paragraphs before and after it are rows."""
    if TABLE_ROW.search(lines[i].text):
        return True
    before = next((ln.text for ln in reversed(lines[max(0, i - 3) : i]) if ln.text), "")
    after = next((ln.text for ln in lines[i + 1 : i + 4] if ln.text), "")
    return all(len(t) <= _HEADING_MAX_CHARS and TABLE_ROW.search(t) for t in (before, after))


_ADDRESS_CHARS = 80  # an address line is short


def _in_an_address(lines: list[Line], i: int) -> bool:
    """Line i is a line of an address (heading.not_an_address), or the name over one."""
    if ADDRESS_LINE.search(lines[i].text):
        return True
    after = next((ln.text.strip() for ln in lines[i + 1 : i + 4] if ln.text.strip()), "")
    if len(after) > _ADDRESS_CHARS:
        return False  # a paragraph that ends with a place ("... San Jose, California 95134")
    return bool(ADDRESS_LINE.search(after) or _ADDRESS_NEXT.match(after))


def _lettered(text: str, listed: frozenset[str]) -> _Numbering | None:
    m = LETTERED.search(text)
    if not m or m.group(1).split(".")[0] not in listed or not _is_title(m.group(2)):
        return None  # "A client MUST ..." is a sentence
    label = m.group(1)
    return _Numbering(label, m.group(2).strip(), label.count(".") + 1, False, None, LETTERED.id)


AMENDMENT = rule(
    "heading.amendment",
    "heading",
    "an amendment to the agreement, standing alone after its signature block: one section",
    pattern=r"^(?:[A-Z]\w+\s+)?amendment(?:\s+(?:no\.?|number)\s*\d+)?\s+to\s+(?:the\s+)?\S.{0,80}"
    r"\b(?:agreement|contract|license|licence|lease)$",
    flags=re.IGNORECASE,
    examples=("AMENDMENT TO MANUFACTURING AGREEMENT", "First Amendment to the Lease"),
    counter=("This amendment takes effect today", "Amendment"),
)
SIGNED = rule(
    "heading.signature_block",
    "heading",
    "the lead-in of a signature block: an amendment after it was filed with the agreement",
    pattern=r"\bIN\s+WITNESS\s+WHEREOF\b",
    flags=re.IGNORECASE,
    examples=("IN WITNESS WHEREOF, the parties have signed", "In witness whereof the parties"),
    counter=("The parties signed the agreement",),
)
AMENDMENT_DATE = rule(
    "heading.amendment_date",
    "heading",
    "a date line under an amendment's heading: it labels the amendment",
    pattern=rf"^(?:{MONTH_NAME}\s+\d{{1,2}},?\s+\d{{4}}|\d{{1,2}}\s+{MONTH_NAME},?\s+\d{{4}})$",
    examples=("September 24, 2014", "1 March 2020"),
    counter=("September 2014", "Dated September 24, 2014"),
)


def _amendment_heading(lines: list[Line], i: int) -> _Heading | None:
    """'AMENDMENT TO MANUFACTURING AGREEMENT' standing alone after the agreement's signature
    block: an amendment filed with it, one section labelled by the date line under it
    ("Amendment of September 24, 2014"; the same heading recurs for each amendment), else
    "Amendment"."""
    text = lines[i].text
    if len(_paragraph(lines, i)) != 1 or not AMENDMENT.search(text):
        return None
    j = i + 1
    while j < len(lines) and not lines[j].text:
        j += 1
    if j < len(lines) and len(_paragraph(lines, j)) == 1 and AMENDMENT_DATE.search(lines[j].text):
        date = " ".join(lines[j].text.split())
        return _Heading(i, f"Amendment of {date}", _tidy(text), 1, j + 1, rule=AMENDMENT.id)
    return _Heading(i, "Amendment", _tidy(text), 1, i + 1, rule=AMENDMENT.id)


EXHIBIT_ITEM = rule(
    "heading.exhibit_item",
    "heading",
    "an item of a lettered exhibit: its letter, the next number, a title (C.2 Liability)",
    pattern=r"^(?P<letter>[A-Z])\.(\d{1,2})\.?\s+(\S.*)$",
    examples=("C.2 Maximum Liability. In the event of a claim", "D.1 Product Specifications"),
    counter=("C.2", "c.2 lower case"),
)


def _exhibit_item(text: str, letter: str, last: int) -> _Numbering | None:
    """An item of a lettered exhibit ("C.2 Maximum Liability of Sonos; Best Efforts. In the
    event ..."): labelled by the document's own numbering, "C.2" (GRAPH_GOLD), when it is
    the next item and opens with a title."""
    m = EXHIBIT_ITEM.search(text)
    if not m or m.group("letter") != letter or int(m.group(2)) not in (last + 1, last + 2):
        return None
    rest = m.group(3)
    if not (_run_in_title(rest) or _is_title(_tidy(rest).rstrip(":"))):
        return None
    return _Numbering(f"{letter}.{m.group(2)}", rest, 2, False, None, EXHIBIT_ITEM.id)


def _table_of_contents(lines: list[Line]) -> _Contents | None:
    """The document's table of contents, if it has one: from its heading to the first line
    that is not an entry (the text starting, a title line, a heading repeated from it)."""
    start = next((i for i, ln in enumerate(lines) if CONTENTS.search(ln.text)), None)
    if start is None:
        return None
    head = CONTENTS.search(lines[start].text)
    lead = lines[start].text[head.end() if head else 0 :].strip()
    lead = re.sub(r"^page\b\s*", "", lead, flags=re.IGNORECASE)
    entries: list[str] = [lead] if lead else []
    first: str | None = None
    end = start + 1
    for i in range(start + 1, len(lines)):
        text = lines[i].text
        if not text or text.lower() == "page":
            end = i + 1
            continue
        numbering = _numbering(text, markdown=True)
        is_entry = bool(CONTENTS_ENTRY.search(text) or len(list(CONTENTS_RUN.finditer(text))) >= 2)
        if not is_entry and numbering is None:
            break
        if not is_entry and numbering and first is not None and numbering.label == first:
            break  # the first entry again, without a page number: the text has begun
        if numbering and first is None:
            first = numbering.label
        entries.append(text)
        end = i + 1
    labels: set[str] = set()
    for entry in entries:
        for m in CONTENTS_LABEL.finditer(entry):
            if m.group("kw"):
                number = m.group("kwnum")
                article = m.group("kw").lower() == "article"
                labels.add(f"Article {number.upper()}" if article else _label(number))
            else:
                labels.add(_label(m.group("num")))
    if not labels:
        return None  # a heading called "Contents" with no entries under it
    while end > start + 1 and not lines[end - 1].text:
        end -= 1
    names = {_TOC_PAGE.sub("", entry).lower() for entry in entries}
    return _Contents(start, end, lead, frozenset(labels), frozenset(names))


def _names_a_document(heading: str) -> bool:
    """A heading that ends with a document noun: "SUPPLY AGREEMENT", "Leave Policy"."""
    words = re.findall(r"[A-Za-z]+", heading)
    return bool(words) and words[-1].lower() in DOC_NOUNS


# A filing whose document is itself an exhibit or schedule of another ("EXHIBIT C" /
# "AIRSOPURE FRANCHISE AGREEMENT" / "THIS AGREEMENT is entered into ..."): the unit's heading
# over the document's name, before any text, is the filing's label, part of the Title block.
FILED_AS_UNIT = rule(
    "heading.not_filed_as_unit",
    "heading",
    "an exhibit or schedule heading that opens the document over the document's own name "
    "(the filing is that exhibit): part of the Title block, not a section",
)


def _filed_as_unit(head: _Heading) -> bool:
    """Whether the document's first heading is the exhibit it was filed as (FILED_AS_UNIT):
    a unit whose title names a document ("Exhibit C - AIRSOPURE FRANCHISE AGREEMENT")."""
    return head.rule == APPENDIX.id and _names_a_document(head.heading)


def _absorb_title(
    lines: list[Line], headings: list[_Heading], pdf: bool = False, toc: _Contents | None = None
) -> tuple[list[_Heading], str | None]:
    """The document's name and what goes with it (banner, parties, date line) belong to the
    `Title` block: leading headings that are names, up to the first numbered heading, the
    contents, or a name that heads prose ("Status of this Memo", "Preamble"). The first
    heading is a name there when only short lines precede it. The block is named by the name
    it took in ("EXECUTION VERSION" / "INTELLECTUAL PROPERTY AGREEMENT": the longer) when
    at most a banner line ("Exhibit 10.4") precedes them. In a PDF, where type already told
    the headings (set larger or bold), a heading over any sentence heads a section; the name
    is the one set largest; up to its table of contents, a heading the contents do not list
    is one of the title pages' (an author, a licence notice: BEFORE_CONTENTS)."""
    absorbed: list[_Heading] = []
    contents = next((h.line for h in headings if h.contents), None) if toc else None
    body_size = _body_font_size(lines) if pdf else None
    for n, head in enumerate(headings):
        if head.contents:  # contents on the title pages: the title goes on after them
            absorbed.append(head)
            continue
        end = headings[n + 1].line if n + 1 < len(headings) else len(lines)
        # the first heading, or the document's name after a banner and a version line
        # ("Exhibit 10.2 / Execution Version / INTELLECTUAL PROPERTY AGREEMENT")
        opening = (n == 0 or _names_a_document(head.heading)) and not _has_prose(
            lines[: head.line], legends=False
        )
        # after the contents the title page may start again: the name as it was given before
        before = " ".join(ln.text for ln in lines[: head.line]).lower()
        after_contents = bool(absorbed) and absorbed[-1].contents and head.heading.lower() in before
        body = lines[head.body_from : end]
        if pdf and _title_page(head, contents, toc):
            absorbed.append(head)
            continue
        # set in the body's type, a heading is told by its words, as in plain text
        if pdf and _emphasised(lines[head.line], body_size) and _has_sentence(body):
            break
        if head.numbered and not (n == 0 and opening and _filed_as_unit(head)):
            break
        if not (opening or after_contents or not _has_prose(body)):
            break
        absorbed.append(head)
    if not absorbed:
        return headings, None
    front = [ln for ln in lines[: headings[0].line] if ln.text]
    name = None
    names = [h.heading for h in absorbed if not h.contents]
    sizes = [lines[h.line].size or 0.0 for h in absorbed if not h.contents]  # 0.0: unknown
    if names and all(sizes):  # a PDF's name is set largest (the first of equals)
        name = names[sizes.index(max(sizes))]
    elif len(front) <= 1 and names:  # the longest name without a date ("Dated as of") names it
        name = max([x for x in names if not re.search(r"\d", x)] or names[:1], key=len)
    return headings[len(absorbed) :], name


# A PDF's cover and copyright pages before its table of contents: a heading set there (an
# author line over the copyright notice) that the contents do not list is the Title's.
BEFORE_CONTENTS = rule(
    "heading.not_before_pdf_contents",
    "heading",
    "in a PDF, an unnumbered heading before its table of contents that the contents do not "
    "list: part of the title pages, not a section",
)


def _title_page(head: _Heading, contents: int | None, toc: _Contents | None) -> bool:
    """Whether a PDF's heading stands on the title pages (BEFORE_CONTENTS)."""
    if toc is None or contents is None or head.line > contents or len(toc.labels) < 3:
        return False
    return not head.numbered and not _in_contents(head.heading, toc)


_KEYWORD_HEAD = re.compile(r"^\s*(?:ARTICLE|Article)\s+[A-Z]")


def _drop_empty_names(
    lines: list[Line], headings: list[_Heading], toc: _Contents | None
) -> list[_Heading]:
    """Within the numbered text, a name that heads no prose is not a section but a line of
    the one before it: a signature block's party, an address, a table's column heading. Not a
    name its author underlined: a part's heading over its first sub-heading ("INTERNALS" over
    "On-disk state")."""
    kept: list[_Heading] = []
    numbered = False
    for n, head in enumerate(headings):
        end = headings[n + 1].line if n + 1 < len(headings) else len(lines)
        listed = toc is not None and head.heading.lower() in toc.names
        # an article said by its keyword heads its subsections ("ARTICLE ELEVEN APPLICABLE
        # LAW" over "11.1 The execution ..."), a number in words or not
        keyword = _KEYWORD_HEAD.match(lines[head.line].text) is not None
        marked = listed or head.rule == UNDERLINED.id or keyword
        if numbered and not (head.numbered or marked or _has_prose(lines[head.body_from : end])):
            continue
        numbered = numbered or (head.numbered and not head.contents)
        kept.append(head)
    return kept


def _has_sentence(lines: list[Line]) -> bool:
    """A paragraph that ends a sentence of three words or more ("Book through the portal.")."""
    return any(t.endswith(".") and len(t.split()) >= 3 for t in _paragraph_texts(lines))


# A filing's redaction legend before the document's name ("Confidential treatment has been
# requested for portions of this exhibit ..."): the filing's furniture, not the prose of a
# section, so the name after it still opens the Title block.
FILING_LEGEND = rule(
    "heading.filing_legend",
    "heading",
    "a filing's redaction legend before the document's name: furniture, not running text",
    pattern=r"\b(?:confidential\s+treatment|redacted|have\s+been\s+omitted|filed\s+separately"
    r"|confidential\s+portions)\b",
    flags=re.IGNORECASE,
    examples=(
        "Confidential treatment has been requested for portions of this exhibit.",
        "Portions of this exhibit have been redacted and filed separately with the Commission.",
    ),
    counter=("This Agreement is made between Acme Inc. and Beta LLC on the Effective Date.",),
)


# A signatory's fields under a party's name ("By: /s/ J. Smith Name: J. Smith Title: Vice
# President"), however long the filing ran them on one line: a form, not running text, so the
# party's name over it is a line of the signature block, not a section.
SIGNATORY = rule(
    "heading.not_signatory_fields",
    "heading",
    "a paragraph of a signatory's fields (By: ... Name: ... Title: ...): a signature block, "
    "not the prose a heading stands over",
    pattern=r"^(?i:by)\s*:.{0,120}?\b(?i:name|title|its)\s*:",
    examples=(
        "By: /s/ Jason Smith Name: Jason Smith Title: Vice President [Signature Page]",
        "BY: /S/ KATHLEEN DOE NAME: KATHLEEN DOE TITLE: PRESIDENT",
    ),
    counter=("By: the Company, which shall pay the fees.", "Name: J. Smith", "By signing below"),
)


def _has_prose(lines: list[Line], legends: bool = True) -> bool:
    """A paragraph that reads as running text, not a name, a party, a date line or a
    signatory's fields (nor, with `legends` False, a filing's redaction legend)."""
    return any(
        (len(t) >= 100 or (t.endswith(".") and len(t.split()) >= 8))
        and (legends or not FILING_LEGEND.search(t))
        and not SIGNATORY.search(t)
        for t in _paragraph_texts(lines)
    )


def _paragraph_texts(lines: list[Line]) -> Iterator[str]:
    """Each paragraph of `lines` (lines up to a blank one), joined."""
    for n, line in enumerate(lines):
        if line.text and (n == 0 or not lines[n - 1].text):
            yield join_lines([ln.text for ln in _paragraph(lines, n)])


def _article(text: str) -> _Numbering | None:
    """An article ("Article IV", "ARTICLE 2") or, numbered in words or as a chapter, a part
    of the text (KEYWORD_PART: "ARTICLE ONE DEFINITION", "Chapter 3 Cooperation Term")."""
    if m := ARTICLE.search(text):
        number = m.group(1)
        key = (int(number),) if number.isdigit() else (roman(number),)
        label = f"Article {number.upper()}"
        return _Numbering(label, m.group(2).strip(), 1, True, key, ARTICLE.id)
    if (m := KEYWORD_PART.search(text)) and _part_title(m["rest"]):
        number = m["words"] or m["n"]
        value = words_to_int(number) if m["words"] else None
        value = value or (int(number) if number.isdigit() else roman(number))
        name = "Article" if m["kw"] else "Chapter"
        label = f"{name} {number.title() if m['words'] else number.upper()}"
        return _Numbering(label, m["rest"].strip(), 1, True, (value,), KEYWORD_PART.id)
    return None


def _numbering(text: str, markdown: bool) -> _Numbering | None:
    text = _repair_keyword(text)
    if m := SECTION.search(text):
        number, sep, rest = m.group(1), m.group(2), m.group(3).strip()
        titled = _is_title(rest.rstrip(".")) or _run_in_title(rest)
        key = outline_key(number)
        if sep is None and rest and not titled:
            if rest[:1].isupper():  # "Section 8.4 This Agreement may ...": a clause, untitled
                return _Numbering(_label(number), rest, len(key), False, key, SECTION.id)
            return None  # "Section 4 applies to ..." is a sentence, not a heading
        return _Numbering(_label(number), rest, len(key), True, key, SECTION.id)
    if numbering := _article(text):
        return numbering
    if (m := ROMAN.search(text)) and re.fullmatch(_VALID_ROMAN, m.group("n")):
        number = m.group("n")
        return _Numbering(number, m.group("title"), 1, False, (roman(number),), ROMAN.id)
    if m := APPENDIX.search(text):
        if APPENDIX_IN_SENTENCE.search(m.group(3)):
            return None  # "APPENDIX C shall be updated ...": a sentence wrapped onto the line
        number = m.group(2)
        label = f"{m.group(1).capitalize()} {number[:1].upper()}{number[1:]}"  # "Schedule 1.1(e)"
        return _Numbering(label, m.group(3).strip(), 1, True, None, APPENDIX.id)
    if m := UNLETTERED.search(text):
        keyword = m.group(1) or m.group(3)
        rest = (m.group(2) or m.group(4) or "").strip()
        return _Numbering(keyword.capitalize(), rest, 1, True, None, UNLETTERED.id)
    if m := NUMBERED.search(text):
        number, dot, rest = m.groups()
        key = outline_key(number)
        if not (markdown or dot or "." in number):
            return None  # "2013 was a good year" is not section 2013
        return _Numbering(_label(number), rest.strip(), len(key), False, key, NUMBERED.id)
    if m := TIGHT_NUMBER.search(text):
        return _Numbering(m.group(1), m.group(2), 1, False, (int(m.group(1)),), TIGHT_NUMBER.id)
    return None


_VALID_ROMAN = r"(?:L|XL|X{0,3})(?:IX|IV|V?I{0,3})"


def _label(number: str) -> str:
    """The label a number is cited by: "2.0 SCOPE" is cited as "Section 2" (GRAPH_GOLD: no
    trailing dot; the ".0" of a top-level heading is the same decoration)."""
    return number[:-2] if re.fullmatch(r"\d{1,3}\.0", number) else number


def _run_in_title(rest: str) -> bool:
    """ "Right to Use. ETI grants ...": the clause opens with its own title."""
    m = RUN_IN.search(rest)
    return bool(m and _is_title(m.group(1), max_chars=100, max_words=14))


def _repair_keyword(text: str) -> str:
    """Read an OCR-damaged heading keyword as the keyword it was ("Secti0n 4", "Sec tion 4"
    -> "Section 4"); the line's text itself is left as written."""
    m = OCR_KEYWORD.search(text)
    if not m or m.group(1).lower() in _KEYWORDS:
        return text
    word = m.group(1).replace(" ", "").lower().translate(_OCR_LETTERS)
    for keyword in _KEYWORDS:
        if word == keyword or (len(word) == len(keyword) and fuzz.ratio(word, keyword) >= 85):
            return keyword.capitalize() + text[m.end() :]
    return text


def _label_and_heading(title: str, markdown: bool) -> tuple[str, str]:
    numbering = _numbering(title, markdown=markdown)
    if numbering and numbering.rest:
        return numbering.label, _tidy(numbering.rest)
    if numbering:
        return numbering.label, numbering.label
    return _tidy(title), _tidy(title)


def _is_sentence(text: str) -> bool:
    """A full sentence ('"Parties" means Sonos and IAC.'), not a title that ends with a dot
    ("SCOPE OF RELATIONSHIP.", "Definitions and interpretation.")."""
    return (
        text.endswith(".")
        and len(text.split()) >= 4
        and not _is_title(_tidy(text))
        and not text.isupper()
        and not _run_in_title(text)
    )


def _is_heading_block(para: list[Line], para_text: str) -> bool:
    """A paragraph that is all heading: one line, or a title wrapped over two lines (the
    second capitalised, no full stop), as opposed to a short numbered sentence."""
    if len(para) == 1:
        return len(para_text) <= _HEADING_MAX_CHARS
    return (
        len(para) <= _HEADING_MAX_LINES
        and len(para_text) <= _HEADING_MAX_CHARS
        and not para[1].text[0].islower()
        and not TERMINAL.search(para_text)
    )


def _paragraph(lines: list[Line], i: int) -> list[Line]:
    out = []
    while i < len(lines) and lines[i].text:
        out.append(lines[i])
        i += 1
    return out


def _is_title(text: str, max_chars: int = 70, max_words: int = 10) -> bool:
    """A short line in Title Case or CAPITALS, not ending like a sentence."""
    if not text or len(text) > max_chars or TERMINAL.search(text) or not text[0].isupper():
        return False
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", text)]
    if not words or len(words) > max_words:
        return False
    significant = [w for w in words if w.lower() not in _SMALL_WORDS]
    capitalised = [w for w in significant if w[0].isupper()]
    return len(capitalised) >= max(1, 0.75 * len(significant))


_MINOR_WORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"}
)


def _name_label(text: str) -> str:
    """The label of a heading that is only a name: the name, with one set in capitals written
    as a title ("RECITALS" -> "Recitals", "TERMS OF USE" -> "Terms of Use"), so the label
    reads as a reader cites it (GRAPH_GOLD: `Preamble`, `Recitals`); the heading keeps the
    text as printed."""
    name = _tidy(text)
    if not name.isupper():
        return name
    words = name.lower().split(" ")
    return " ".join(
        w if n and w in _MINOR_WORDS else w[:1].upper() + w[1:] for n, w in enumerate(words)
    )


def _tidy(text: str) -> str:
    text = _UNDERLINE_ART.sub("", text.strip()).strip("*_").strip()
    return text[:-1].rstrip() if text.endswith(".") and not text.endswith("..") else text


def _body_font_size(lines: list[Line]) -> float | None:
    sizes: Counter[float] = Counter()
    for line in lines:
        if line.size:
            sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else None


def _emphasised(line: Line, body_size: float | None) -> bool:
    if body_size is None or not line.size or not re.search(r"[A-Za-z]", line.text):
        return False
    return line.size >= body_size * 1.12 or (line.bold and len(line.text) <= 100)


def _heading_sizes(lines: list[Line], body_size: float) -> list[float]:
    return sorted(
        {ln.size for ln in lines if ln.size and ln.size >= body_size * 1.12}, reverse=True
    )


def _assemble(
    doc_id: str, lines: list[Line], headings: list[_Heading], name: str | None = None
) -> list[Section]:
    blocks: list[tuple[str, str, int, list[Line], str, int | None, list[Line]]] = []
    first = headings[0].line if headings else len(lines)
    front = [ln for ln in lines[:first] if ln.text]
    if front:
        label = FRONT_LABEL if headings else BODY_LABEL
        blocks.append(
            (label, name or front[0].text[:100], 1, lines[:first], "", front[0].page, lines[:first])
        )
    for n, head in enumerate(headings):
        end = headings[n + 1].line if n + 1 < len(headings) else len(lines)
        page = lines[head.line].page
        blocks.append(
            (
                head.label,
                head.heading,
                head.level,
                lines[head.body_from : end],
                head.lead,
                page,
                lines[head.line : end],
            )
        )

    sections: list[Section] = []
    seen: Counter[str] = Counter()
    stack: list[tuple[int, str]] = []
    for ordinal, (label, heading, level, body, lead, page, whole) in enumerate(blocks):
        sid = section_id(doc_id, label, seen[label])
        seen[label] += 1
        while stack and stack[-1][0] >= level:
            stack.pop()
        parent = stack[-1][1] if stack else None
        stack.append((level, sid))
        pages = [ln.page for ln in body if ln.page is not None and ln.text]
        located = [ln for ln in whole if ln.text and ln.start is not None]
        lead_line = whole[0] if lead and whole else None
        text, offsets = _body_text_mapped(lead, lead_line, body)
        sections.append(
            Section(
                section_id=sid,
                doc_id=doc_id,
                ordinal=ordinal,
                label=label,
                heading=heading,
                level=level,
                parent_id=parent,
                text=text,
                page_start=page,
                page_end=max([p for p in (page, *pages) if p is not None], default=None),
                char_start=located[0].start if located else None,
                char_end=max((ln.end or 0) for ln in located) if located else None,
                offsets=tuple(offsets),
            )
        )
    return sections


def _body_text_mapped(lead: str, lead_line: Line | None, body: list[Line]) -> tuple[str, list[int]]:
    """The section's text (paragraphs joined by blank lines) and each character's raw offset.
    The lead is the end of the heading line, so it maps onto that line's last characters."""
    first: list[Item] = []
    if lead:
        first = [(lead, None, None, None)]
        if lead_line and lead_line.text.endswith(lead):
            n = len(lead_line.text)
            at = lead_line.start, lead_line.end, lead_line.shifts
            first = [(lead, *sub_span(lead_line.text, *at, n - len(lead), n))]
        elif lead_line and lead_line.end is not None:
            first = [(lead, lead_line.end - len(lead), lead_line.end, None)]
    paragraphs: list[list[Item]] = [first]
    for line in body:
        if line.text:
            paragraphs[-1].append((line.text, line.start, line.end, line.shifts))
        elif paragraphs[-1]:
            paragraphs.append([])
    text = ""
    where: list[int] = []
    for para in (p for p in paragraphs if p):
        joined, offsets = join_lines_mapped(para)
        if text:
            text += "\n\n"
            where += [where[-1] + 1 if where and where[-1] >= 0 else -1] * 2
        text += joined
        where += offsets
    return text, where
