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

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.keys import term_key
from raag_assets.graph.references import expand_labels

# The header block of an RFC or Internet-Draft (RFC 7322 section 4.1).
_STANDARD_HEADER = re.compile(
    r"Request\s+for\s+Comments:\s*\d+|Internet[- ]Draft|"
    r"Category:\s*(?:Standards\s+Track|Informational|Experimental|Best\s+Current\s+Practice)",
    re.IGNORECASE,
)

# A pointer phrase before a section's name: the cited words start at `at`.
_POINTER = re.compile(
    r"\b(?:see|refer\s+to|(?:described|discussed|specified|defined|documented)\s+in)\s+"
    r"(?:also\s+)?the\s+"
    r"(?:(?:description|documentation|discussion|definition)s?\s+of\s+the\s+)?(?=\S)",
    re.IGNORECASE,
)
# "the X section", "the X description", "the X documentation": a capitalised name followed by a
# word that makes it a place in the document (change logs drop the article: "Add IANA
# Considerations section").
_NAME_THEN_PLACE = re.compile(
    r"\b(?:the\s+|a\s+new\s+)?[\"“]?(?P<name>[A-Z][\w/-]*(?:\s+[\w/-]+){0,5}?)[\"”]?\s+"
    r"(?:section|description|documentation)\b"
)
_ENTITLED = re.compile(
    r"\bsection\s+(?:entitled|titled|named)\s+[\"“](?P<name>[^\"”]{2,80})[\"”]", re.IGNORECASE
)

