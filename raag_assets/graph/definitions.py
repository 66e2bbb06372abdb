"""Layer 1 definitions: a term defined in a section ('"Force Majeure" means', '(the
"Licensor")', 'hereinafter referred to as', an entry of a definitions section)."""

import re

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.keys import term_key

_DEFINITION = re.compile(
    r"(?:^|(?<=[\s(]))(?:(?:To|A|An|The|Each)\s+)?[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"]"
    r"(?:\s*\((?:or|and)\s+[“\"](?P<alias>[^“”\"\n]{1,40})[”\"]\))?"
    r"(?P<between>(?:,?\s+[\w'’-]+){0,7}?)\s*,?\s+"
    r"(?P<verb>(?:also\s+)?means|shall\s+mean|refers\s+to|shall\s+refer\s+to|"
    r"(?:is|shall\s+be)\s+defined\s+as|(?:shall\s+)?ha(?:s|ve)\s+the\s+meanings?|includes?|"
    r"which\s+means|"
    r"is\s+(?:either|any|a|an)|are\s+(?:all|any|terms|those|certain))\b"
)
# A verb or predicate defined with its object between: 'To "Preserve the Title" of such a
# section when you modify the Document means'; 'An MMC is "eligible for relicensing" if'.
_DEFINITION_VERBAL = re.compile(
    r"\bTo\s+[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"](?:\s+[\w'’-]+){0,12}?,?\s+means\b"
    r"|\b(?:is|are)\s+[“\"](?P<pred>[^“”\"\n]{1,60}?)[”\"]\s+(?:if|when|where)\b"
)
# '... is called a "modified version"', 'Each licensee is addressed as "you"'
_DEFINITION_CALLED = re.compile(
    r"\b(?:(?:is|are)\s+(?:also\s+)?(?:called|considered|deemed|known\s+as)|addressed\s+as)\s+(?:(?:a|an|the)\s+)?"
    r"(?:[\w]+['’]s\s+)?[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"]"
)
_HEADING_TERM = re.compile(
    r"^[“\"](?P<term>[^“”\"]{1,60})[”\"](?:\s*\((?:or|and)\s+[“\"](?P<alias>[^“”\"]{1,40})[”\"]\))?"
)
# '(the "Enterprise License")', '("NTL")', '(each, a "Party")': a term defined in passing.
_PAREN = re.compile(r"\((?P<inner>[^()]{2,160})\)")
# '(each such divested entity or line of business, a "Divested Entity")': the parenthesis
# describes what the term names, then gives it.
_EACH_SUCH = re.compile(
    r"^\s*(?:each|any|every|all)\s+such\b[^“”\"]{0,160},\s*(?:a|an|the|each\s+a|each\s+an)\s+"
    r"[“\"](?P<term>[^“”\"]{1,60}?)[”\"]\s*$"
)
# Fields of a signature block, and a company's name, are no headed definitions.
_FORM_FIELD = re.compile(
    r"(?:^|\s)(?:By|Name|Title|Its|Date|Signature|Address|Attention|Attn|Email|Fax|Telephone)$"
    r"|\b(?i:inc|incorporated|ltd|limited|llc|llp|plc|gmbh|corp|corporation)\.?$"
)
_QUOTED = re.compile(r"[“\"](?P<term>[^“”\"]{1,80}?)[”\"]")
_PAREN_GLUE = re.compile(
    r"(?:the|a|an|this|each|such|collectively|individually|together|jointly|severally|"
    r"hereinafter|herein|hereafter|referred|to|as|and|or|being|called|also|known|"
    r"license|licence|agreement|[,;:])*",
    re.IGNORECASE,
)
# '... are sometimes referred to collectively herein as the "Parties" and individually as a
# "Party"': adverbs between, and a second name after "and ... as".
_REFERRED_AS = re.compile(
    r"\b(?:(?:hereinafter|hereafter|herein)\s+(?:referred\s+to\s+as|called)|"
    r"(?:being\s+)?referred\s+to\s+(?:(?:herein|hereinafter|collectively|individually|together|"
    r"jointly|separately|each)\s+){0,3}as)\s+(?:the\s+|a\s+|an\s+)?"
    r"[“\"](?P<term>[^“”\"\n]{1,60}?)[”\"]"
    r"(?:,?\s+(?:and|or)\s+(?:(?:each|individually|separately|collectively)\s+)?as\s+"
    r"(?:the\s+|a\s+|an\s+)?[“\"](?P<term2>[^“”\"\n]{1,60}?)[”\"])?",
    re.IGNORECASE,
)
# A section of definitions: its heading, or the sentence that opens it, says so.
_DEFINITIONS_SECTION = re.compile(
    r"\bdefinitions?\b|\bdefined\s+terms\b|\binterpretation\b|"
    r"\bfollowing\s+(?:terms|words|expressions)\b[^.]{0,60}\bmeanings?\b|"
    r"\bterms\s+(?:shall\s+)?have\s+the\s+(?:following|respective)\s+meanings?\b",
    re.IGNORECASE,
)
# In a section's text only the sentence that opens a list of definitions marks one (the word
# "definition" in passing does not).
_DEFINITIONS_LEAD = re.compile(
    r"\bfollowing\s+(?:terms|words|expressions)\b[^.]{0,60}\bmeanings?\b|"
    r"\bterms\s+(?:shall\s+)?have\s+the\s+(?:following|respective)\s+meanings?\b|"
    r"\bas\s+used\s+(?:herein|in\s+this\s+\w+)\s*,?\s+the\s+following\b",
    re.IGNORECASE,
)
# In a definitions section, an entry headed by the term: "Business Day. Any day other than",
# "Affiliate: any entity", "object code means ...".
_HEADED_ENTRY = re.compile(
    r"(?:^|\n\s*\n|;\s+|(?<=[.:]\s))\s*(?:\(?[a-z0-9]{1,4}[.)]\s+)?"
    r"(?!(?:The|A|An|This|That|These|Any|Each|All|No|In|If|For)\s)"
    r"(?P<term>[A-Z][\w'’&/-]*(?:\s+(?:[A-Z][\w'’&/-]*|of|or|and|the|for|to|in|on)){0,6})"
    # the spaces after the stop are left to the next entry's anchor ("Authority.  Note ...")
    r"(?:\s*(?:\.|:|—|–)(?=\s+[A-Z(“\"])|\s+(?=(?:means|shall\s+mean|refers\s+to)\b))"
)
# Several terms given one meaning: '"Authority" and "Authorities" means', 'The terms "hereof",
# "herein" or "hereunder" shall refer to'.
_DEFINITION_LIST = re.compile(
    r"(?P<terms>[“\"][^“”\"\n]{1,60}[”\"](?:\s*,\s*(?:and\s+|or\s+)?[“\"][^“”\"\n]{1,60}[”\"]|"
    r"\s+(?:and|or)\s+[“\"][^“”\"\n]{1,60}[”\"])+)"
    r"(?:\s*,?\s*and\s+similar\s+(?:expressions|words|terms))?\s*"
    r"(?:(?:shall\s+)?(?:means?|refers?\s+to|mean\s+and\s+refer\s+to|refer\s+to)|"
    r"(?:shall\s+)?ha(?:s|ve)\s+the\s+meanings?)\b"
)
_STARTS_DEFINITION = re.compile(r"^(?:means|shall\s+mean|refers\s+to|is\s+defined\s+as)\b")


