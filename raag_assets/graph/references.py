"""Finding references in text and resolving them to sections and documents.

A reference is a citation of one or more section labels ("see Section 4.2", "Sections 15 and
16", "subsection 6b", "Section 4.1 of the Leave Policy"), or of a whole document by name
("per the HR Handbook"). Each citation form is a rule of kind "citation" (graph/rules.py);
a mention names the form that found it, and its `references` edge carries that id.
Resolution looks in the citing document first, then across the tenant's documents by name
(fuzzy, rapidfuzz).
"""

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from raag_assets.core.model import DocInfo, SectionInfo
from raag_assets.graph.lexicon import DOC_NOUNS, UNIT_NOUNS, int_to_roman, roman_to_int
from raag_assets.graph.overlaps import Span, inside, overlaps
from raag_assets.graph.rules import RULES, Rule, rule

KEYWORDS = {
    "section": "Section",
    "sections": "Section",
    "sect.": "Section",
    "§": "Section",
    "§§": "Section",
    "subsection": "Section",
    "subsections": "Section",
    "clause": "Clause",
    "clauses": "Clause",
    "article": "Article",
    "articles": "Article",
    "paragraph": "Paragraph",
    "paragraphs": "Paragraph",
}
_OCR_KEYWORDS = ("section", "sections", "subsection", "clause", "clauses", "article", "paragraph")
# A label may carry a letter ("6b", "27A") and lettered items ("2.1(b)(iv)"); a statute's
# section may run to four decimals ("1.1441").
_LABEL = r"(?:\d{1,5}(?:\.\d{1,4})*(?:[a-zA-Z](?![a-zA-Z]))?(?:\([a-z0-9]{1,4}\))*|[IVXLC]{1,6}\b)"
_JOIN = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*(?:through|to|-|–)\s*)"
# Words a document name is made of: capitalised words, with small words inside.
_CAP_WORD = r"[A-Z][A-Za-z0-9'’-]*(?:\.[A-Za-z0-9]+)*"
_NAME_WORD = rf"(?:{_CAP_WORD}|of|and|for|on|to|the|&)"
DOC_NAME = (
    rf"{_CAP_WORD}(?:\s+{_NAME_WORD}){{0,7}}(?:\s+\((?:Rev\.?|Revision|Version|v)\s*[\w.]+\))?"
)
# A statute, code or rule book cited after "of" or "under" ("Section 16(b) of the Securities
# Exchange Act of 1934", "Section 5 under the 1933 Act", "Section 4971 of the Code"): the
# labels are that law's, never the citing document's.
_LAW_NOUN = (
    r"(?:Act|Law|Code|Rules?|Regulations?|Statutes?|Constitution|Treaty|Convention"
    r"|ACT|LAW|CODE|RULES?|REGULATIONS?)"  # "OF THE NEW YORK GENERAL OBLIGATIONS LAW"
)
LAW_NAME = (
    rf"(?:(?:1[89]|20)\d\d\s+)?(?:{_CAP_WORD}\s+(?:{_NAME_WORD}\s+){{0,6}})?{_LAW_NOUN}\b"
    r"(?:\s+of\s+(?:1[89]|20)\d\d\b)?"
    r"|[A-Z]{2,6}['’]s\s+(?:rules|regulations)\b"  # "Section 73.3555 of the FCC's rules"
    r"|[A-Z]{2,6}(?![\w.-])"  # "section 406 of ERISA"
)
# A document named without its article ("Section 8.3 of Asset Purchase Agreement"): only
# capitalised words that end in a document's noun, so "Section 5 of Exhibit A" is no name.
_BARE_DOC_NAME = (
    rf"(?:{_CAP_WORD}\s+){{1,6}}(?:{'|'.join(sorted(n.capitalize() for n in DOC_NOUNS))})\b"
)
_OF_DOC = (
    rf"(?:\s+(?i:of|under)\s+(?:(?i:the)\s+)?(?P<law>{LAW_NAME})"
    r"(?![ \t]+(?:[A-Z]|(?:of|for|on)\s+[A-Z]))"
    r"|\s+of\s+(?:(?P<self>this\s+(?:License|Licence|Agreement|Policy|Amendment|document|"
    rf"Handbook|Guideline|Guide|Contract))|the\s+(?P<name>{DOC_NAME})|(?P<bare>{_BARE_DOC_NAME})))?"
)
# A heading in brackets after a cited label ("Section 10.3 [ACSI Termination] and 10.4 [Company
# Termination]"): a drafting convention that names the section; the list goes on after it.
_HEADING_NOTE = r"(?:\s*\[[^\[\]\n]{1,60}\])"
# A quoted heading in parentheses after the cited label ('Section 7 ("Fees") of the Services
# Agreement'): part of the citation, so the document named after it is the one cited.
_QUOTED_HEADING = r"(?:\s*\(\s*[\"“][^\"“”()\n]{1,60}[\"”]\s*\))"

