"""Edges particular to standards (RFC-style plain-text specifications).

A standard names its sections by the protocol element they describe (`6.3.1. SELECT Command`,
`7. Server Responses`, `11. Security Considerations`) and cites them by that name behind a
pointer phrase ("see the description of the SELECT command", "the Security Considerations
section", 'the section entitled "X"'), rarely by number. Its terms of art are lower-case
protocol nouns introduced in prose ("A system flag is ...", 'are called "untagged
responses"'), or the entries of a terminology list ("resource owner  An entity ..."), not
quoted capitalised terms. Its quotes mostly mark protocol data ('FROM "SMITH"', '"XXXXXX"'),
and its grammars and transcripts ("name = ...", "C: A001 LOGIN") define nothing, so the
general patterns' definitions are checked against those (`protocol_definition`). It also
cites sections by bare number ("Fix example in 6.3.11"). All of these forms are general to
the genre; the rules below only run on a document that reads as a standard (`is_standard`).
"""

import re
from collections.abc import Sequence
from typing import NamedTuple

from raag_assets.core.model import FRONT_LABEL, Edge, SectionInfo
from raag_assets.graph.keys import term_key
from raag_assets.graph.overlaps import inside
from raag_assets.graph.references import expand_labels
from raag_assets.graph.rules import Rule, rule

STANDARD_HEADER = rule(
    "document.standard_header",
    "document",
    "the header block of an RFC or Internet-Draft (RFC 7322 section 4.1): a standard",
    pattern=r"Request\s+for\s+Comments:\s*\d+|Internet[- ]Draft|"
    r"Category:\s*(?:Standards\s+Track|Informational|Experimental|Best\s+Current\s+Practice)",
    flags=re.IGNORECASE,
    examples=("Request for Comments: 9999", "Category: Standards Track", "Internet-Draft"),
    counter=("This Agreement is made on request of the Customer.",),
)

# A pointer phrase before a section's name: the cited words start at the match's end.
POINTER = rule(
    "references.heading_name_pointer",
    "citation",
    "a section cited by its heading's name behind a pointer ('see the description of the X')",
    edge_type="references",
    confidence=0.9,
    pattern=r"\b(?:see|refer\s+to|(?:described|discussed|specified|defined|documented)\s+in)\s+"
    r"(?:also\s+)?the\s+"
    r"(?:(?:description|documentation|discussion|definition)s?\s+of\s+the\s+)?(?=\S)",
    flags=re.IGNORECASE,
    examples=(
        "See the description of the LIST command for the syntax.",
        "The reply format is specified in the Reply Codes section.",
    ),
    counter=("See Section 4 for the syntax.",),
)
# "the X section", "the X description", "the X documentation": a capitalised name followed by a
# word that makes it a place in the document (change logs drop the article: "Add IANA
# Considerations section").
NAME_THEN_PLACE = rule(
    "references.heading_name_place",
    "citation",
    "a section cited by its heading's name and a place word ('the Security Considerations "
    "section')",
    edge_type="references",
    confidence=0.9,
    pattern=r"\b(?:the\s+|a\s+new\s+)?[\"“]?(?P<name>[A-Z][\w/-]*(?:\s+[\w/-]+){0,5}?)[\"”]?\s+"
    r"(?:section|description|documentation)\b",
    examples=("Risks are listed in the Security Considerations section.",),
    counter=("the risks are listed in the next section.",),
)
ENTITLED = rule(
    "references.section_entitled",
    "citation",
    "a section cited by its quoted title ('the section entitled \"X\"')",
    edge_type="references",
    confidence=0.9,
    pattern=r"\bsection\s+(?:entitled|titled|named)\s+[\"“](?P<name>[^\"”]{2,80})[\"”]",
    flags=re.IGNORECASE,
    examples=('See the section entitled "Mailbox Naming" for the rules.',),
    counter=("See section 4 for the rules.",),
)

# A section cited by its heading in quotes, behind "see" or before "above"/"below": specs,
# manuals and contracts alike ('See “Cycle detection” below', '(See also "Implementation
# provided keywords".)'). Only a heading of the same document, named whole, is a target: a
# quoted defined term that happens to head a section ('"Term" means ...') is no citation.
QUOTED_HEADING = rule(
    "references.quoted_heading",
    "citation",
    "a section cited by its heading in quotes after 'see' or before 'above'/'below' ('See "
    "“Cycle detection” below')",
    edge_type="references",
    confidence=0.9,
    pattern=r"(?:\b(?:see|refer\s+to)(?:\s+also)?\s+(?:the\s+)?[\"“](?P<after>[^\"”\n]{2,80}?)"
    r"[.,;:]?[\"”]"
    r"|[\"“](?P<before>[^\"”\n]{2,80}?)[.,;:]?[\"”],?\s+(?:above|below)\b"
    # 'use the "Gain Root API"': two words or more, not a parenthesised definition
    r"|(?<!\()\b(?:use|via|under|in|per|following)\s+the\s+[\"“](?P<the>[^\"”\n]{3,80}?\s[^\"”\n]{1,80}?)"
    r"[\"”](?!\s*\)))",
    flags=re.IGNORECASE,
    examples=(
        "Processing will not be reattempted. See “Cycle detection” below.",
        '(See also "Implementation provided keywords".)',
        'the limits in "Payment Terms" above apply',
        'run the command via the "Gain Root API".',
    ),
    counter=(
        '"Term" means the period of this Agreement.',
        "See Section 4 below.",
        'all information disclosed (the "Confidential Information")',
    ),
)