def states_definition(sentence: str) -> bool:
    """A sentence that defines a term ('"Affiliate" means ...'): its citations are part of the
    definition, not relations of the section."""
    return _DEFINITION.search(sentence) is not None


def definitions(section: SectionInfo) -> list[Edge]:
    """'"Force Majeure" means ...', '"X" refers to', '"X" shall mean', and a definition
    section whose heading is the quoted term and whose text starts with "means"."""
    found: list[tuple[int, str, str]] = []  # (position, term, evidence)
    heading = _HEADING_TERM.match(section.heading)
    if heading and _STARTS_DEFINITION.match(section.text):
        evidence = f"{section.heading} {section.text[:40]}".strip()
        found.append((0, heading.group("term"), evidence))
        if heading.group("alias"):
            found.append((0, heading.group("alias"), evidence))
    for m in _DEFINITION.finditer(section.text):
        found.append((m.start(), m.group("term"), m.group(0)))
        if m.group("alias"):
            found.append((m.start(), m.group("alias"), m.group(0)))
    for m in _DEFINITION_CALLED.finditer(section.text):
        found.append((m.start(), m.group("term"), m.group(0)))
    for m in _DEFINITION_VERBAL.finditer(section.text):
        found.append((m.start(), m.group("term") or m.group("pred"), m.group(0)))
    for m in _DEFINITION_LIST.finditer(section.text):
        for q in _QUOTED.finditer(m.group("terms")):
            found.append((m.start() + q.start(), q.group("term"), m.group(0)))
    for m in _REFERRED_AS.finditer(section.text):
        found.append((m.start(), m.group("term"), m.group(0)))
        if m.group("term2"):
            found.append((m.start("term2"), m.group("term2"), m.group(0)))
    for m in _PAREN.finditer(section.text):
        quoted = list(_QUOTED.finditer(m.group("inner")))
        glue = _QUOTED.sub(" ", m.group("inner"))
        # quoted names joined by words ('"GRC" or "the Company"'), not a run of quoted tokens
        # ('("CHARSET" "US-ASCII")', a syntax example)
        adjacent = re.search(r"[”\"]\s*[“\"]", m.group("inner"))
        glued = _PAREN_GLUE.fullmatch(" ".join(glue.split()).replace(" ", "")) is not None
        if quoted and glued and not adjacent:
            for q in quoted:
                found.append((m.start(), q.group("term"), m.group(0)))
        elif each := _EACH_SUCH.search(m.group("inner")):
            found.append((m.start(), each.group("term"), m.group(0)))
    marker = _DEFINITIONS_SECTION.search(section.heading) or _DEFINITIONS_LEAD.search(section.text)
    if marker:
        start = 0 if marker.string is section.heading else marker.end()
        last_end = -1
        for m in _HEADED_ENTRY.finditer(section.text, start):
            term = m.group("term")
            if not section.text[last_end : m.start("term")].strip(" .:;\n") and last_end >= 0:
                # a name right after an entry is its definition: "FINRA. Financial Industry
                # Regulatory Authority."; the name after that definition is the next entry
                last_end = -1
                continue
            last_end = m.end()
            if term.split()[-1].lower() in ("of", "or", "and", "the", "for", "to", "in", "on"):
                continue
            if _DEFINITIONS_SECTION.fullmatch(term):
                continue  # the run-in heading "Definitions." itself
            if _FORM_FIELD.search(term):
                continue  # a signature block ("ACME INC. By: ... Name: Jo Bloggs Title: CEO")
            for part in re.split(r"\s+or\s+", term):
                found.append((m.start("term"), part, m.group(0).strip()))
    edges = []
    for position, term, evidence in found:
        # '"Component(s)"': the drafter's optional plural; the term is "Component", whose
        # pattern finds both numbers
        term = re.sub(r"(?<=\w)\((?:s|es)\)\s*$", "", term.strip())
        term = " ".join(re.sub(r"-{2,}", " ", term).split()).strip(" ,.:;")
        if not term or len(term.split()) > 6 or not re.match(r"[^\W\d_]|\d+\s+[A-Z][a-z]", term):
            continue  # a term is words ("1933 Act" too), not "{", "#" or "%"
        edges.append(
            Edge(
                "defines",
                layer=1,
                src_doc_id=section.doc_id,
                src_section_id=section.section_id,
                matched_text=evidence,
                normalized_target=term_key(term),
                confidence=1.0,
                term=term,
                position=position,
            )
        )
    return edges