# The citation forms, in the order find_mentions tries them: an earlier form's mention wins
# the text it covers. Labels cited resolve with their own confidence (1.0 here); a named
# document is less certain to be the tenant's document of that name.
SECTION_LABEL = rule(
    "references.section_label",
    "citation",
    "a keyword and one or more section labels, optionally of a named document",
    edge_type="references",
    confidence=1.0,
    pattern=(
        rf"(?P<kw>\b[Ss]ections?\b|\b[Ss]ect\.|§§?|\b[Ss]ubsections?\b|\b[Cc]lauses?\b|"
        rf"\b[Aa]rticles?\b|\b[Pp]aragraphs?\b|\bARTICLES?\b|\bSECTIONS?\b)"  # "ARTICLE VIII"
        rf"\s*(?P<labels>{_LABEL}(?:{_HEADING_NOTE}?{_JOIN}{_LABEL})*)"
        rf"(?:{_QUOTED_HEADING}(?=\s+of\s+th(?:e|is)\s))?{_OF_DOC}"
    ),
    examples=(
        "as set out in Section 4.2 above",
        'Section 7 ("Fees") of the Services Agreement is amended',
        "Sections 15 and 16 survive termination",
        "the rights in Article VIII of this Agreement",
        "as described in subsection 6b",
    ),
    counter=("the sections of the report", "this clause applies to all staff"),
)
# Exhibits, schedules, annexes and appendices: cited with a capital, lettered or numbered.
# A schedule numbered for its section may carry a letter: "Schedule 1.1(e)".
# "Schedule 3.5.1" is one label: its last number is no full stop after "Schedule 3.5".
_ANNEX_LABEL = r"(?:[A-Z](?:-\d{1,2})?|\d{1,2}(?:(?:\.\d{1,2}){1,2}(?:\([a-z]\))?)?)(?!\w)"
# The letter in quotes, as some drafters write it: Schedule "A".
_QUOTED_ANNEX_LABEL = rf"[\"“]?{_ANNEX_LABEL}[\"”]?"
ANNEX = rule(
    "references.annex",
    "citation",
    "an exhibit, schedule, annex, appendix or attachment, lettered or numbered, its keyword "
    "capitalised or in capitals ('EXHIBIT A')",
    edge_type="references",
    confidence=1.0,
    pattern=(
        r"\b(?P<kw>Exhibit|Schedule|Annex|Appendix|Attachment|EXHIBIT|SCHEDULE|ANNEX|APPENDIX"
        r"|ATTACHMENT)(?:s|S)?\s+"
        rf"(?P<labels>{_QUOTED_ANNEX_LABEL}(?:{_JOIN}{_QUOTED_ANNEX_LABEL})*)"
        rf"{_OF_DOC}"
    ),
    examples=(
        "the prices listed in Exhibit A",
        "Schedules 1 and 2 form part of it",
        "SEE THE TERM SHEET (EXHIBIT A) ATTACHED",
        'the meanings set out on Schedule "A" to this Agreement',
        "the plan in Schedule 2.3.2",
    ),
    counter=("the Schedule of payments", "an exhibit of paintings", "an EXHIBITION of art"),
)
# A defined name of an annex of this document: 'the Statement of Work ("SOW") that is attached
# hereto as Appendix A', 'a confidentiality agreement (the "Confidentiality Agreement"), a copy
# of which has been attached hereto as Exhibit A', 'attached hereto as Exhibit B (the "Escrow
# Agreement")'. The drafter then cites the annex by that name ("as set forth in the SOW"):
# each use of the name is a citation of the annex (GRAPH_GOLD.md: "any explicit citation by
# number, label or name"), and the name a term of art (it points at a part of this document).
ANNEX_NAME = rule(
    "references.annex_name",
    "citation",
    "a use of a name the document gives one of its annexes where it defines it ('the "
    'Statement of Work ("SOW") that is attached hereto as Appendix A\'): a citation of the annex',
    edge_type="references",
    confidence=0.9,
    pattern=r"(?:\b(?:a\s+copy\s+of\s+which|which|that)\s+(?:has\s+been|is|shall\s+be|are)\s+)?"
    r"(?:\bin\s+(?:substantially\s+)?the\s+form\s+)?\b(?:attached|annexed|appended)\s+"
    r"(?:hereto\s+|to\s+this\s+[A-Z]\w+\s+)?as\s+"
    r"(?P<kw>Exhibit|Schedule|Annex|Appendix|Attachment)\s+(?P<label>[A-Z](?:-\d{1,2})?|\d{1,2})"
    r"(?![\w-])",
    examples=(
        "that is attached hereto as Appendix A",
        ", a copy of which has been attached hereto as Exhibit A",
        "in substantially the form attached hereto as Exhibit B",
    ),
    counter=("attached hereto", "as set forth in Exhibit A", "attached hereto as exhibit a"),
)
# What may stand between a quoted name and the annex phrase after it: a comma; before a
# "means" definition's body, its verb and a short noun phrase ('"SOW" means the statement of
# work attached hereto as Exhibit A'), not a phrase that names something in the annex ('the
# products listed in the price list attached ...': the products are no annex)
_BEFORE_ANNEX_PHRASE = (
    r"[\s,)”\"]*(?i:(?:shall\s+)?means?\s+(?:the|a|an|each)\s+"
    r"(?:(?!(?:in|on|at|to|for|by|with|under|from|listed|described|set|contained|included|"
    r"identified|specified)\b)[\w-]+\s+){1,5}?)?"
)
_ANNEX_AFTER = re.compile(_BEFORE_ANNEX_PHRASE + ANNEX_NAME.regex.pattern)


def annex_named(before: str, after: str) -> str | None:
    """The annex ("Appendix A") a definition names, from the text just before it and just
    after it, or None: the annex phrase (ANNEX_NAME) must follow the defined name at once or
    end right before it ('attached hereto as Exhibit B (the "Escrow Agreement")')."""
    m = _ANNEX_AFTER.match(after)
    if m is None:
        tail = before.rstrip(" ,")
        m = next((x for x in ANNEX_NAME.regex.finditer(tail) if x.end() == len(tail)), None)
    return f"{m.group('kw')} {m.group('label')}" if m else None