# Prose definitions of lower-case protocol nouns: "A system flag is a flag name ...", "A number
# consists of ...", "A checkpoint refers to ..." (sentence start, indefinite article), and
# introductions by "called": 'called a "tag"', "are called untagged responses".
ARTICLE_DEFINITION = rule(
    "defines.protocol_article",
    "definition",
    "a lower-case protocol noun defined in prose at a sentence start ('A session token is a "
    "...', 'A message set consists of ...')",
    edge_type="defines",
    confidence=0.9,
    pattern=r"(?:^|(?<=[.:;]\s)|(?<=\n))\s*"
    # a scoping lead-in: "For the purposes of this specification, a host is a ..."
    r"(?:(?:(?:For\s+the\s+purposes?\s+of|As\s+used\s+in|Throughout|In)\s+this\s+"
    r"(?:specification|document|memo)),\s+(?:a|an)|A|An)\s+"
    # an acronym may lead the noun ("An SMTP reply is ...")
    r"(?P<term>(?:[A-Z]{2,6}\s+)?[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}?)"
    # an alias in parentheses: 'A domain name (or often just a "domain") consists of'
    r"(?:\s*\((?:[^()\"“”]{0,30}[\"“](?P<alias>[a-z][\w -]{0,30})[\"”])?[^()]{0,30}\))?\s+"
    r"(?:is\s+(?:a|an|the|one|any|defined\s+as|in\s+one\s+of)\b|consists\s+of|refers\s+to|"
    r"is\s+used\s+to\s+refer\s+to)",
    examples=(
        "A session token is a value the server issues at login.",
        "For the purposes of this document, a peer is any host on the link.",
    ),
    counter=("The server is a host that accepts connections.",),
)
# "Permanent flags are those which ...": a class defined by what belongs to it (plural, at a
# sentence start, two to four words).
ARE_THOSE = rule(
    "defines.protocol_are_those",
    "definition",
    "a class of protocol things defined by its members ('Transient messages are those which ...')",
    edge_type="defines",
    confidence=0.9,
    pattern=r"(?:^|(?<=[.:;]\s)|(?<=\n))\s*(?P<term>[A-Z][a-z-]*(?:\s+[a-z][a-z-]*){1,3}?)\s+"
    r"are\s+those\s+(?:which|that|whose|for\s+which|in\s+which)\b",
    examples=("Transient messages are those which the server discards at logout.",),
    counter=("Transient messages are discarded at logout.",),
)
CALLED = rule(
    "defines.protocol_called",
    "definition",
    "a protocol noun introduced by naming it ('are called X', 'called a \"X\"', 'referred to "
    'as the "X"\')',
    edge_type="defines",
    confidence=0.9,
    pattern=r"\b(?:(?:is|are)\s+(?:also\s+)?called\s+(?=[a-z\"“])|called\s+(?=an?\s+[\"“])|"
    # 'Data structures are represented as a "parenthesized list"': the quotes coin the name
    r"(?:is|are)\s+(?:represented|known)\s+as\s+(?=(?:an?\s+)?[\"“])|"
    # 'refers to them as the "SMTP client"', 'usually referred to just as a "relay"'
    r"(?:refers?|referred)\s+to\s+(?:\w+\s+){0,2}?as\s+(?=(?:the\s+|an?\s+)?[\"“]))"
    r"(?:a\s+|an\s+|the\s+)?"
    r"(?:[\"“](?P<quoted>[^\"”]{1,60})[\"”]|(?P<plain>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){1,3}?))"
    r"(?=[\s.,;:)])",
    examples=(
        "Such lines are called continuation lines.",
        'Each command is prefixed with an identifier called a "label".',
    ),
    counter=("The client called the server twice.",),
)
# words an article-led sentence starts with that are no term ("A client is ...", "An example
# is ..."): general English nouns whose sentence describes, not defines
_NOT_TERMS = {"example", "note", "server", "client", "user", "implementation", "command"}
# Adjectives of state or comparison pick out a case of something already named ("An empty
# section specification refers to the entire message", "An older convention is a LOGIN
# command ..."): the sentence says what that case does, it coins no term.
_CASE_WORDS = {"empty", "non-empty", "nonempty", "older", "newer", "earlier", "later", "other"}
# A relative pronoun ends the subject, not the term ("An astring which consists of ...").
_RELATIVE = {"which", "that", "who", "whose", "where", "when"}

# A paragraph of a protocol transcript ("C: A001 LOGIN ...", "S: * OK ...", often led by
# "Example:") or of an ABNF grammar ("name = elements", "name =/ more"; its comments after ";"
# stay in the rule's paragraph): protocol data and syntax, where prose defines nothing.
_TRANSCRIPT = r"\s*(?:Examples?:\s*)?[CS]:\s"
TRANSCRIPT = rule(
    "definition.transcript_paragraph",
    "definition",
    "a paragraph of a protocol transcript (client and server lines): protocol data",
    pattern=_TRANSCRIPT,
    examples=("C: A001 NOOP", "Example: S: * OK ready"),
    counter=("The client sends a NOOP command.",),
)
EXAMPLE_PARAGRAPH = rule(
    "definition.example_paragraph",
    "definition",
    "a paragraph of a transcript or of an ABNF grammar: no definition, citation or date in it",
    pattern=rf"{_TRANSCRIPT}|\s*[A-Za-z][\w-]*\s+=/?\s",
    examples=("C: A001 NOOP", 'flag-list = "(" [flag *(SP flag)] ")"'),
    counter=("The client sends a NOOP command.",),
)


