"""Edges particular to standards (RFC-style plain-text specifications).

A standard names its sections by the protocol element they describe (`6.3.1. SELECT Command`,
`7. Server Responses`, `11. Security Considerations`) and cites them by that name behind a
pointer phrase ("see the description of the SELECT command", "the Security Considerations
section", 'the section entitled "X"'), rarely by number. Its terms of art are lower-case
protocol nouns introduced in prose ("A system flag is ...", 'are called "untagged
responses"'), not quoted capitalised terms. Both forms are general to the genre; the rules
below only run on a document that reads as a standard (`is_standard`).
"""

import re
from collections.abc import Sequence

from raag_assets.graph.model import Edge, SectionInfo
from raag_assets.graph.patterns import term_key

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
    r"(?:^|(?<=[.:;]\s)|(?<=\n))\s*(?:A|An)\s+(?P<term>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}?)\s+"
    r"(?:is\s+(?:a|an|the|one|any|defined\s+as)\b|consists\s+of|refers\s+to|"
    r"is\s+used\s+to\s+refer\s+to)"
)
_CALLED = re.compile(
    r"\b(?:(?:is|are)\s+(?:also\s+)?called\s+(?=[a-z\"“])|called\s+(?=an?\s+[\"“]))"
    r"(?:a\s+|an\s+|the\s+)?"
    r"(?:[\"“](?P<quoted>[^\"”]{1,60})[\"”]|(?P<plain>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){1,3}?))"
    r"(?=[\s.,;:)])"
)
# words an article-led sentence starts with that are no term ("A client is ...", "An example
# is ..."): general English nouns whose sentence describes, not defines
_NOT_TERMS = {"example", "note", "server", "client", "user", "implementation", "command"}


def is_standard(sections: Sequence[SectionInfo]) -> bool:
    """A document whose opening block carries an RFC / Internet-Draft header."""
    head = "\n".join(s.text[:3000] for s in sections[:2])
    return bool(_STANDARD_HEADER.search(head))


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
    edges = []
    for position, evidence, target in found:
        if target.section_id == section.section_id:
            continue  # a section naming itself
        edges.append(
            Edge(
                "references",
                layer=1,
                src_doc_id=section.doc_id,
                src_section_id=section.section_id,
                matched_text=evidence,
                normalized_target=target.label,
                confidence=0.9,
                dst_doc_id=target.doc_id,
                dst_section_id=target.section_id,
                position=position,
            )
        )
    return edges


def _singular(term: str) -> str:
    words = term.split()
    last = words[-1]
    if last.endswith("ies"):
        last = last[:-3] + "y"
    elif last.endswith("s") and not last.endswith("ss"):
        last = last[:-1]
    return " ".join([*words[:-1], last])


def prose_definitions(section: SectionInfo) -> list[Edge]:
    """`defines` edges for lower-case protocol nouns introduced in prose."""
    text = section.text
    found: list[tuple[int, str, str]] = []
    for m in _ARTICLE_DEFINITION.finditer(text):
        term = " ".join(m.group("term").split())
        if term.split()[0] not in _NOT_TERMS:
            found.append((m.start("term"), term, m.group(0).strip()))
    for m in _CALLED.finditer(text):
        term = " ".join((m.group("quoted") or m.group("plain")).split())
        found.append((m.start(), _singular(term) if m.group("plain") else term, m.group(0)))
    return [_defines(section, term, evidence, position) for position, term, evidence in found]


# BCP 14's boilerplate (RFC 2119/8174): 'The key words "MUST", "MUST NOT", ... in this document
# are to be interpreted as described in ...' defines each quoted key word.
_KEY_WORDS = re.compile(
    r"(?P<list>(?:[\"“][A-Z][A-Z ]{1,20}[\"”],?\s+(?:and\s+|or\s+)?){2,})"
    r"(?:[^.]{0,80}?)\bare\s+to\s+be\s+interpreted\s+as\b"
)
# '"client" refers to ...', '"User" is used to refer to ...', 'The word "can" ... is used to
# refer to': a terminology section's entries
_QUOTED_REFERS = re.compile(
    r"[\"“](?P<term>[^\"”]{1,40})[\"”](?:\s*\([^)]{0,40}\))?\s+"
    r"(?:refers\s+to|is\s+used\s+to\s+refer\s+to|are\s+used\s+to\s+refer\s+to)\b"
)


def terminology(section: SectionInfo) -> list[tuple[int, str, str]]:
    """(position, term, evidence) of the key words and quoted terminology entries."""
    text = " ".join(section.text.split())
    found = []
    for m in _KEY_WORDS.finditer(text):
        for w in re.finditer(r"[\"“]([A-Z][A-Z ]{1,20})[\"”]", m.group("list")):
            found.append((m.start(), w.group(1).strip(), m.group(0)))
    for m in _QUOTED_REFERS.finditer(text):
        found.append((m.start(), m.group("term").strip(), m.group(0)))
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
    if _KEY_WORDS.search(" ".join(evidence.split())):
        return False  # MUST, SHOULD NOT: modal verbs, read the same without the definition
    if 2 <= len(words) <= 4 and all(re.fullmatch(r"[a-z][a-z-]*", w) for w in words):
        return True
    if len(words) == 1:
        return bool(re.fullmatch(r"[A-Z]{2,12}", term))
    return all(w[:1].isupper() for w in words)  # a capitalised coined name


_OF_ANOTHER = r"\s+of\s+(?:\[[^\]\s]{1,40}\]|RFC\s*\d+)"


def cites_another_document(edge: Edge, section: SectionInfo) -> bool:
    """'Section 5.1 of [SASL]', 'section 2.1 of RFC 2595': a section of a cited document, not
    of this one (every occurrence of the matched words is so qualified)."""
    if edge.edge_type not in ("references", "depends_on", "overrides") or not edge.matched_text:
        return False
    text = " ".join(section.text.split())
    words = re.escape(" ".join(edge.matched_text.split()))
    return bool(re.search(words + _OF_ANOTHER, text)) and not re.search(
        words + rf"(?!{_OF_ANOTHER})\b", text
    )


def standard_edges(sections: Sequence[SectionInfo]) -> list[Edge]:
    """The edges a standard's own forms add to one document's sections (none otherwise)."""
    if not is_standard(sections):
        return []
    index = heading_index(sections)
    by_id = {s.section_id: s for s in sections}
    edges: list[Edge] = []
    for s in sections:
        edges.extend(name_citations(s, index))
        edges.extend(prose_definitions(s))
        edges.extend(_defines(s, term, ev, pos) for pos, term, ev in terminology(s))
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