NAMED_SECTION = rule(
    "references.named_section",
    "citation",
    "a section cited by its heading, optionally of a named document",
    edge_type="references",
    confidence=1.0,
    pattern=(
        r"\bthe\s+(?:section|clause|part)\s+(?:on|about|entitled|titled|headed|called)\s+"
        r"[“\"]?(?P<title>[^“”\".,;:()]{3,80}?)[”\"]?(?=\s+(?:in|of)\s+the\s+|[.,;:)]|$)"
        rf"(?:\s+(?:in|of)\s+the\s+(?P<name>{DOC_NAME}))?"
    ),
    examples=(
        'as stated in the section entitled "Termination".',
        "see the clause on confidentiality in the Services Agreement.",
    ),
    counter=("this section applies to all employees.",),
)
# A decimal section number cited without its keyword after a citing cue ("If a termination
# notice is delivered pursuant to 15.2, 15.3, 15.4"); not a quantity ("under 2.5 million").
_DOTTED = r"\d{1,3}(?:\.\d{1,3}){1,3}"
BARE_NUMBER = rule(
    "references.bare_number",
    "citation",
    "a decimal section number without its keyword, after a citing cue",
    edge_type="references",
    confidence=1.0,
    pattern=(
        r"\b(?:pursuant\s+to|in\s+accordance\s+with|subject\s+to|(?:set\s+forth|specified|"
        rf"described|provided)\s+in)\s+(?P<labels>{_DOTTED}(?:{_JOIN}{_DOTTED})*)"
        r"(?![\w%$]|\.\d|\s*(?:%|percent|million|billion|thousand|times|per\b|[A-Za-z]+s?\s+of\b)"
        r"|\s+of\s+the\b)"
    ),
    examples=("an invoice issued pursuant to 7.2 or 7.3", "as specified in 4.1.2, the fee"),
    counter=("subject to 2.5 million units", "pursuant to 3.5 percent of the price"),
)
# Texinfo's cross-reference, in every GNU manual set from Texinfo: printed, the node's name in
# brackets and the page it starts on ("See Section 2.2 [Naming], page 3", "[asn1 der coding],
# page 16"); in Info, "*note Naming::" or "*note the naming rules: Naming.". The name is a
# section's heading, or the name of an entry inside one.
TEXINFO_XREF = rule(
    "references.texinfo_xref",
    "citation",
    "a Texinfo cross-reference: a node's name in brackets then the page it is on, or an Info "
    "'*note' to a node",
    edge_type="references",
    confidence=0.95,
    pattern=r"\[(?P<title>[^\[\]\n]{2,80}?)\],?\s+page\s+\d{1,4}\b"
    r"|\*[Nn]ote\s+(?:[^:\n]{1,80}:\s+)?(?P<node>[^:.,\n]{2,80}?)(?:::|[.,])",
    examples=(
        "See Section 2.2 [Naming], page 3.",
        "• [asn1 decode simple der], page 22,",
        "see *note Naming::, for the rules",
        "*Note the naming rules: Naming.",
    ),
    counter=("Section 10.3 [ACSI Termination] and 10.4", "the array [0], page size", "a note:"),
)
# "the preamble hereof", "the recitals": the unnumbered block before the first section.
FRONT_MATTER = rule(
    "references.front_matter",
    "citation",
    "the preamble or the recitals: the unnumbered block before the first section",
    edge_type="references",
    confidence=1.0,
    pattern=r"\bthe\s+(?P<part>preamble|recitals)\b",
    flags=re.IGNORECASE,
    examples=("as stated in the recitals", "the Preamble hereof"),
    counter=("a preamble of sorts",),
)
# "in the form shown in the Addendum below": a document's one unlettered appendix, by name.
UNLETTERED_APPENDIX = rule(
    "references.unlettered_appendix",
    "citation",
    "a document's one appendix, addendum or annex, cited without a letter",
    edge_type="references",
    confidence=1.0,
    pattern=r"\bthe\s+(?P<part>Addendum|Appendix|Annex)\b(?!\s*[A-Z0-9])",
    examples=("a notice as set out in the Addendum below",),
    counter=("the prices in the Appendix B table", "the appendix"),
)
# Documents of a numbered series: "RFC 1234", "[RFC-2822]", "BCP 14", "ISO/IEC 27001".
NUMBERED_DOCUMENT = rule(
    "references.numbered_document",
    "citation",
    "a document of a numbered series (RFC, BCP, STD, FYI, ISO, IEC, IEEE)",
    edge_type="references",
    confidence=0.9,
    pattern=(
        r"\b(?P<series>RFC|BCP|STD|FYI|ISO(?:/IEC)?|IEC|IEEE)\s?-?\s?"
        r"(?P<number>\d{1,5}(?:[.-]\d{1,3})?)\b"
    ),
    examples=("as described in RFC 2119", "certified to ISO/IEC 27001"),
    counter=("the RFC editor",),
)
# A whole document by its name: "per the HR Handbook" (find_mentions keeps a name that ends
# with a document noun or is an acronym: is_doc_name).
NAMED_DOCUMENT = rule(
    "references.named_document",
    "citation",
    "a document by its name, after a citing cue or its article",
    edge_type="references",
    confidence=0.9,
    pattern=(
        r"\b(?P<cue>per|under|see|in\s+accord(?:ance)?\s+with|as\s+(?:described|set\s+out|"
        r"defined|specified|provided|recorded|explained)\s+in|pursuant\s+to|according\s+to|in|of)"
        rf"\s+the\s+(?:[a-z]{{3,12}}\s+)?(?P<name>{DOC_NAME})"
        rf"|\b(?P<bare>[Tt]he)\s+(?:[a-z]{{3,12}}\s+)?(?P<name2>{DOC_NAME})"
    ),
    examples=(
        "leave is booked per the HR Handbook",
        "The Travel Policy applies",
        "they refer to the ordinary GNU General Public License",
    ),
    counter=("the goods shall be delivered",),
)
# "version 2 of the GNU General Public License": the version a named document is cited in.
DOCUMENT_VERSION = rule(
    "citation.document_version",
    "citation",
    "a version number just before 'of the <document>'",
    pattern=r"\b[Vv]ersion\s+(?P<v>\d+(?:\.\d+)*)\s+$",
    examples=("licensed under version 3 ",),
    counter=("version 3 of the License",),
)
# A section of a code of laws cited by its title number and code ("42 U.S.C. § 1395nn",
# "41 CFR §60-300.5"): the section is the code's, never the citing document's.
STATUTE_CODE = rule(
    "citation.statute_code",
    "citation",
    "a title number and a code's abbreviation just before a section sign or keyword",
    pattern=(
        r"\b(?P<code>\d{1,3}\s+(?:U\.\s?S\.\s?C\.?(?:\s?A\.?)?|USCA?|C\.\s?F\.\s?R\.?|CFR"
        r"|C\.\s?C\.\s?R\.?|CCR))(?:\s+(?:Part|Sec\.?))?\s*$"
    ),
    examples=("the Stark Law (42 U.S.C. ", "as required by 41 CFR ", "and 22 CCR "),
    counter=("in 42 days ", "the CFR table of contents "),
)
# A law named just before the keyword ("California Civil Code section 1654", "the Code Section
# 409A", "General Obligations Law Sections 5-1401"): the section is that law's.
LAW_BEFORE = rule(
    "citation.law_before",
    "citation",
    "a code, act, law, rules or regulations named just before a section keyword",
    pattern=r"\b(?P<law>(?:[A-Z][\w.]*\s+){0,4}(?:Code|Act|Law|Regulations?|Rules?))\s*[,(]?\s*$",
    examples=("pursuant to California Civil Code ", "the Cosmetic Act (", "of the Code "),
    counter=("as set out in this Agreement ", "the code "),
)
# The filing's own exhibit number opening its text ("Exhibit 10.1", "EX-10.27"), or the text
# calling itself by it ("omitted from this Exhibit 10.8"): a banner the filer puts on the
# document, not a citation of an exhibit of it.
FILING_BANNER = rule(
    "citation.filing_banner",
    "citation",
    "a numbered exhibit label opening the document's text: the filing's banner",
    pattern=(
        # after a page number the filing printed first ('1 EXHIBIT 10.5')
        r"\A\W*(?:\d{1,3}\s+)?(?:Exhibit|EXHIBIT|EX-)\s*\d{1,3}(?:\.\d{1,3})?[A-Za-z]?\b"
        # after the filer's furniture (a legend in capitals, a form type, a contract number):
        # no word of a sentence before it, a capitalised word after it
        r"|\A\W*(?:(?![a-z])\S+\s+){1,60}?(?:Exhibit|EXHIBIT)\s+\d{1,3}\.\d{1,3}[A-Za-z]?\b"
        r"(?=\s+[A-Z])"
        r"|\b[Tt]his\s+Exhibit\s+\d{1,3}\.\d{1,3}\b"
        # the banner repeated on a page of the filing: a paragraph of its own
        r"|(?:^|\n)[ \t]*(?:Exhibit|EXHIBIT)\s+\d{1,3}\.\d{1,3}[A-Za-z]?[ \t]*(?=\n|$)"
    ),
    examples=(
        "Exhibit 10.1  SUPPLY AGREEMENT",
        "EX-10.27 Confidential",
        "portions of this Exhibit 10.8 were omitted",
        "the Commission.\n\nExhibit 10.16\n\nEL BANCO FINANCIAL CORPORATION",
        "1 EXHIBIT 10.5  HOSTING AGREEMENT",
        "Acme Corp. 8-K Exhibit 10.1 SUPPLY AGREEMENT",
        "OMITTED PORTIONS ARE MARKED [*]. Exhibit 10.2 Execution Version",
    ),
    counter=(
        "the prices listed in Exhibit 10.1",
        "Exhibit A  Price List",
        "this Exhibit A",
        "Prices are set out in Exhibit 4.2 Price List",
        "Exhibit A sets the fees. Exhibit 4.2 Price List",
    ),
)
# An OCR-damaged keyword before a number ("Secti0n 4.2"): repaired before the forms run, its
# citations a little less certain.
OCR_KEYWORD = rule(
    "citation.ocr_keyword",
    "citation",
    "a word before a number that may be an OCR-damaged section keyword",
    confidence=0.9,
    pattern=r"\b(?P<kw>[A-Za-z0-9][A-Za-z0-9]{4,10})(?=\s+\d)",
    examples=("as required by Secti0n 4.2",),
    counter=("as required by the law",),
)