# Prose definitions of lower-case protocol nouns: "A system flag is a flag name ...", "A number
# consists of ...", "A checkpoint refers to ..." (sentence start, indefinite article), and
# introductions by "called": 'called a "tag"', "are called untagged responses".
_ARTICLE_DEFINITION = re.compile(
    r"(?:^|(?<=[.:;]\s)|(?<=\n))\s*"
    # a scoping lead-in: "For the purposes of this specification, a host is a ..."
    r"(?:(?:(?:For\s+the\s+purposes?\s+of|As\s+used\s+in|Throughout|In)\s+this\s+"
    r"(?:specification|document|memo)),\s+(?:a|an)|A|An)\s+"
    # an acronym may lead the noun ("An SMTP reply is ...")
    r"(?P<term>(?:[A-Z]{2,6}\s+)?[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}?)"
    # an alias in parentheses: 'A domain name (or often just a "domain") consists of'
    r"(?:\s*\((?:[^()\"“”]{0,30}[\"“](?P<alias>[a-z][\w -]{0,30})[\"”])?[^()]{0,30}\))?\s+"
    r"(?:is\s+(?:a|an|the|one|any|defined\s+as|in\s+one\s+of)\b|consists\s+of|refers\s+to|"
    r"is\s+used\s+to\s+refer\s+to)"
)
# "Permanent flags are those which ...": a class defined by what belongs to it (plural, at a
# sentence start, two to four words).
_ARE_THOSE = re.compile(
    r"(?:^|(?<=[.:;]\s)|(?<=\n))\s*(?P<term>[A-Z][a-z-]*(?:\s+[a-z][a-z-]*){1,3}?)\s+"
    r"are\s+those\s+(?:which|that|whose|for\s+which|in\s+which)\b"
)
_CALLED = re.compile(
    r"\b(?:(?:is|are)\s+(?:also\s+)?called\s+(?=[a-z\"“])|called\s+(?=an?\s+[\"“])|"
    # 'Data structures are represented as a "parenthesized list"': the quotes coin the name
    r"(?:is|are)\s+(?:represented|known)\s+as\s+(?=(?:an?\s+)?[\"“])|"
    # 'refers to them as the "SMTP client"', 'usually referred to just as a "relay"'
    r"(?:refers?|referred)\s+to\s+(?:\w+\s+){0,2}?as\s+(?=(?:the\s+|an?\s+)?[\"“]))"
    r"(?:a\s+|an\s+|the\s+)?"
    r"(?:[\"“](?P<quoted>[^\"”]{1,60})[\"”]|(?P<plain>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){1,3}?))"
    r"(?=[\s.,;:)])"
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
_EXAMPLE_PARAGRAPH = re.compile(rf"{_TRANSCRIPT}|\s*[A-Za-z][\w-]*\s+=/?\s")


# The requirement-language boilerplate that specifications beyond the IETF's adopt (W3C,
# freedesktop.org, industry standards): 'The key words "MUST", ... are to be interpreted as
# described in RFC 2119' (or BCP 14), the key words quoted or not.
_KEY_WORDS_ADOPTED = re.compile(
    r"key\s*words\b.{0,400}?\binterpreted\s+as\s+described\s+in\s+(?:\[?RFC\s*-?2119|BCP\s*14)",
    re.IGNORECASE | re.DOTALL,
)


def is_standard(sections: Sequence[SectionInfo]) -> bool:
    """A specification: an RFC / Internet-Draft header in its opening block, or a section that
    adopts the RFC 2119 key words."""
    head = "\n".join(s.text[:3000] for s in sections[:2])
    return bool(_STANDARD_HEADER.search(head)) or any(
        _KEY_WORDS_ADOPTED.search(s.text) for s in sections
    )


_BIBLIOGRAPHY_HEADING = re.compile(r"\b(?:references|bibliography)\s*$", re.IGNORECASE)


def is_bibliography(section: SectionInfo) -> bool:
    """A list of cited documents ("12.1. Normative References": paragraphs opening with a
    "[TAG]"): its entries give other documents' titles, where this document's terms are not
    used ("[RFC6750] ..., "The OAuth 2.0 Authorization Framework: Bearer Token Usage"")."""
    entries = re.findall(r"(?:^|\n)[ \t]*\[[^\]\s]{1,40}\]", section.text)
    return bool(_BIBLIOGRAPHY_HEADING.search(section.heading)) and len(entries) >= 2


def _heading_name(section: SectionInfo) -> str:
    """A section's heading without its number: `6.3.1. SELECT Command` -> `select command`."""
    heading = section.heading
    if heading.startswith(section.label):
        heading = heading[len(section.label) :]
    return " ".join(heading.strip(" .").casefold().split())


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
    found: list[tuple[int, str, SectionInfo]] = []
    for m in _POINTER.finditer(text):
        target = _longest_heading(_words_at(text, m.end()), index)
        if target is not None:
            found.append((m.start(), m.group(0), target))
    for m in [*_NAME_THEN_PLACE.finditer(text), *_ENTITLED.finditer(text)]:
        target = _by_suffix(m.group("name"), index)
        if target is not None:
            found.append((m.start(), m.group(0), target))
    return [
        _reference(section, target, evidence, position, 0.9)
        for position, evidence, target in found
        if target.section_id != section.section_id  # a section naming itself
    ]


# A section number cited without the word "section" ("Emphasize in 5.2 that ...", "see 7.4.2",
# "see 7.4.2 and 7.4.3"): dotted numbers right after "see", "refer to" or a preposition of
# place, ending there (not "1.5 seconds", not "2.1 of [IMAP-TLS]", a section of another
# document; "of", "to" and "from" also lead values and versions: "a value of 1.5", "from
# HTTP/1.0 to 1.1").
_DOTTED = r"\d{1,3}(?:\.\d{1,3}){1,4}"
_BARE_NUMBER = re.compile(
    rf"\b(?:see|refer\s+to|in|under|per)\s+(?P<labels>{_DOTTED}"
    rf"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+){_DOTTED})*)"
    r"(?=[,;:)]|\.?(?:\s|$))(?!\.?\s+of\s+(?:\[|RFC\b))"
    r"(?!\.?\s+(?:%|percent|seconds?|minutes?|hours?|days?|octets?|bytes?|bits?|times|[kmg]b)\b)",
    re.IGNORECASE,
)


def bare_number_citations(
    section: SectionInfo, labels: dict[str, SectionInfo], examples: Sequence[tuple[int, int]] = ()
) -> list[Edge]:
    """`references` edges for bare section numbers that name sections of this document (a
    number that names none is a version, a count or a value, and so is a list holding one)."""
    edges = []
    for m in _BARE_NUMBER.finditer(section.text):
        targets = [labels.get(label) for label in expand_labels(m.group("labels"))]
        if _inside(m.start(), examples) or None in targets:
            continue
        edges.extend(
            _reference(section, target, m.group(0), m.start(), 0.8)
            for target in targets
            if target is not None and target.section_id != section.section_id
        )
    return edges


# "Appendix B", "Appendix A.1": where the document labels its appendices by the letter alone
# ("A.  Normative References", the older RFC style), the letter is the label.
_APPENDIX = re.compile(r"\bAppendix\s+(?P<label>[A-Z](?:\.\d{1,2}){0,3})(?![\w-])")


def appendix_citations(section: SectionInfo, labels: dict[str, SectionInfo]) -> list[Edge]:
    """`references` edges for appendices cited by their letter in a document whose appendix
    headings carry the letter only (the general patterns look for a label "Appendix B")."""
    edges = []
    for m in _APPENDIX.finditer(section.text):
        target = labels.get(m.group("label"))
        if target is None or f"Appendix {m.group('label')}" in labels:
            continue
        if target.section_id != section.section_id:
            edges.append(_reference(section, target, m.group(0), m.start(), 0.9))
    return edges


def _reference(
    section: SectionInfo, target: SectionInfo, evidence: str, position: int, confidence: float
) -> Edge:
    return Edge(
        "references",
        layer=1,
        src_doc_id=section.doc_id,
        src_section_id=section.section_id,
        matched_text=evidence,
        normalized_target=target.label,
        confidence=confidence,
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
    form = re.compile(_TRANSCRIPT) if transcripts_only else _EXAMPLE_PARAGRAPH
    return [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", text) if form.match(m.group())]


def _inside(position: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(a <= position < b for a, b in spans)


def prose_definitions(section: SectionInfo) -> list[Edge]:
    """`defines` edges for lower-case protocol nouns introduced in prose."""
    text = section.text
    examples = example_spans(text)
    found: list[tuple[int, str, str]] = []
    for m in _ARTICLE_DEFINITION.finditer(text):
        term = " ".join(m.group("term").split())
        words = term.split()
        head = words[1] if words[0].isupper() and len(words) > 1 else words[0]
        if head not in _NOT_TERMS | _CASE_WORDS and not _RELATIVE & set(words):
            found.append((m.start("term"), term, m.group(0).strip()))
            if m.group("alias"):
                found.append((m.start("alias"), m.group("alias").strip(), m.group(0).strip()))
    for m in _ARE_THOSE.finditer(text):
        term = _singular(" ".join(m.group("term").split()))
        if term.split()[0].casefold() not in _CASE_WORDS:
            found.append((m.start("term"), term[0].lower() + term[1:], m.group(0).strip()))
    for m in _CALLED.finditer(text):
        term = " ".join((m.group("quoted") or m.group("plain")).split())
        found.append((m.start(), _singular(term) if m.group("plain") else term, m.group(0)))
    return [
        _defines(section, term, evidence, position)
        for position, term, evidence in found
        if not _inside(position, examples)
    ]


# BCP 14's boilerplate (RFC 2119/8174): 'The key words "MUST", "MUST NOT", ... in this document
# are to be interpreted as described in ...' defines each quoted key word.
_KEY_WORDS_LIST = re.compile(
    r"(?P<list>(?:[\"“][A-Z][A-Z ]{1,20}[\"”],?\s+(?:and\s+|or\s+)?){2,})"
    r"(?:[^.]{0,80}?)\bare\s+to\s+be\s+interpreted\s+as\b"
)
# '"client" refers to ...', '"User" is used to refer to ...', 'The word "can" ... is used to
# refer to': a terminology section's entries
_QUOTED_REFERS = re.compile(
    r"[\"“](?P<term>[^\"”]{1,40})[\"”](?:\s*\([^)]{0,40}\))?\s+"
    r"(?:refers\s+to|is\s+used\s+to\s+refer\s+to|are\s+used\s+to\s+refer\s+to)\b"
    # 'This document uses the term "endpoint" to refer to ...', 'the term "X" denotes ...',
    # 'The terms "message content" and "mail data" are used interchangeably ... to describe'
    r"|\bterms?\s+(?P<named>[\"“][^\"”]{1,40}[\"”](?:(?:\s*,\s*|\s+)(?:and\s+|or\s+)?"
    r"[\"“][^\"”]{1,40}[\"”])*)\s+(?:(?:is|are)\s+used\s+(?:[\w,]+\s+){0,6}?)?"
    r"(?:to\s+)?(?:refer\s+to|refers\s+to|mean|means|denotes?|designates?|describe)\b"
)


# A paragraph that opens with a quoted term and says what it is ('"Conventions" are basic
# principles or procedures.'): a terminology entry.
_QUOTED_OPENS = re.compile(
    r"(?:^|(?<=\n))[ \t]*[\"“](?P<term>[A-Za-z][A-Za-z -]{0,40})[\"”]\s+(?:is|are)\s+(?!not\b)"
)
# 'The special form "NIL" represents ...', 'the notation "X" denotes ...': a quoted token
# introduced by the kind of token it is and given a meaning.
_QUOTED_REPRESENTS = re.compile(
    r"\b(?:form|token|notation|symbol|value|keyword)\s+[\"“](?P<term>[A-Za-z][^\"”\s]{0,30})[\"”]"
    r"\s+(?:represents|denotes|stands\s+for)\b"
)


# A definition list, the usual form of a standard's terminology ("resource owner" on its own
# line, its definition indented below; or "client:  The endpoint that ..."): once reflowed, a
# paragraph that opens with a noun phrase and goes straight on to an article. Prose never opens
# a paragraph in lower case, nor runs a name into "An entity ..." without a verb. A term in
# capitals only ("BODY A form of ...") is a protocol token described in a list, not a term;
# a capitalised name takes no colon ("Note: The ..." is a remark).
_LIST_ENTRY = re.compile(
    r"(?:^|(?<=\n))[ \t]*(?:[o*•-]\s+)?(?:"
    # "client:  Either the client or the server" (RFC 8446): after a colon any sentence
    r"(?P<colon>[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){0,3}):\s+(?=[A-Z])|"
    r"(?:(?P<term>[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){0,3})|"
    r"(?P<name>[A-Z][A-Za-z0-9-]*(?:\s+[A-Z][A-Za-z0-9-]*){0,3})"
    r"(?:\s+\((?P<alias>[A-Z][A-Za-z0-9-]{1,11})\))?)\s+(?:A|An|The)\s+(?=[A-Za-z]))"
)
# Where a list is one of definitions: a section headed as terminology, or one whose list is
# introduced so ("OAuth defines four roles:", "This document uses the following terms:"),
# not the list of a structure's fields ("The basic fields ... are in the following order:").
_TERMINOLOGY_HEADING = re.compile(
    r"\b(?:terminology|definitions?|glossary|terms|abbreviations|acronyms)\b", re.IGNORECASE
)
_TERMINOLOGY_LEAD = re.compile(r"\b(?:defines?|terms|terminology|definitions)\b[^\n]*:\s*$")


def list_definitions(section: SectionInfo) -> list[tuple[int, str, str]]:
    """(position, term, evidence) of the entries of a definition list."""
    paragraphs = section.text.split("\n")
    if not (
        _TERMINOLOGY_HEADING.search(section.heading)
        or any(_TERMINOLOGY_LEAD.search(p) for p in paragraphs)
    ):
        return []
    found = []
    for m in _LIST_ENTRY.finditer(section.text):
        group = next(g for g in ("colon", "term", "name") if m.group(g))
        term = " ".join(m.group(group).split())
        if not re.search(r"[a-z]", term):
            continue
        found.append((m.start(group), term, m.group(0).strip()))
        if m.group("alias"):
            found.append((m.start("alias"), m.group("alias"), m.group(0).strip()))
    return found


_QUOTED = re.compile(r"[\"“]([^\"”]{1,40})[\"”]")
# A quoted name with its acronym: 'act as "Mail Transfer Agents" (MTAs)', '"Mail User Agents"
# (MUAs or UAs) are ...': the quotes coin the name and the parenthesis its short form.
_QUOTED_ACRONYM = re.compile(
    r"[\"“](?P<term>[A-Z][\w-]*(?:\s+[A-Za-z][\w-]*){1,4})[\"”]\s*"
    r"\((?P<alias>[A-Z]{2,8})s?(?:\s+or\s+(?P<alias2>[A-Z]{2,8})s?)?\)"
)


def terminology(section: SectionInfo) -> list[tuple[int, str, str]]:
    """(position, term, evidence) of the key words and quoted terminology entries."""
    text = " ".join(section.text.split())
    found = []
    for m in _KEY_WORDS_LIST.finditer(text):
        for w in re.finditer(r"[\"“]([A-Z][A-Z ]{1,20})[\"”]", m.group("list")):
            found.append((m.start(), w.group(1).strip(), m.group(0)))
    for m in _QUOTED_REFERS.finditer(text):
        terms = [m.group("term")] if m.group("term") else _QUOTED.findall(m.group("named"))
        found.extend((m.start(), t.strip(), m.group(0)) for t in terms)
    for m in _QUOTED_REPRESENTS.finditer(text):
        found.append((m.start(), m.group("term"), m.group(0)))
    for m in _QUOTED_ACRONYM.finditer(text):
        names = [m.group("term"), m.group("alias"), m.group("alias2")]
        found.extend((m.start(), name, m.group(0)) for name in names if name)
    examples = example_spans(section.text)
    for m in _QUOTED_OPENS.finditer(section.text):
        if not _inside(m.start(), examples):
            found.append((m.start(), m.group("term").strip(), m.group(0).strip()))
    return found


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
    if _KEY_WORDS_LIST.search(" ".join(evidence.split())):
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
_OF_ANOTHER = re.compile(rf"\s+of\s+{_CITED_DOC}")
_ANOTHERS = re.compile(rf"{_CITED_DOC},?\s*$")


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
        _OF_ANOTHER.match(text, m.end()) or _ANOTHERS.search(text, 0, m.start()) for m in spots
    )


# A date inside a quoted "term" ('"ON 13-APR-2000" means ...'): a protocol value, not a term.
_DATE = re.compile(
    r"\d{1,2}[-/ ](?:[A-Za-z]{3,9})[-/ ]\d{4}|\d{4}-\d{2}-\d{2}|[A-Za-z]{3,9}\s+\d{1,2},\s+\d{4}"
)
# What may stand between a quoted term and the verb that defines it: nothing but a comma or a
# parenthesis ('"client" refers to', '"can" (not "may") is used to refer to').
_QUOTED_LEAD = re.compile(r"(?:(?:To|A|An|The|Each)\s+)?[\"“][^\"”]+[\"”](?P<rest>.*)", re.S)
_VERB_NEXT = re.compile(
    r"(?:\s*,?\s*(?:and\s+|or\s+)?[\"“][^\"”]{1,60}[\"”])*"  # '"A" and "B" mean'
    r"\s*,?\s*(?:also\s+)?(?:means|mean|shall|refers?|is|are|has|have|includes?|which\s+means)\b"
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
    if _inside(edge.position, examples) or _DATE.search(term):
        return True
    # a grammar's rule names are also prose words ('A "URI" is ...'); a transcript's are data
    data = " ".join(section.text[a:b] for a, b in example_spans(section.text, True))
    if term and re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", data):
        return True
    if _modifier_in_parentheses(edge, section.text):
        return True
    quoted = _QUOTED_LEAD.match(edge.matched_text or "")
    if quoted is None:
        return False
    rest = re.sub(r"\([^()]*\)", " ", quoted.group("rest"))
    return not _VERB_NEXT.match(rest)


_VERB_AFTER = re.compile(
    r"\s*(?:[,;:.)]|$|(?:is|are|was|were|has|have|shall|will|may|must|means?|refers?|and|or)\b)"
)


def _modifier_in_parentheses(edge: Edge, text: str) -> bool:
    """'the final ("delivery") MTA': a quoted word in parentheses inside a noun phrase glosses
    the noun after it; a name given in passing is followed by the sentence's verb or a stop."""
    matched = edge.matched_text or ""
    if not re.fullmatch(r"\(\s*[\"“][^\"”]{1,40}[\"”]\s*\)", matched):
        return False
    after = edge.position + len(matched)
    return text[edge.position : after] == matched and not _VERB_AFTER.match(text, after)


_FOR_EXAMPLE = re.compile(r"\b(?:for\s+example|for\s+instance|e\.g\.|example:)", re.IGNORECASE)


def example_date(edge: Edge, section: SectionInfo) -> bool:
    """A calendar limit read out of a standard's example ('For example, the criteria ... SINCE
    1-Feb-1994 refers to all messages placed in the mailbox since February 1, 1994'): the
    example's value, not a limit on the document."""
    if edge.edge_type != "applies_to":
        return False
    text = section.text
    start = max(text.rfind(". ", 0, edge.position), text.rfind("\n", 0, edge.position)) + 1
    return _inside(edge.position, example_spans(text)) or bool(
        _FOR_EXAMPLE.search(text, start, edge.position)
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
        edges.extend(_defines(s, term, ev, pos) for pos, term, ev in terminology(s))
        edges.extend(_defines(s, term, ev, pos) for pos, term, ev in list_definitions(s))
    edges.extend(_defines(s, term, ev, 0) for s, term, ev in headed_definitions(sections, by_id))
    return edges


def _defines(section: SectionInfo, term: str, evidence: str, position: int) -> Edge:
    return Edge(
        "defines",
        layer=1,
        src_doc_id=section.doc_id,
        src_section_id=section.section_id,
        matched_text=evidence,
        normalized_target=term_key(term),
        confidence=0.9,
        term=term,
        position=position,
    )
