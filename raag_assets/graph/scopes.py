"""Layer 1 scopes: who or what a section applies to ("applies to all employees", "this
License applies to any program", "does not apply if")."""

import re

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.keys import split_scopes

_SCOPE_NOUNS = (
    r"employees?|staff|workers?|contractors?|managers?|members?|users?|roles?|persons?|"
    r"people|individuals?|licensees?|recipients?|customers?|students?|residents?|tenants?|"
    r"consultants?|agents?|suppliers?|vendors?|visitors?|volunteers?|interns?|officers?|"
    r"directors?|subscribers?|patients?"
)
# Where the people are ("Customers located in the European Union", "employees based in France")
# is part of who is in scope.
_SCOPE_PLACE = (
    r"(?:\s+(?:located|resident|based|employed|working|established)\s+(?:in|outside)\s+"
    r"(?:the\s+)?[\w-]+(?:\s+(?!and\b|or\b)[A-Z][\w-]*){0,3})?"
)
_SCOPE_JOIN = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
_SCOPE = re.compile(
    r"\b(?:appl(?:y|ies)|is\s+available|are\s+available|extends?|is\s+limited|are\s+limited)"
    r"\s+(?:only\s+)?to\s+(?P<scope>(?:all\s+|every\s+|any\s+)?(?:[\w-]+\s+){0,3}?"
    rf"(?:{_SCOPE_NOUNS}){_SCOPE_PLACE}"
    rf"(?:{_SCOPE_JOIN}(?:to\s+)?(?:all\s+|every\s+|any\s+)?(?:[\w-]+\s+){{0,3}}?"
    rf"(?:{_SCOPE_NOUNS}){_SCOPE_PLACE})*)\b",
    re.IGNORECASE,
)


# What a document or clause applies to, in general: "this License will apply ... to the whole
# of the work", "it applies also to any other work", "the definitions are applicable to the
# singular", "does not apply if ...", "X is covered by this License", "a license for X".
_RULE_SUBJECT = (
    r"(?:License|Licence|Agreement|Contract|Policy|Section|Article|Clause|Schedule|provisions?|"
    r"terms?|obligations?|restrictions?|requirements?|limitations?|definitions?|rules?|it|this|"
    r"they|services?|warrant(?:y|ies)|covenants?|exclusions?|conditions?|rights?|licen[cs]es?|"
    r"policy|procedures?|standards?|benefits?)"
)
_SCOPE_END = (
    r"(?=\s*(?:[;.:()]|,\s*(?:regardless|provided|except|unless|if|whether|subject|or|"
    r"notwithstanding|and\s+(?:shall|will|may|is|are))\b|\s(?:if|unless|provided\s+(?:that|however)|"
    r"regardless|"
    r"except|when|where|that|which|who|and\s+(?:shall|will|may|is|are))\b|"
    r"\s(?:and|but|or)\s+(?:the|such|each|any|it|its|this|that)\s+(?:\w+\s+){0,2}"
    r"(?:shall|will|may|must|is|are)\b)|$)"
)
_APPLIES = re.compile(
    rf"\b{_RULE_SUBJECT}\b[^.;]{{0,80}}?(?<!\bthat\s)(?<!\bwhich\s)(?<!\bwho\s)"
    r"\b(?P<verb>appl(?:y|ies)|(?:is|are)\s+applicable|"
    r"extends?|(?:is|are|shall\s+be|will\s+be)\s+limited)"
    r"(?:\s+(?:also|only|solely|equally|therefore|fully|in\s+full))*"
    r"(?:\s*,[^,;.]{1,80},)?\s+(?:only\s+|solely\s+|also\s+|equally\s+)?to\s+"
    rf"(?!the\s+extent\b|(?:any|such)\s+extent\b)(?P<scope>[^;.:()]{{3,120}}?){_SCOPE_END}",
    re.IGNORECASE,
)
_NOT_APPLY_IF = re.compile(
    r"\b(?:does|do|shall|will)\s+not\s+apply\s+(?:if|where|when)\s+"
    rf"(?P<scope>[^;.:()]{{3,120}}?){_SCOPE_END}",
    re.IGNORECASE,
)
_COVERED_BY = re.compile(
    r"(?:^|(?<=[.;:]\s)|\b(?:The|the|A|a|An|an|Any|any)\s+)(?P<scope>(?:[\w-]+,?\s+){1,7}?)"
    r"(?:is|are)\s+(?:not\s+)?covered\s+by\s+this\s+(?:License|Licence|Agreement|Policy)"
)
# "This Policy covers all personal data ...", "the warranty does not cover damage caused by ...":
# the active form of "X is covered by this License".
_COVERS = re.compile(
    rf"\b{_RULE_SUBJECT}\b[^.;]{{0,60}}?\b(?:covers|(?:does|shall|will)\s+not\s+cover)\s+"
    rf"(?P<scope>[^;.:()]{{3,120}}?){_SCOPE_END}",
    re.IGNORECASE,
)
# "For Customers in the European Union, the following terms apply": a scope stated before the
# rule it limits (only where the sentence then says that terms apply).
_FOR_SCOPE = re.compile(
    r"(?:^|(?<=[.;:]\s))For\s+(?P<scope>(?:all\s+|any\s+|each\s+)?[\w-]+(?:\s+[\w'’-]+){0,8}?)\s*,"
    r"\s+(?:the\s+following|these|this|such|the\s+terms\s+of\s+this)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:shall\s+|will\s+|also\s+)?appl(?:y|ies)\b"
)
# What a grant leaves out: "this Section 3.01 does not grant any rights or licenses to any OEM
# Technology", "no rights are granted ... with respect to any Trademarks or Domain Names".
_NO_GRANT_HEAD = (
    r"\b(?:(?:does|shall|will)\s+not\s+grant\s+(?:any\s+)?(?:rights?|licen[cs]es?)"
    r"(?:\s+(?:or|and)\s+(?:licen[cs]es?|rights?))?|no\s+(?:rights?|licen[cs]es?)"
    r"(?:\s+(?:or|and)\s+(?:licen[cs]es?|rights?))?\s+(?:are|is|shall\s+be)\s+granted)"
)
# the subject matter ("with respect to any Trademarks") over the grantee ("to the SpinCo Group")
_NO_GRANT_RESPECT = re.compile(
    rf"{_NO_GRANT_HEAD}[^.;:()]{{0,80}}?\s(?:with\s+respect\s+to|in\s+respect\s+of)\s+"
    rf"(?:any\s+)?(?P<scope>[^;.:()]{{3,100}}?){_SCOPE_END}",
    re.IGNORECASE,
)
_NO_GRANT = re.compile(
    rf"{_NO_GRANT_HEAD}\s+(?:to|in|under)\s+(?:any\s+)?(?P<scope>[^;.:()]{{3,100}}?){_SCOPE_END}",
    re.IGNORECASE,
)
_LICENSE_FOR = re.compile(
    r"\b(?:a|an)\s+(?:[\w-]+,?\s+){0,8}?licen[cs]e\s+for\s+"
    r"(?!the\s+(?:purpose|term|period|duration)\b)"
    rf"(?P<scope>[^;.:()]{{3,100}}?){_SCOPE_END}",
    re.IGNORECASE,
)