@dataclass(frozen=True)
class Mention:
    """A reference as written, before resolution."""

    start: int
    end: int
    text: str  # matched text, corrected if the keyword was OCR-damaged
    kind: str  # "labels" | "document" | "named_section"
    labels: tuple[str, ...] = ()
    doc_name: str | None = None  # a named document, or None for "this document"
    title: str | None = None  # the heading a named-section reference gives
    raw: str | None = None  # the text as written when `text` was corrected
    rule: str = field(kw_only=True)  # the id of the citation form that found it


def correct_ocr(text: str) -> tuple[str, dict[int, str]]:
    """Repair OCR-damaged section keywords ("Secti0n 4.2" -> "Section 4.2"): same length,
    one edit away, same first letter. Returns the text and the raw tokens by offset."""
    raw: dict[int, str] = {}
    out = text
    for m in OCR_KEYWORD.finditer(text):
        token = m.group("kw")
        lower = token.lower()
        if lower in KEYWORDS:
            continue
        for keyword in _OCR_KEYWORDS:
            if (
                len(lower) == len(keyword)
                and lower[0] in (keyword[0], "5" if keyword[0] == "s" else keyword[0])
                and OSA.distance(lower, keyword) == 1
            ):
                fixed = keyword.capitalize() if token[0].isupper() or token[0] == "5" else keyword
                out = out[: m.start()] + fixed + out[m.end() :]
                raw[m.start()] = token
                break
    return out, raw


# A document's own range citation spans a few sections ("Sections 2 through 13"); "5-140" or
# "5-1401" is one hyphenated number of a statute, never a hundred sections.
_RANGE_MAX = 50


def _range(first: str, last: str) -> list[str] | None:
    """The labels from `first` to `last` inclusive: "2"-"4", "2.1"-"2.4", "II"-"IV"; None when
    the two are not of one series or span more than _RANGE_MAX labels."""
    a, b = (
        first.rsplit(".", 1) if "." in first else ("", first),
        (last.rsplit(".", 1) if "." in last else ("", last)),
    )
    if (
        a[0] == b[0]
        and a[1].isdigit()
        and b[1].isdigit()
        and int(a[1]) < int(b[1]) <= int(a[1]) + _RANGE_MAX
    ):
        prefix = f"{a[0]}." if a[0] else ""
        width = len(a[1]) if a[1].startswith("0") else 0  # "2.01 through 2.04"
        return [f"{prefix}{str(n).zfill(width)}" for n in range(int(a[1]), int(b[1]) + 1)]
    ra, rb = roman_to_int(first), roman_to_int(last)
    if ra and rb and ra < rb <= ra + _RANGE_MAX and first.isupper() and last.isupper():
        return [int_to_roman(n) for n in range(ra, rb + 1)]
    return None


def expand_labels(labels_text: str) -> tuple[str, ...]:
    """'15 and 16' -> (15, 16); '2 through 4' -> (2, 3, 4); '1.1, 1.2' -> (1.1, 1.2);
    '2.1 through 2.3' -> (2.1, 2.2, 2.3); 'II through IV' -> (II, III, IV)."""
    labels_text = re.sub(_HEADING_NOTE, "", labels_text)
    # "A-1" is one label (Exhibit A-1, the first part of Exhibit A), not a range from A to 1:
    # a hyphen between a capital letter and a number joins them.
    parts = re.split(
        r"(\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*(?:through|to|–|(?<![A-Z])-|-(?!\d))\s*)",
        labels_text,
    )
    labels: list[str] = []
    pending_range = False
    for part in parts:
        token = part.strip()
        if not token:
            continue
        if token in ("through", "to", "-", "–"):
            pending_range = True
            continue
        if re.fullmatch(r",?\s*(and|or)?", token):
            continue
        span = _range(labels[-1], token) if pending_range and labels else None
        if span:
            labels.extend(span[1:])
        else:
            labels.append(token)
        pending_range = False
    return tuple(dict.fromkeys(labels))


# A citation form: the mentions its rule finds in the (OCR-corrected) text, each with the span
# it claims against the mentions of earlier forms (the whole match, where the mention itself
# is trimmed to its document name).
Claim = tuple[Span, Mention]
Form = Callable[[str, dict[int, str]], Iterator[Claim]]


def find_mentions(text: str) -> list[Mention]:
    """Every reference in a section's text, in order of position. The forms run in order; a
    match that overlaps a mention of an earlier form is left out."""
    fixed, raw = correct_ocr(text)
    mentions: list[Mention] = []
    taken: list[Span] = []
    for form in _FORMS:
        for (start, end), mention in form(fixed, raw):
            if not overlaps(start, end, taken):
                mentions.append(mention)
                taken.append((mention.start, mention.end))
    mentions.sort(key=lambda x: (x.start, x.end))
    return _shared_documents(fixed, _keyword_ranges(fixed, mentions))


# "Section 4.1 through Section 4.11": a range whose last label repeats the keyword.
KEYWORD_RANGE = rule(
    "citation.keyword_range",
    "citation",
    "two citations of one kind joined by 'through' or 'to': the range between them",
    pattern=r"\s+(?:through|thru|to)\s+",
    examples=("Section 4.1 through Section 4.11",),
    counter=("Section 4.1 and Section 4.11",),
)