# The requirement-language boilerplate that specifications beyond the IETF's adopt (W3C,
# freedesktop.org, industry standards): 'The key words "MUST", ... are to be interpreted as
# described in RFC 2119' (or BCP 14), the key words quoted or not.
KEY_WORDS_ADOPTED = rule(
    "document.key_words_adopted",
    "document",
    "a section that adopts the RFC 2119 / BCP 14 key words, quoted or not: a standard",
    pattern=r"key\s*words\b.{0,400}?\binterpreted\s+as\s+described\s+in\s+"
    r"(?:\[?RFC\s*-?2119|BCP\s*14)",
    flags=re.IGNORECASE | re.DOTALL,
    examples=(
        'The key words "MUST" and "MAY" in this document are to be interpreted as described in '
        "RFC 2119.",
        "The key words MUST, SHOULD and MAY in this document are to be interpreted as described "
        "in BCP 14.",
    ),
    counter=(
        'The words "LESSOR" and "LESSEE" are to be interpreted as referring to the parties '
        "named above.",
    ),
)


def is_standard(sections: Sequence[SectionInfo]) -> bool:
    """A specification: an RFC / Internet-Draft header in its opening block, or a section that
    adopts the RFC 2119 key words."""
    head = "\n".join(s.text[:3000] for s in sections[:2])
    return bool(STANDARD_HEADER.search(head)) or any(
        KEY_WORDS_ADOPTED.search(s.text) for s in sections
    )


BIBLIOGRAPHY = rule(
    "term.bibliography_section",
    "term",
    "a section headed references or bibliography holding two or more '[TAG]' entries: other "
    "documents' titles, where this document's terms are not used",
    pattern=r"\b(?:references|bibliography)\s*$",
    flags=re.IGNORECASE,
    examples=("12.1. Normative References", "Bibliography"),
    counter=("4. Cross-references in headers",),
)
_ENTRY_TAG = re.compile(r"(?:^|\n)[ \t]*\[[^\]\s]{1,40}\]")


def is_bibliography(section: SectionInfo) -> bool:
    """A list of cited documents ("12.1. Normative References": paragraphs opening with a
    "[TAG]"): its entries give other documents' titles, where this document's terms are not
    used ("[RFC6750] ..., "The OAuth 2.0 Authorization Framework: Bearer Token Usage"")."""
    entries = _ENTRY_TAG.findall(section.text)
    return bool(BIBLIOGRAPHY.search(section.heading)) and len(entries) >= 2


def _heading_name(section: SectionInfo) -> str:
    """A section's heading without its number: `6.3.1. SELECT Command` -> `select command`."""
    heading = section.heading
    if heading.startswith(section.label):
        heading = heading[len(section.label) :]
    return _normal_name(heading)


def _normal_name(name: str) -> str:
    return " ".join(name.strip(" .").casefold().split())


def heading_index(sections: Sequence[SectionInfo]) -> dict[str, SectionInfo]:
    """Every numbered section by its heading's name; a name two sections share cites neither."""
    seen: dict[str, list[SectionInfo]] = {}
    for s in sections:
        name = _heading_name(s)
        if name and any(c.isdigit() for c in s.label) and len(name.split()) <= 6:
            seen.setdefault(name, []).append(s)
    return {name: secs[0] for name, secs in seen.items() if len(secs) == 1}


def _words_at(text: str, at: int, n: int = 7) -> list[str]:
    return re.findall(r"[\w/-]+", text[at : at + 120])[:n]


def _longest_heading(words: Sequence[str], index: dict[str, SectionInfo]) -> SectionInfo | None:
    """The section whose heading is the longest prefix of `words` (at least two words, or one
    word that is not ordinary lower-case English, so "see the following" cites nothing)."""
    for n in range(len(words), 0, -1):
        name = " ".join(words[:n]).casefold()
        if name in index and (n > 1 or not words[0].islower()):
            return index[name]
    return None


def _by_suffix(name: str, index: dict[str, SectionInfo]) -> SectionInfo | None:
    """A section named by its heading or by the heading's last words when only one heading
    ends so ("the Responses section" -> `7. Server Responses`)."""
    words = name.casefold().split()
    for i in range(len(words)):  # "Add IANA Considerations section": the name ends the words
        if " ".join(words[i:]) in index:
            return index[" ".join(words[i:])]
    for i in range(len(words)):
        key = " ".join(words[i:])
        hits = [s for h, s in index.items() if h.endswith(" " + key)]
        # of several headings ending so, the outermost ("7. Server Responses", not its
        # "7.1. Server Responses - Status Responses") is the one a bare name cites
        top = [s for s in hits if s.level == min((h.level for h in hits), default=0)]
        if top:
            return top[0] if len(top) == 1 else None
    return None


def name_citations(section: SectionInfo, index: dict[str, SectionInfo]) -> list[Edge]:
    """`references` edges for sections cited by their heading's name behind a pointer."""
    text = " ".join(section.text.split())
    found: list[tuple[Rule, int, str, SectionInfo]] = []
    for m in POINTER.finditer(text):
        target = _longest_heading(_words_at(text, m.end()), index)
        if target is not None:
            found.append((POINTER, m.start(), m.group(0), target))
    for r in (NAME_THEN_PLACE, ENTITLED):
        for m in r.finditer(text):
            target = _by_suffix(m.group("name"), index)
            if target is not None:
                found.append((r, m.start(), m.group(0), target))
    return [
        _reference(r, section, target, evidence, position)
        for r, position, evidence, target in found
        if target.section_id != section.section_id  # a section naming itself
    ]