def _clean_scope(phrase: str) -> str:
    phrase = re.sub(r"^(?:all|every|each)\s+", "", " ".join(phrase.split()), flags=re.I)
    return phrase.strip(" ,").casefold()


def scope_edges(section: SectionInfo) -> list[Edge]:
    edges = []
    taken: list[tuple[int, int]] = []

    def add(start: int, evidence: str, scope: str, confidence: float) -> None:
        edges.append(
            Edge(
                "applies_to_scope",
                layer=1,
                src_doc_id=section.doc_id,
                src_section_id=section.section_id,
                matched_text=" ".join(evidence.split()),
                normalized_target=scope,
                confidence=confidence,
                scope=scope,
                position=start,
            )
        )

    for m in _SCOPE.finditer(section.text):
        taken.append((m.start(), m.end()))
        for scope in split_scopes(m.group("scope")):
            add(m.start(), m.group(0), scope, 0.9)
    for pattern in (
        _APPLIES,
        _NOT_APPLY_IF,
        _COVERED_BY,
        _COVERS,
        _FOR_SCOPE,
        _NO_GRANT_RESPECT,
        _NO_GRANT,
        _LICENSE_FOR,
    ):
        for m in pattern.finditer(section.text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            if re.search(r"\bthat\s+$", section.text[max(0, m.start() - 12) : m.start()]):
                continue  # reported ("notices stating that this License applies to ..."), not said
            scope = re.sub(r"\s+(?:that|which|who)$", "", _clean_scope(m.group("scope")))
            if re.match(r"(?:it|them|you|us|him|her|this|that|these|those)\b", scope):
                continue  # "applies to it": the scope is elsewhere
            if len(scope) < 3 or not re.search(r"[a-z]", scope) or re.search(r"\b\d{4}\b", scope):
                continue  # a period is a calendar limit (applies_to), not a scope
            taken.append((m.start(), m.end()))
            add(m.start("scope"), section.text[m.start() : m.end()], scope, 0.75)
    return edges