def _keyword_ranges(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Section 4.1 through Section 4.5' -> one citation of 4.1, 4.2, ... 4.5."""
    out: list[Mention] = []
    for m in mentions:
        prev = out[-1] if out else None
        span = (
            _range(prev.labels[-1], m.labels[0])
            if prev
            and prev.rule == m.rule == SECTION_LABEL.id
            and not prev.doc_name
            and prev.labels
            and m.labels
            and KEYWORD_RANGE.regex.fullmatch(text, prev.end, m.start)
            else None
        )
        if prev and span:
            labels = tuple(dict.fromkeys((*prev.labels, *span, *m.labels)))
            out[-1] = replace(
                prev, end=m.end, text=text[prev.start : m.end], labels=labels, doc_name=m.doc_name
            )
        else:
            out.append(m)
    return out


# "Section 13(d) or Section 14(d) of the Exchange Act": citations joined in a list share the
# document the last one names.
_LIST_JOIN = re.compile(r"\s*(?:,\s*)?(?:(?:and|or|and/or)\s+)?")


def _shared_documents(text: str, mentions: list[Mention]) -> list[Mention]:
    """Each labels citation without a document takes the document of the labels citation
    that follows it in one list ("Section 27A or Section 21E of the 1934 Act")."""
    out = list(mentions)
    for i in range(len(out) - 2, -1, -1):
        m, nxt = out[i], out[i + 1]
        if m.kind != "labels" or m.doc_name or nxt.kind != "labels" or not nxt.doc_name:
            continue
        if m.rule != SECTION_LABEL.id or nxt.rule != SECTION_LABEL.id:
            continue
        if _LIST_JOIN.fullmatch(text, m.end, nxt.start):
            out[i] = replace(m, doc_name=nxt.doc_name)
    return out


def _cited_name(m: re.Match[str]) -> str | None:
    """The other document a labels citation names: a law ("of the Securities Act of 1933"),
    a document by its name ("of the Services Agreement"), or None (this document)."""
    if m.group("law"):
        return " ".join(m.group("law").split())
    if m.group("bare"):
        return clean_name(m.group("bare"))
    return clean_name(m.group("name")) if m.group("name") else None


def _end_of_document(m: re.Match[str], name: str | None) -> int:
    """Where a labels citation ends: after its document's name as cleaned, after "of this
    Agreement", or after its labels."""
    if m.group("law"):
        return m.end("law")
    if name and m.group("name"):
        return m.start("name") + len(name)
    if name and m.group("bare"):
        return m.end("bare")
    return m.end("self") if m.group("self") else m.end("labels")


# A section cited as a part of an attachment or of a document named before ("section 7 of
# Exhibit A", "Section 3 of Schedule 2 of the Supply Agreement", "Section 8.14 thereof"): not
# this document's section 7; the attachment is cited in its own right (references.annex).
OF_AN_ATTACHMENT = rule(
    "citation.section_of_an_attachment",
    "citation",
    "a cited section followed by 'of Exhibit A' (an attachment's own numbering: the "
    "attachment is the cited unit) or 'thereof' (a document named before): no edge to this "
    "document's section of that number",
    pattern=rf"\s*(?:,\s*)?(?:thereof\b|of\s+(?:this\s+|the\s+)?(?i:{UNIT_NOUNS})\s+[\w.-]+)",
    examples=(" of Exhibit A, the term", " thereof.", " of this Schedule 2"),
    counter=(" of this Agreement", " hereof", " above"),
)


def _section_labels(fixed: str, raw: dict[int, str]) -> Iterator[Claim]:
    for m in SECTION_LABEL.finditer(fixed):
        if not m.group("self") and OF_AN_ATTACHMENT.regex.match(fixed, m.end("labels")):
            continue
        labels = expand_labels(m.group("labels"))
        if KEYWORDS.get(m.group("kw").lower()) == "Article":
            labels = tuple(f"Article {lb}" for lb in labels)
        # "Section 11 of the WIPO ..." cites another document even if we cannot name it well:
        # it must not resolve into the citing one.
        name = _cited_name(m)
        before = fixed[max(0, m.start() - 60) : m.start()]
        code = STATUTE_CODE.search(before[-30:]) or LAW_BEFORE.search(before)
        if code and not name:
            # "42 U.S.C. § 1395nn", "Civil Code section 1654": the code's
            name = " ".join(code.group(code.lastgroup or 0).split())
        end = _end_of_document(m, name)
        raw_kw = raw.get(m.start())
        as_written = (raw_kw + fixed[m.start() + len(m.group("kw")) : end]) if raw_kw else None
        mention = Mention(
            m.start(),
            end,
            fixed[m.start() : end],
            "labels",
            labels,
            doc_name=name,
            raw=as_written,
            rule=SECTION_LABEL.id,
        )
        yield (m.start(), m.end()), mention


# What follows a section's opening "EXHIBIT C" that labels the document rather than cites an
# attachment: the end of its line, or a title in capitals ("EXHIBIT C FRANCHISE AGREEMENT").
_OVER_TITLE = re.compile(r"[ \t]*(?:\n|$|[A-Z][A-Z'&,-]+\b(?!\s+[a-z]))")


def _annexes(fixed: str, raw: dict[int, str]) -> Iterator[Claim]:
    banners = [(b.start(), b.end()) for b in FILING_BANNER.finditer(fixed)]
    # the banner's number repeated further on (on the next page of the filing) is the banner
    numbers = {n for b, e in banners for n in re.findall(r"\d{1,3}\.\d{1,3}", fixed[b:e])}
    for m in ANNEX.finditer(fixed):
        if inside(m.start(), banners) or (
            m.group("kw").lower() == "exhibit" and m.group("labels") in numbers
        ):
            continue  # "Exhibit 10.1" heading the filing: the document's own number
        if m.start() == 0 and m.group("kw").isupper() and _OVER_TITLE.match(fixed, m.end()):
            continue  # "EXHIBIT C" over the title in capitals: the label it was filed under
        kw = m.group("kw").capitalize()
        as_listed = re.sub(r"[\"“”]", "", m.group("labels"))
        labels = tuple(f"{kw} {lb}" for lb in expand_labels(as_listed))
        name = _cited_name(m)
        end = _end_of_document(m, name)
        mention = Mention(
            m.start(), end, fixed[m.start() : end], "labels", labels, name, rule=ANNEX.id
        )
        yield (m.start(), m.end()), mention


def _named_sections(fixed: str, raw: dict[int, str]) -> Iterator[Claim]:
    for m in NAMED_SECTION.finditer(fixed):
        name = m.group("name")
        mention = Mention(
            m.start(),
            m.end(),
            m.group(0),
            "named_section",
            title=m.group("title").strip(),
            doc_name=clean_name(name) if name and is_doc_name(name) else None,
            rule=NAMED_SECTION.id,
        )
        yield (m.start(), m.end()), mention


def _texinfo_xrefs(fixed: str, raw: dict[int, str]) -> Iterator[Claim]:
    for m in TEXINFO_XREF.finditer(fixed):
        title = " ".join((m.group("title") or m.group("node")).split())
        mention = Mention(
            m.start(), m.end(), m.group(0), "named_section", title=title, rule=TEXINFO_XREF.id
        )
        yield (m.start(), m.end()), mention


def _bare_numbers(fixed: str, raw: dict[int, str]) -> Iterator[Claim]:
    for m in BARE_NUMBER.finditer(fixed):
        start = m.start("labels")  # the cue before the labels is context, not the citation
        labels = expand_labels(m.group("labels"))
        mention = Mention(
            start, m.end(), fixed[start : m.end()], "labels", labels, rule=BARE_NUMBER.id
        )
        yield (start, m.end()), mention


def _parts(part_rule: Rule) -> Form:
    """A form citing one unnumbered part by its name: "the recitals", "the Addendum"."""

    def found(fixed: str, raw: dict[int, str]) -> Iterator[Claim]:
        for m in part_rule.finditer(fixed):
            label = m.group("part").capitalize()
            mention = Mention(m.start(), m.end(), m.group(0), "labels", (label,), rule=part_rule.id)
            yield (m.start(), m.end()), mention

    return found


def _numbered_documents(fixed: str, raw: dict[int, str]) -> Iterator[Claim]:
    for m in NUMBERED_DOCUMENT.finditer(fixed):
        name = f"{m.group('series')} {m.group('number')}"
        mention = Mention(
            m.start(), m.end(), m.group(0), "document", doc_name=name, rule=NUMBERED_DOCUMENT.id
        )
        yield (m.start(), m.end()), mention


def _named_documents(fixed: str, raw: dict[int, str]) -> Iterator[Claim]:
    for m in NAMED_DOCUMENT.finditer(fixed):
        group = "name" if m.group("name") else "name2"
        name = clean_name(m.group(group))
        end = m.start(group) + len(name)
        if not is_doc_name(name):
            continue
        if _acronym(name) and re.match(r"\s+[a-z]", fixed[end:]):
            continue  # "the HR system": an acronym modifying a common noun
        # starts at "the <name>", so the cue ("in accordance with") reads as context before it
        article = re.search(r"[Tt]he\s+(?:[a-z]{3,12}\s+)?$", fixed[m.start() : m.start(group)])
        start = m.start() + article.start() if article else m.start(group)
        version = DOCUMENT_VERSION.search(fixed[: m.start()])
        if version and m.group("cue") == "of":
            # "version 2 of the GNU General Public License": that version of the family
            start = version.start()
            name = f"{name} (Version {version.group('v')})"
        mention = Mention(
            start, end, fixed[start:end], "document", doc_name=name, rule=NAMED_DOCUMENT.id
        )
        yield (m.start(), end), mention


# A protocol specification cites another by the extension it specifies: "may be done with the
# Damage extension", "specified in the Xfixes extension version 2" (the specification of that
# extension is titled "The DAMAGE Extension").
EXTENSION_NAME = rule(
    "references.extension_name",
    "citation",
    "another specification by the name of the protocol extension it specifies ('the Damage "
    "extension')",
    edge_type="references",
    confidence=0.9,
    pattern=r"\b[Tt]he\s+(?P<name>[A-Z][A-Za-z0-9_]*[A-Za-z0-9])\s+extension\b",
    examples=("may be done with the Damage extension", "specified in the Xfixes extension"),
    counter=("the extension of the Term", "the Damage Extension Fee", "The extension is optional"),
)


def _extension_names(fixed: str, raw: dict[int, str]) -> Iterator[Claim]:
    for m in EXTENSION_NAME.finditer(fixed):
        name = f"{m['name']} Extension"
        mention = Mention(
            m.start(),
            m.end(),
            fixed[m.start() : m.end()],
            "document",
            doc_name=name,
            rule=EXTENSION_NAME.id,
        )
        yield (m.start(), m.end()), mention


_FORMS: tuple[Form, ...] = (
    _section_labels,
    _annexes,
    _named_sections,
    _texinfo_xrefs,
    _bare_numbers,
    _parts(FRONT_MATTER),
    _parts(UNLETTERED_APPENDIX),
    _numbered_documents,
    _named_documents,
    _extension_names,
)


def citation_rule(mention: Mention) -> Rule:
    """The citation form that found a mention."""
    return RULES[mention.rule]


_SMALL = {"of", "and", "for", "on", "to", "the", "&"}


def clean_name(name: str) -> str:
    """The longest prefix of `name` that ends with a document noun (or a revision note):
    "HR Processes Handbook Leave" -> "HR Processes Handbook"."""
    name = name.strip().rstrip(".’'")
    words = name.split()
    for end in range(len(words), 0, -1):
        last = words[end - 1]
        if last.lower().strip(".") in DOC_NOUNS or last.endswith(")") or _acronym(last):
            return " ".join(words[:end])
    return name


def _acronym(word: str) -> bool:
    return 2 <= len(word) <= 6 and word.isupper() and word.isalpha()


def is_doc_name(name: str) -> bool:
    """A document's name ends with a document noun ("HR Handbook") or is an acronym ("GNU
    GPL"), and has a word that is not a document noun ("the License" alone names nothing)."""
    words = re.sub(r"\s*\([^)]*\)$", "", clean_name(name)).split()
    if not words or len(words) > 8:
        return False
    last = words[-1].strip(".")
    specific = [w for w in words if w.lower() not in DOC_NOUNS and w.lower() not in _SMALL]
    return (last.lower() in DOC_NOUNS or _acronym(last)) and bool(specific)


# --- resolution -------------------------------------------------------------------------


def _norm(text: str) -> str:
    text = re.sub(r"[()\[\],.:;'’\"“”]", " ", text.lower().replace("-", " "))
    words = [w for w in text.split() if w not in ("the", "a", "an")]
    return " ".join(words)


def _aliases(doc: DocInfo) -> set[str]:
    """Names a document may be cited by: its title (with and without a revision note), its
    doc_id, and each run of title words abbreviated to initials ("GNU GPL")."""
    names = {doc.doc_id}
    if doc.title:
        names |= {doc.title, re.sub(r"\s*\([^)]*\)\s*$", "", doc.title)}
    out = {_norm(n) for n in names if n}
    # "rfc3501" is cited as "RFC 3501"
    out |= {re.sub(r"(?<=[a-z])(?=\d)", " ", a) for a in out}
    for alias in list(out):
        words = alias.split()
        for i in range(len(words)):
            for j in range(i + 2, min(len(words), i + 5) + 1):
                out.add(" ".join([*words[:i], "".join(w[0] for w in words[i:j]), *words[j:]]))
    return {a for a in out if a}


class Corpus:
    """A tenant's documents and sections, indexed for resolving references."""

    def __init__(
        self,
        docs: Sequence[DocInfo],
        sections: Sequence[SectionInfo],
        superseded: set[str] | frozenset[str] = frozenset(),
    ):
        self.docs = {d.doc_id: d for d in docs}
        self.sections = list(sections)
        self.by_id = {s.section_id: s for s in sections}
        self.by_doc: dict[str, list[SectionInfo]] = {}
        for s in sections:
            self.by_doc.setdefault(s.doc_id, []).append(s)
        self.labels: dict[str, dict[str, SectionInfo]] = {
            doc_id: {s.label.casefold(): s for s in reversed(secs)}
            for doc_id, secs in self.by_doc.items()
        }
        self.superseded = set(superseded)
        self.aliases = {doc_id: _aliases(d) for doc_id, d in self.docs.items()}
        self._headings: dict[str, str] = {}  # section_id -> heading as find_heading reads it
        # each alias with its words, split once for every name `find_docs` is asked
        self._alias_words = {
            doc_id: [(a, set(a.split())) for a in aliases]
            for doc_id, aliases in self.aliases.items()
        }

    def find_doc(self, name: str) -> tuple[str | None, float]:
        """The tenant document a name cites, with a confidence; (None, 0) if none does.

        Exact alias beats fuzzy; among equals a document not superseded by another wins,
        then the most recent, then doc_id order.
        """
        found = self.find_docs(name)
        return found[0] if found else (None, 0.0)

    def find_docs(self, name: str) -> list[tuple[str, float]]:
        """Every tenant document a name may cite, with its confidence, best first (as
        find_doc ranks them): for a caller that can tell documents of one name apart."""
        revision = re.search(r"\((?:rev\.?|revision|version|v)\s*([\w.]+)\)", name, re.I)
        wanted = _norm(name)
        if revision and wanted not in {a for aliases in self.aliases.values() for a in aliases}:
            wanted = _norm(name[: revision.start()])
        specific = _specific_words(wanted)
        scored: list[tuple[float, str]] = []
        for doc_id, aliases in self.aliases.items():
            if wanted in aliases:
                score = 1.0
            else:
                ratios = [
                    fuzz.token_set_ratio(wanted, a)
                    for a, words in self._alias_words[doc_id]
                    if _covers(words, specific)
                ]
                best = max(ratios, default=0)  # a document with no usable name matches nothing
                # a one-word name ("HR", "GPL") is too vague to match anything but an alias
                score = best / 100 * 0.95 if best >= 90 and " " in wanted else 0.0
            if score and revision:
                title = f"{self.docs[doc_id].title or ''} {doc_id}"
                if re.search(rf"\b{re.escape(revision.group(1))}\b", title, re.I) is None:
                    score *= 0.5
            if score:
                scored.append((score, doc_id))
        scored.sort(
            key=lambda sd: (-sd[0], sd[1] in self.superseded, -_recency(self.docs[sd[1]]), sd[1])
        )
        return [(doc_id, score) for score, doc_id in scored]

    def closeness(self, doc_id: str, name: str) -> float:
        """How nearly `name` is the document's title or doc_id as written, every word counted
        (rapidfuzz ratio; no abbreviated alias)."""
        doc = self.docs.get(doc_id)
        names = [n for n in (doc.title, doc.doc_id) if n] if doc else []
        return max((fuzz.ratio(_norm(name), _norm(n)) for n in names), default=0.0)

    def _heading_norm(self, section: SectionInfo) -> str:
        """A section's heading as `find_heading` compares it, normalised once per corpus."""
        if section.section_id not in self._headings:
            self._headings[section.section_id] = _norm(section.heading)
        return self._headings[section.section_id]

    def find_label(self, doc_id: str, label: str) -> tuple[SectionInfo | None, float]:
        """A section by its label, as cited or in the document's own style ("Article 6" for
        "Article VI", "Exhibit A" for "A"); a lettered item ("6b", "4(a)", "2.1(b)(iv)")
        resolves to the section that contains it (lower confidence), and so does a part of an
        attachment the document does not head apart ("Exhibit A-1" in Exhibit A)."""
        labels = self.labels.get(doc_id, {})
        trimmed = label.casefold()
        confidence = 1.0
        while True:
            for key in _label_variants(trimmed):
                if key in labels:
                    return labels[key], confidence
            if trimmed in ("preamble", "recitals"):
                # the block before the first heading, whatever the document calls it
                for key in ("preamble", "recitals", "title", "front matter"):
                    if key in labels:
                        return labels[key], 0.9
            shorter = re.sub(r"(\([a-z0-9]+\)|(?<=\d)[a-z]|(?<=\s[a-z])-\d{1,2})$", "", trimmed)
            if shorter == trimmed or not shorter:
                return None, 0.0
            trimmed, confidence = shorter, 0.85

    def find_heading(self, doc_id: str | None, title: str) -> tuple[SectionInfo | None, float]:
        """A section by its heading, tolerating misspellings (rapidfuzz, >= 85)."""
        pool = self.by_doc.get(doc_id, []) if doc_id else self.sections
        best: tuple[float, int, SectionInfo] | None = None
        wanted = _norm(title)
        for s in pool:
            score = fuzz.ratio(wanted, self._heading_norm(s))
            if score >= 85 and (best is None or (score, -s.ordinal) > (best[0], best[1])):
                best = (score, -s.ordinal, s)
        return (best[2], best[0] / 100) if best else (None, 0.0)


def _recency(doc: DocInfo) -> int:
    return doc.effective_from.toordinal() if doc.effective_from else 0


def _label_variants(key: str) -> list[str]:
    """Ways one label may be written: with or without its keyword, Roman or Arabic."""
    out = [key]
    if re.match(r"(?:exhibit|schedule|annex|appendix|attachment)\s", key):
        return [key]  # "Exhibit 10.1" is never section 10.1
    m = re.fullmatch(r"(article|section|part|chapter)\s+(.+)", key)
    word, rest = (m.group(1), m.group(2)) if m else ("", key)
    numbers = [rest]
    if re.fullmatch(r"\d{1,3}\.0", rest):
        numbers.append(rest[:-2])  # "Section 2.0" is the heading labelled "2"
    if rest.isdigit():
        numbers.append(int_to_roman(int(rest)).casefold())
    elif (n := roman_to_int(rest)) is not None:
        numbers.append(str(n))
    for number in numbers:
        out.append(f"{word} {number}".strip())
        if word:
            out.append(number)
            # "Article 8.2" where the document heads it "Section 8.2": a dotted number is one
            # subsection whatever keyword cites it
            if "." in number:
                out.extend(f"{w} {number}" for w in ("article", "section", "clause", "paragraph"))
        else:
            out.extend(f"{w} {number}" for w in ("article", "section", "part"))
    return list(dict.fromkeys(out))


def _specific_words(name: str) -> set[str]:
    """The words of a normalised name that say which document it is (not "agreement")."""
    return set(name.split()) - DOC_NOUNS


def _covers(alias_words: set[str], specific: set[str]) -> bool:
    """A fuzzy match must find every specific word of the name in the alias: "HR Handbook"
    fits "hr processes handbook", "GNU Affero GPL" does not fit "gnu gpl"."""
    return bool(specific) and specific <= alias_words


# A table of contents lists headings; it cites nothing: these rules veto its citations.
CONTENTS_HEADING = rule(
    "citation.contents_heading",
    "citation",
    "a section headed as a table of contents (the whole heading)",
    pattern=r"(?:table\s+of\s+)?contents|index",
    flags=re.IGNORECASE,
    examples=("Table of Contents", "CONTENTS"),
    counter=("Definitions",),
)
INDEX_HEADING = rule(
    "citation.index_heading",
    "citation",
    "a heading ending in 'Index': contents when its text has dot leaders to pages",
    pattern=r"\bindex$",
    flags=re.IGNORECASE,
    examples=("Subject Index",),
    counter=("Index of Prices",),
)
DOT_LEADER = rule(
    "citation.dot_leader",
    "citation",
    "dot leaders to a page number",
    pattern=r"(?:\.\s?){4,}\s*\d{1,4}\b",  # "....... 12" or ". . . . 12"
    examples=("Definitions ........ 12", "Fees . . . . 7"),
    counter=("Wait... 12 more",),
)


def is_contents(section: SectionInfo) -> bool:
    """A table of contents: headed so, or mostly lines of section numbers and titles."""
    heading = section.heading.strip()
    if CONTENTS_HEADING.regex.fullmatch(heading):
        return True
    if INDEX_HEADING.search(heading) and len(DOT_LEADER.regex.findall(section.text)) >= 5:
        return True  # "Key Word Index": words with dot leaders to pages (not "Price Index")
    return section.label.casefold() in ("table of contents", "contents")


# A table-of-contents entry: "Section 1.01 Defined Terms 1", "ARTICLE II APPOINTMENT 5".
_CONTENTS_ENTRY = (
    r"(?:ARTICLE|Article|SECTION|Section|Clause|CLAUSE|Schedule|SCHEDULE|Exhibit|EXHIBIT)?\s*"
    r"(?:[\dIVXLC]+(?:\.\d+)*\.?)\s+[A-Z][^\n]{0,100}?\s+(?:\d{1,3}|[ivx]{1,5})(?=\s|$)"
)
# An article's line in a table of contents, often without a page: "ARTICLE III LICENSES AND
# COVENANTS" before its sections' entries.
_CONTENTS_HEADING = (
    r"(?:ARTICLE|Article)\s+[IVXLC\d]+\.?\s+[A-Z][A-Z0-9 ,;&'’/()-]{2,120}?"
    r"(?=\s*\n|\s+(?:SECTION|Section)\s)"
)
CONTENTS_ENTRIES = rule(
    "citation.contents_entries",
    "citation",
    "four or more contents entries (number, title, page) or article lines in a row",
    pattern=rf"(?:(?:{_CONTENTS_ENTRY}|{_CONTENTS_HEADING})\s*){{4,}}",
    examples=(
        "Section 1.01 Definitions 1 Section 1.02 Terms 2 Section 2.01 Grant 3 Section 2.02 Fees 4",
    ),
    counter=("Section 1.01 applies to the Licensee.",),
)
CONTENTS_ENTRY = rule(
    "citation.contents_entry",
    "citation",
    "one contents entry: a number, a title and a page",
    pattern=_CONTENTS_ENTRY,
    examples=("Section 1.01 Scope 1",),
    counter=("the fee is due within thirty days",),
)


# A contents block announced by its heading ("TABLE OF CONTENTS Page ARTICLE I ..."): its
# lines open with a unit keyword and a label ("ARTICLE II RECORDATION ...", "Section 2.01. ...",
# "SCHEDULE A - Fields of Use", "EXHIBIT A1 - ..."); short lines between them are page
# furniture (a running "Source:" line, a page number "ii").
CONTENTS_TITLE = rule(
    "citation.contents_title",
    "citation",
    "a table of contents announced in running text",
    pattern=r"\b(?:TABLE\s+OF\s+CONTENTS|Table\s+of\s+Contents|CONTENTS)\b",
    examples=("TABLE OF CONTENTS Page 1",),
    counter=("the contents of the box",),
)
CONTENTS_LINE = rule(
    "citation.contents_line",
    "citation",
    "a line of a contents block: a unit keyword and a label",
    pattern=(
        r"\s*(?:ARTICLE|Article|SECTION|Section|Clause|CLAUSE|SCHEDULE|Schedule|EXHIBIT|Exhibit|"
        r"ANNEX|Annex|APPENDIX|Appendix)\s+(?:[\dIVXLC]+(?:\.\d+)*|[A-Z]\d{0,2})\b"
    ),
    examples=("ARTICLE II PAYMENT", "SCHEDULE B - Prices"),
    counter=("the Supplier shall deliver",),
)
_FURNITURE_CHARS = 60


def _rest_of_contents(text: str, end: int) -> int:
    """The contents go on to the end of their paragraph when no sentence follows in it: the
    exhibit list after the numbered entries ("Exhibit Description A Statements of Work B
    Program Managers ... Page 2 of 38")."""
    stop = text.find("\n\n", end)
    stop = len(text) if stop == -1 else stop
    return stop if not re.search(r"[.!?](?:\s|$)", text[end:stop]) else end


def contents_spans(text: str) -> list[tuple[int, int]]:
    """Where a section's text holds a table of contents: four or more entries in a row, each
    a number, a title and a page; or a block under a contents heading whose lines are
    entries (an entry's page number may be missing, as for article headings)."""
    spans = [
        (m.start(), _rest_of_contents(text, m.end()))
        for m in CONTENTS_ENTRIES.finditer(text)
        if sum(1 for _ in CONTENTS_ENTRY.finditer(m.group())) >= 3  # article lines may lack a page
    ]
    for head in CONTENTS_TITLE.finditer(text):
        if inside(head.start(), spans):
            continue
        end, pos = head.end(), text.find("\n", head.end())
        while pos != -1:
            nxt = text.find("\n", pos + 1)
            line = text[pos + 1 : nxt if nxt != -1 else len(text)]
            if CONTENTS_LINE.regex.match(line) or DOT_LEADER.search(line):
                end = pos + 1 + len(line)  # a unit's line, or any entry led to its page
            elif len(line.strip()) >= _FURNITURE_CHARS:
                break  # running text: the contents have ended
            pos = nxt
        if end > head.end():
            spans.append((head.start(), end))
    merged: list[tuple[int, int]] = []
    for a, b in sorted(spans):  # the two ways of seeing one contents page give one span
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def iter_sentences(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence: split after . ! ? ; followed by space and a capital."""
    start = 0
    for m in re.finditer(r"(?<=[.!?])\s+(?=[A-Z“\"(])|\n\s*\n", text):
        yield start, m.start()
        start = m.end()
    yield start, len(text)