# A section number cited without the word "section" ("Emphasize in 5.2 that ...", "see 7.4.2",
# "see 7.4.2 and 7.4.3"): dotted numbers right after "see", "refer to" or a preposition of
# place, ending there (not "1.5 seconds", not "2.1 of [IMAP-TLS]", a section of another
# document; "of", "to" and "from" also lead values and versions: "a value of 1.5", "from
# HTTP/1.0 to 1.1").
_DOTTED = r"\d{1,3}(?:\.\d{1,3}){1,4}"
BARE_NUMBER = rule(
    "references.bare_section_number",
    "citation",
    "a section of this document cited by its number alone after 'see', 'in', 'under', 'per' "
    "('see 7.4.2 and 7.4.3')",
    edge_type="references",
    confidence=0.8,
    pattern=rf"\b(?:see|refer\s+to|in|under|per)\s+(?P<labels>{_DOTTED}"
    rf"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+){_DOTTED})*)"
    r"(?=[,;:)]|\.?(?:\s|$))(?!\.?\s+of\s+(?:\[|RFC\b))"
    r"(?!\.?\s+(?:%|percent|seconds?|minutes?|hours?|days?|octets?|bytes?|bits?|times|[kmg]b)\b)",
    flags=re.IGNORECASE,
    examples=("Clarified the wording in 5.2.", "For the reply codes, see 4.2.1 and 4.2.3."),
    counter=("Retry in 1.5 seconds.", "as in 2.1 of [TLS]", "a value of 1.5"),
)


def bare_number_citations(
    section: SectionInfo, labels: dict[str, SectionInfo], examples: Sequence[tuple[int, int]] = ()
) -> list[Edge]:
    """`references` edges for bare section numbers that name sections of this document (a
    number that names none is a version, a count or a value, and so is a list holding one)."""
    edges: list[Edge] = []
    for m in BARE_NUMBER.finditer(section.text):
        targets = [labels.get(label) for label in expand_labels(m.group("labels"))]
        if inside(m.start(), examples) or None in targets:
            continue
        edges.extend(
            _reference(BARE_NUMBER, section, target, m.group(0), m.start())
            for target in targets
            if target is not None and target.section_id != section.section_id
        )
    return edges


# "Appendix B", "Appendix A.1": where the document labels its appendices by the letter alone
# ("A.  Normative References", the older RFC style), the letter is the label.
APPENDIX = rule(
    "references.appendix_letter",
    "citation",
    "an appendix cited by its letter where the appendix headings carry the letter alone",
    edge_type="references",
    confidence=0.9,
    pattern=r"\bAppendix\s+(?P<label>[A-Z](?:\.\d{1,2}){0,3})(?![\w-])",
    examples=("The grammar is collected in Appendix B.", "see Appendix A.1"),
    counter=("see Appendix 3", "the appendix below"),
)


def appendix_citations(section: SectionInfo, labels: dict[str, SectionInfo]) -> list[Edge]:
    """`references` edges for appendices cited by their letter in a document whose appendix
    headings carry the letter only (the general patterns look for a label "Appendix B")."""
    edges = []
    for m in APPENDIX.finditer(section.text):
        target = labels.get(m.group("label"))
        if target is None or f"Appendix {m.group('label')}" in labels:
            continue
        if target.section_id != section.section_id:
            edges.append(_reference(APPENDIX, section, target, m.group(0), m.start()))
    return edges


def _reference(
    r: Rule, section: SectionInfo, target: SectionInfo, evidence: str, position: int
) -> Edge:
    return r.edge(
        src_doc_id=section.doc_id,
        src_section_id=section.section_id,
        matched_text=evidence,
        normalized_target=target.label,
        dst_doc_id=target.doc_id,
        dst_section_id=target.section_id,
        position=position,
    )


def _singular(term: str) -> str:
    words = term.split()
    last = words[-1]
    if last.endswith("ies"):
        last = last[:-3] + "y"
    elif last.endswith("s") and not last.endswith("ss"):
        last = last[:-1]
    return " ".join([*words[:-1], last])


def example_spans(text: str, transcripts_only: bool = False) -> list[tuple[int, int]]:
    """(start, end) of each paragraph of a transcript or a grammar in a section's text."""
    form = (TRANSCRIPT if transcripts_only else EXAMPLE_PARAGRAPH).regex
    return [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", text) if form.match(m.group())]


class Found(NamedTuple):
    """A term a rule finds defined: where, the term, the words that define it, the rule."""

    position: int
    term: str
    evidence: str
    rule: Rule


def _article_definitions(text: str) -> list[Found]:
    found = []
    for m in ARTICLE_DEFINITION.finditer(text):
        term = " ".join(m.group("term").split())
        words = term.split()
        head = words[1] if words[0].isupper() and len(words) > 1 else words[0]
        if head not in _NOT_TERMS | _CASE_WORDS and not _RELATIVE & set(words):
            evidence = m.group(0).strip()
            found.append(Found(m.start("term"), term, evidence, ARTICLE_DEFINITION))
            if m.group("alias"):
                alias = m.group("alias").strip()
                found.append(Found(m.start("alias"), alias, evidence, ARTICLE_DEFINITION))
    return found


def prose_definitions(section: SectionInfo) -> list[Edge]:
    """`defines` edges for lower-case protocol nouns introduced in prose."""
    text = section.text
    examples = example_spans(text)
    found = _article_definitions(text)
    for m in ARE_THOSE.finditer(text):
        term = _singular(" ".join(m.group("term").split()))
        if term.split()[0].casefold() not in _CASE_WORDS:
            term = term[0].lower() + term[1:]
            found.append(Found(m.start("term"), term, m.group(0).strip(), ARE_THOSE))
    for m in CALLED.finditer(text):
        term = " ".join((m.group("quoted") or m.group("plain")).split())
        term = _singular(term) if m.group("plain") else term
        found.append(Found(m.start(), term, m.group(0), CALLED))
    return [_defines(section, f) for f in found if not inside(f.position, examples)]


# BCP 14's boilerplate (RFC 2119/8174): 'The key words "MUST", "MUST NOT", ... in this document
# are to be interpreted as described in ...' defines each quoted key word.
KEY_WORDS_LIST = rule(
    "defines.key_words",
    "definition",
    "the quoted key words of BCP 14's boilerplate, each defined (and never a term of art)",
    edge_type="defines",
    confidence=0.9,
    pattern=r"(?P<list>(?:[\"“][A-Z][A-Z ]{1,20}[\"”],?\s+(?:and\s+|or\s+)?){2,})"
    r"(?:[^.]{0,80}?)\bare\s+to\s+be\s+interpreted\s+as\b",
    examples=(
        'The key words "MUST" and "SHOULD" in this document are to be interpreted as described '
        "in BCP 14.",
    ),
    counter=(
        "The key words MUST and SHOULD in this document are to be interpreted as described in "
        "BCP 14.",
    ),
)
# '"client" refers to ...', '"User" is used to refer to ...', 'The word "can" ... is used to
# refer to': a terminology section's entries
QUOTED_REFERS = rule(
    "defines.quoted_refers_to",
    "definition",
    'a quoted term said to refer to something (\'"server" refers to ...\', \'the term "X" '
    "is used to refer to ...')",
    edge_type="defines",
    confidence=0.9,
    pattern=r"[\"“](?P<term>[^\"”]{1,40})[\"”](?:\s*\([^)]{0,40}\))?\s+"
    r"(?:refers\s+to|is\s+used\s+to\s+refer\s+to|are\s+used\s+to\s+refer\s+to)\b"
    # 'This document uses the term "endpoint" to refer to ...', 'the term "X" denotes ...',
    # 'The terms "message content" and "mail data" are used interchangeably ... to describe'
    r"|\bterms?\s+(?P<named>[\"“][^\"”]{1,40}[\"”](?:(?:\s*,\s*|\s+)(?:and\s+|or\s+)?"
    r"[\"“][^\"”]{1,40}[\"”])*)\s+(?:(?:is|are)\s+used\s+(?:[\w,]+\s+){0,6}?)?"
    r"(?:to\s+)?(?:refer\s+to|refers\s+to|mean|means|denotes?|designates?|describe)\b",
    examples=(
        '"Server" refers to the host that accepts the session.',
        'This document uses the term "peer" to refer to either endpoint.',
    ),
    counter=('The term "client" does not imply any particular implementation.',),
)


# A paragraph that opens with a quoted term and says what it is ('"Conventions" are basic
# principles or procedures.'): a terminology entry.
QUOTED_OPENS = rule(
    "defines.quoted_opens",
    "definition",
    "a paragraph opening with a quoted term that says what it is: a terminology entry",
    edge_type="defines",
    confidence=0.9,
    pattern=r"(?:^|(?<=\n))[ \t]*[\"“](?P<term>[A-Za-z][A-Za-z -]{0,40})[\"”]\s+(?:is|are)\s+"
    r"(?!not\b)",
    examples=('"Mailbox" is a named container of messages.',),
    counter=('"Mailbox" is not used here.', 'The "mailbox" is named by the client.'),
)
# 'The special form "NIL" represents ...', 'the notation "X" denotes ...': a quoted token
# introduced by the kind of token it is and given a meaning.
QUOTED_REPRESENTS = rule(
    "defines.quoted_represents",
    "definition",
    "a quoted token introduced by its kind and given a meaning ('the token \"X\" represents')",
    edge_type="defines",
    confidence=0.9,
    pattern=r"\b(?:form|token|notation|symbol|value|keyword)\s+"
    r"[\"“](?P<term>[A-Za-z][^\"”\s]{0,30})[\"”]\s+(?:represents|denotes|stands\s+for)\b",
    examples=('The special token "EMPTY" represents a missing value.',),
    counter=('The value "EMPTY" is sent.',),
)


# A definition list, the usual form of a standard's terminology ("resource owner" on its own
# line, its definition indented below; or "client:  The endpoint that ..."): once reflowed, a
# paragraph that opens with a noun phrase and goes straight on to an article. Prose never opens
# a paragraph in lower case, nor runs a name into "An entity ..." without a verb. A term in
# capitals only ("BODY A form of ...") is a protocol token described in a list, not a term;
# a capitalised name takes no colon ("Note: The ..." is a remark).
LIST_ENTRY = rule(
    "defines.list_entry",
    "definition",
    "an entry of a definition list in a terminology section: a noun phrase run into its "
    "definition ('resource server The server hosting ...', 'endpoint:  Either ...')",
    edge_type="defines",
    confidence=0.9,
    pattern=r"(?:^|(?<=\n))[ \t]*(?:[o*•-]\s+)?(?:"
    # "client:  Either the client or the server" (RFC 8446): after a colon any sentence
    r"(?P<colon>[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){0,3}):\s+(?=[A-Z])|"
    r"(?:(?P<term>[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){0,3})|"
    r"(?P<name>[A-Z][A-Za-z0-9-]*(?:\s+[A-Z][A-Za-z0-9-]*){0,3})"
    r"(?:\s+\((?P<alias>[A-Z][A-Za-z0-9-]{1,11})\))?)\s+(?:A|An|The)\s+(?=[A-Za-z]))",
    examples=(
        "resource server The server hosting the protected resources.",
        "endpoint:  Either the client or the server of the connection.",
    ),
    counter=("The server hosts the protected resources.",),
)
# Where a list is one of definitions: a section headed as terminology, or one whose list is
# introduced so ("OAuth defines four roles:", "This document uses the following terms:"),
# not the list of a structure's fields ("The basic fields ... are in the following order:").
TERMINOLOGY_HEADING = rule(
    "definition.terminology_heading",
    "definition",
    "a heading that makes a section's list one of definitions (list entries are read there)",
    pattern=r"\b(?:terminology|definitions?|glossary|terms|abbreviations|acronyms)\b",
    flags=re.IGNORECASE,
    examples=("1.2. Terminology", "Glossary"),
    counter=("4. Security Considerations",),
)
TERMINOLOGY_LEAD = rule(
    "definition.terminology_lead",
    "definition",
    "a paragraph that introduces a list of definitions ('This document uses the following terms:')",
    pattern=r"\b(?:defines?|terms|terminology|definitions)\b[^\n]*:\s*$",
    examples=("This document uses the following terms:", "The protocol defines three roles:"),
    counter=("The basic fields are in the following order:",),
)


def list_definitions(section: SectionInfo) -> list[Found]:
    """The entries of a definition list."""
    paragraphs = section.text.split("\n")
    if not (
        TERMINOLOGY_HEADING.search(section.heading)
        or any(TERMINOLOGY_LEAD.search(p) for p in paragraphs)
    ):
        return []
    found = []
    for m in LIST_ENTRY.finditer(section.text):
        group = next(g for g in ("colon", "term", "name") if m.group(g))
        term = " ".join(m.group(group).split())
        if not re.search(r"[a-z]", term):
            continue
        found.append(Found(m.start(group), term, m.group(0).strip(), LIST_ENTRY))
        if m.group("alias"):
            found.append(Found(m.start("alias"), m.group("alias"), m.group(0).strip(), LIST_ENTRY))
    return found


_QUOTED = re.compile(r"[\"“]([^\"”]{1,40})[\"”]")
# A quoted name with its acronym: 'act as "Mail Transfer Agents" (MTAs)', '"Mail User Agents"
# (MUAs or UAs) are ...': the quotes coin the name and the parenthesis its short form.
QUOTED_ACRONYM = rule(
    "defines.quoted_acronym",
    "definition",
    'a quoted name with its acronym in parentheses: both defined (\'"Message Transfer Agents" '
    "(MTAs)')",
    edge_type="defines",
    confidence=0.9,
    pattern=r"[\"“](?P<term>[A-Z][\w-]*(?:\s+[A-Za-z][\w-]*){1,4})[\"”]\s*"
    r"\((?P<alias>[A-Z]{2,8})s?(?:\s+or\s+(?P<alias2>[A-Z]{2,8})s?)?\)",
    examples=('Servers act as "Message Transfer Agents" (MTAs) between hosts.',),
    counter=('Servers act as "relays" between hosts.',),
)


def _quoted_entries(text: str) -> list[Found]:
    """The key words and the quoted terms of a terminology section's prose (whitespace
    normalised)."""
    found = []
    for m in KEY_WORDS_LIST.finditer(text):
        for w in re.finditer(r"[\"“]([A-Z][A-Z ]{1,20})[\"”]", m.group("list")):
            found.append(Found(m.start(), w.group(1).strip(), m.group(0), KEY_WORDS_LIST))
    for m in QUOTED_REFERS.finditer(text):
        terms = [m.group("term")] if m.group("term") else _QUOTED.findall(m.group("named"))
        found.extend(Found(m.start(), t.strip(), m.group(0), QUOTED_REFERS) for t in terms)
    for m in QUOTED_REPRESENTS.finditer(text):
        found.append(Found(m.start(), m.group("term"), m.group(0), QUOTED_REPRESENTS))
    for m in QUOTED_ACRONYM.finditer(text):
        names = [m.group("term"), m.group("alias"), m.group("alias2")]
        found.extend(Found(m.start(), n, m.group(0), QUOTED_ACRONYM) for n in names if n)
    return found


def terminology(section: SectionInfo) -> list[Found]:
    """The key words and quoted terminology entries."""
    found = _quoted_entries(" ".join(section.text.split()))
    examples = example_spans(section.text)
    for m in QUOTED_OPENS.finditer(section.text):
        if not inside(m.start(), examples):
            term = m.group("term").strip()
            found.append(Found(m.start(), term, m.group(0).strip(), QUOTED_OPENS))
    return found


HEADED = rule(
    "defines.headed_kind",
    "definition",
    "a sub-section headed '<Term> <kind>' under a section headed with the plural kind, its text "
    "opening with an article ('2.3 Message Attributes' > '2.3.3 Internal Date Message "
    "Attribute'): it defines <Term>",
    edge_type="defines",
    confidence=0.9,
)


def headed_definitions(
    sections: Sequence[SectionInfo], by_id: dict[str, SectionInfo]
) -> list[tuple[SectionInfo, str, str]]:
    """A sub-section headed "<Term> <kind>" under a section headed with the plural kind
    ("2.3 Message Attributes" > "2.3.3 Internal Date Message Attribute"), whose text opens with
    the noun phrase that says what it is, defines <Term>."""
    out = []
    for s in sections:
        name = " ".join(re.sub(r"\[[^\]]*\]|\([^)]*\)", " ", _heading_name(s)).split())
        parent = by_id.get(s.parent_id or "")
        for _ in range(2):  # the parent or the grandparent ("2.3" > "2.3.1" > "2.3.1.1")
            if parent is None:
                break
            kind = _singular(_heading_name(parent)) if _heading_name(parent) else ""
            if kind and name.endswith(" " + kind) and len(kind.split()) <= 3:
                term = name[: -len(kind)].strip()
                if re.match(r"\s*(?:A|An|The)\s", s.text) and len(term.split()) <= 4:
                    out.append((s, term, f"{s.heading} {s.text[:80]}"))
                break
            parent = by_id.get(parent.parent_id or "")
    return out


def standard_term(term: str, evidence: str) -> bool:
    """A standard's term of art: a lower-case phrase of two to four words its prose defines
    (standards coin lower-case protocol nouns: "unique identifier", "response code"), or a
    capitalised protocol token ("NIL") or name; never one of BCP 14's key words, and never a
    single lower-case word ("tag", "string": ordinary words in a protocol sense)."""
    words = term.split()
    if KEY_WORDS_LIST.search(" ".join(evidence.split())):
        return False  # MUST, SHOULD NOT: modal verbs, read the same without the definition
    if 2 <= len(words) <= 4 and all(re.fullmatch(r"[a-z][a-z-]*", w) for w in words):
        return True
    lower_rest = all(re.fullmatch(r"[a-z][a-z-]*", w) for w in words[1:])
    if 2 <= len(words) <= 4 and re.fullmatch(r"[A-Z]{2,6}", words[0]) and lower_rest:
        return True  # an acronym and lower-case nouns ("SMTP client"): coined the same way
    if len(words) == 1:
        return bool(re.fullmatch(r"[A-Z]{2,12}", term))
    return all(w[:1].isupper() for w in words)  # a capitalised coined name


_CITED_DOC = r"(?:\[[^\]\s]{1,40}\]|RFC\s*\d+)"
OF_CITED_DOCUMENT = rule(
    "citation.of_cited_document",
    "citation",
    "a cited section followed by 'of [TAG]' or 'of RFC n': a section of another document, no "
    "edge to this one",
    pattern=rf"\s+of\s+{_CITED_DOC}",
    examples=("as in Section 5.1 of [SASL]", "see section 2.1 of RFC 4422"),
    counter=("see Section 5.1 of this document",),
)
AFTER_CITED_DOCUMENT = rule(
    "citation.after_cited_document",
    "citation",
    "a cited section right after '[TAG],' or 'RFC n,': a section of another document, no edge "
    "to this one",
    pattern=rf"{_CITED_DOC},?\s*$",
    examples=("Header fields follow [HTTP],", "as defined in RFC 4422,"),
    counter=("[HTTP] defines the header fields.",),
)


def cites_another_document(edge: Edge, section: SectionInfo) -> bool:
    """'Section 5.1 of [SASL]', 'section 2.1 of RFC 2595', '[RFC7230], Section 3.2': a section
    of a cited document, not of this one (every occurrence of the matched words is so
    qualified)."""
    if edge.edge_type not in ("references", "depends_on", "overrides") or not edge.matched_text:
        return False
    text = " ".join(section.text.split())
    words = re.escape(" ".join(edge.matched_text.split()))
    spots = list(re.finditer(words + r"(?!\.?\d|\w)", text))
    return bool(spots) and all(
        OF_CITED_DOCUMENT.regex.match(text, m.end())
        or AFTER_CITED_DOCUMENT.regex.search(text, 0, m.start())
        for m in spots
    )


# A date inside a quoted "term" ('"ON 13-APR-2000" means ...'): a protocol value, not a term.
QUOTED_DATE = rule(
    "definition.quoted_date",
    "definition",
    "a date inside a quoted 'term' in a standard: a protocol value, no definition",
    pattern=r"\d{1,2}[-/ ](?:[A-Za-z]{3,9})[-/ ]\d{4}|\d{4}-\d{2}-\d{2}"
    r"|[A-Za-z]{3,9}\s+\d{1,2},\s+\d{4}",
    examples=('"BEFORE 1-Jan-2020" means messages dated earlier.', '"SINCE 2020-01-01"'),
    counter=('"Client" means the host that opens the session.',),
)
# What may stand between a quoted term and the verb that defines it: nothing but a comma or a
# parenthesis ('"client" refers to', '"can" (not "may") is used to refer to').
QUOTED_LEAD = rule(
    "definition.quoted_lead",
    "definition",
    "a definition's evidence led by a quoted token; in a standard the defining verb must "
    "follow it (definition.verb_next), else the token is protocol data",
    pattern=r"(?:(?:To|A|An|The|Each)\s+)?[\"“][^\"”]+[\"”](?P<rest>.*)",
    flags=re.S,
    examples=('"Client" refers to the host.', 'The "XXXX" is a placeholder.'),
    counter=("The client refers to the host.",),
)
VERB_NEXT = rule(
    "definition.verb_next",
    "definition",
    "the defining verb right after a quoted term (or a list of them): without it a quoted "
    "token in a standard is protocol data, no definition",
    pattern=r"(?:\s*,?\s*(?:and\s+|or\s+)?[\"“][^\"”]{1,60}[\"”])*"  # '"A" and "B" mean'
    r"\s*,?\s*(?:also\s+)?(?:means|mean|shall|refers?|is|are|has|have|includes?|which\s+means)\b",
    examples=(" means the host that opens the session", ' and "B" mean the same'),
    counter=(" FROM SMITH SINCE 1-Feb-2001",),
)


def protocol_definition(edge: Edge, section: SectionInfo) -> bool:
    """A `defines` edge of the general patterns that reads protocol data in a standard, where
    quotes mark literal tokens and values far more often than coined terms: one found in a
    transcript or grammar paragraph, a quoted token the section's transcripts use as data
    ('C: XXXXXX' ... 'The "XXXXXX" is a placeholder'), a quoted value holding a date, or a
    quoted token separated from the defining verb by other words ('FROM "SMITH" SINCE
    1-Feb-1994 refers to', '"astring" syntax which is an')."""
    if edge.edge_type != "defines":
        return False
    examples = example_spans(section.text)
    term = edge.term or ""
    if inside(edge.position, examples) or QUOTED_DATE.search(term):
        return True
    # a grammar's rule names are also prose words ('A "URI" is ...'); a transcript's are data
    data = " ".join(section.text[a:b] for a, b in example_spans(section.text, True))
    if term and re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", data):
        return True
    if _modifier_in_parentheses(edge, section.text):
        return True
    quoted = QUOTED_LEAD.regex.match(edge.matched_text or "")
    if quoted is None:
        return False
    rest = re.sub(r"\([^()]*\)", " ", quoted.group("rest"))
    return not VERB_NEXT.regex.match(rest)


QUOTED_GLOSS = rule(
    "definition.quoted_gloss",
    "definition",
    "a quoted word in parentheses ('the final (\"delivery\") server'): a gloss of the noun "
    "after it, no definition, unless the sentence's verb or a stop follows "
    "(definition.verb_after_gloss)",
    pattern=r"\(\s*[\"“][^\"”]{1,40}[\"”]\s*\)",
    examples=('the final ("delivery") server',),
    counter=("the final delivery server",),
)
VERB_AFTER_GLOSS = rule(
    "definition.verb_after_gloss",
    "definition",
    "a verb or a stop right after a quoted word in parentheses: a name given in passing",
    pattern=r"\s*(?:[,;:.)]|$|(?:is|are|was|were|has|have|shall|will|may|must|means?|refers?|"
    r"and|or)\b)",
    examples=(" is the server that delivers", ", which"),
)


def _modifier_in_parentheses(edge: Edge, text: str) -> bool:
    """'the final ("delivery") MTA': a quoted word in parentheses inside a noun phrase glosses
    the noun after it; a name given in passing is followed by the sentence's verb or a stop."""
    matched = edge.matched_text or ""
    if not QUOTED_GLOSS.regex.fullmatch(matched):
        return False
    after = edge.position + len(matched)
    return text[edge.position : after] == matched and not VERB_AFTER_GLOSS.regex.match(text, after)


FOR_EXAMPLE = rule(
    "date.for_example",
    "date",
    "a date in a standard's example ('For example, ... SINCE 1-Feb-2001'): the example's "
    "value, no limit on the document",
    pattern=r"\b(?:for\s+example|for\s+instance|e\.g\.|example:)",
    flags=re.IGNORECASE,
    examples=("For example, messages since 1 May 2020 are kept.",),
    counter=("Messages since 1 May 2020 are kept.",),
)


def example_date(edge: Edge, section: SectionInfo) -> bool:
    """A calendar limit read out of a standard's example ('For example, the criteria ... SINCE
    1-Feb-1994 refers to all messages placed in the mailbox since February 1, 1994'): the
    example's value, not a limit on the document."""
    if edge.edge_type != "applies_to":
        return False
    text = section.text
    start = max(text.rfind(". ", 0, edge.position), text.rfind("\n", 0, edge.position)) + 1
    return inside(edge.position, example_spans(text)) or bool(
        FOR_EXAMPLE.regex.search(text, start, edge.position)
    )


def standard_edges(sections: Sequence[SectionInfo]) -> list[Edge]:
    """The edges a standard's own forms add to one document's sections (none otherwise)."""
    if not is_standard(sections):
        return []
    index = heading_index(sections)
    by_id = {s.section_id: s for s in sections}
    labels = {s.label: s for s in sections}
    numbered = {label: s for label, s in labels.items() if any(c.isdigit() for c in label)}
    edges: list[Edge] = []
    for s in sections:
        edges.extend(name_citations(s, index))
        edges.extend(bare_number_citations(s, numbered, example_spans(s.text)))
        edges.extend(appendix_citations(s, labels))
        edges.extend(prose_definitions(s))
        edges.extend(_defines(s, f) for f in terminology(s))
        edges.extend(_defines(s, f) for f in list_definitions(s))
    edges.extend(
        _defines(s, Found(0, term, ev, HEADED))
        for s, term, ev in headed_definitions(sections, by_id)
    )
    return edges


def _defines(section: SectionInfo, found: Found) -> Edge:
    return found.rule.edge(
        src_doc_id=section.doc_id,
        src_section_id=section.section_id,
        matched_text=found.evidence,
        normalized_target=term_key(found.term),
        term=found.term,
        position=found.position,
    )


def quoted_heading_citations(sections: Sequence[SectionInfo]) -> list[Edge]:
    """`references` edges for sections cited by their quoted heading (QUOTED_HEADING), in any
    document: the name must be one section's whole heading, numbered or not."""
    names: dict[str, list[SectionInfo]] = {}
    for s in sections:
        # an unnumbered section's label is its heading: the whole heading is its name
        name = _heading_name(s) if s.heading != s.label else _normal_name(s.heading)
        if name and s.label != FRONT_LABEL:
            names.setdefault(name, []).append(s)
    index = {name: secs[0] for name, secs in names.items() if len(secs) == 1}
    edges: list[Edge] = []
    for section in sections:
        text = " ".join(section.text.split())
        for m in QUOTED_HEADING.finditer(text):
            name = m.group("after") or m.group("before") or m.group("the")
            target = index.get(_normal_name(name))
            if target is not None and target.section_id != section.section_id:
                edges.append(_reference(QUOTED_HEADING, section, target, m.group(0), m.start()))
    return edges
