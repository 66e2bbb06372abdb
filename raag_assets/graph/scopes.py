"""Layer 1 scopes: who or what a section applies to ("applies to all employees", "this
License applies to any program", "does not apply if"). Each form is a rule of graph.rules;
every `applies_to_scope` edge carries the id of the form that found it."""

import re

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.keys import split_scopes
from raag_assets.graph.lexicon import PEOPLE_NOUNS
from raag_assets.graph.overlaps import Span, overlaps
from raag_assets.graph.rules import Rule, rule

# Where the people are ("Customers located in the European Union", "employees based in France")
# is part of who is in scope.
_SCOPE_PLACE = (
    r"(?:\s+(?:located|resident|based|employed|working|established)\s+(?:in|outside)\s+"
    r"(?:the\s+)?[\w-]+(?:\s+(?!and\b|or\b)[A-Z][\w-]*){0,3})?"
)
_SCOPE_JOIN = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
APPLIES_TO_PEOPLE = rule(
    "applies_to_scope.applies_to_people",
    "scope",
    "applies / is available / is limited to <kinds of people>, one scope per kind",
    edge_type="applies_to_scope",
    confidence=0.9,
    pattern=(
        r"\b(?:appl(?:y|ies)|is\s+available|are\s+available|extends?|is\s+limited|are\s+limited)"
        r"\s+(?:only\s+)?to\s+(?P<scope>(?:all\s+|every\s+|any\s+)?(?:[\w-]+\s+){0,3}?"
        rf"(?:{PEOPLE_NOUNS}){_SCOPE_PLACE}"
        rf"(?:{_SCOPE_JOIN}(?:to\s+)?(?:all\s+|every\s+|any\s+)?(?:[\w-]+\s+){{0,3}}?"
        rf"(?:{PEOPLE_NOUNS}){_SCOPE_PLACE})*)\b"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This Policy applies to all full-time employees and contractors.",
        "The discount is available only to students based in Canada.",
    ),
    counter=("This Policy applies to all purchases.",),
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
APPLIES_TO = rule(
    "applies_to_scope.applies_to",
    "scope",
    "a rule's subject (License, Section, warranty ...) applies / extends / is limited to X",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        rf"\b{_RULE_SUBJECT}\b[^.;]{{0,80}}?(?<!\bthat\s)(?<!\bwhich\s)(?<!\bwho\s)"
        r"\b(?P<verb>appl(?:y|ies)|(?:is|are)\s+applicable|"
        r"extends?|(?:is|are|shall\s+be|will\s+be)\s+limited)"
        r"(?:\s+(?:also|only|solely|equally|therefore|fully|in\s+full))*"
        r"(?:\s*,[^,;.]{1,80},)?\s+(?:only\s+|solely\s+|also\s+|equally\s+)?to\s+"
        rf"(?!the\s+extent\b|(?:any|such)\s+extent\b)(?P<scope>[^;.:()]{{3,120}}?){_SCOPE_END}"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This warranty applies only to goods bought from an authorised dealer.",
        "The restrictions are limited to the territory of the grant.",
    ),
    counter=("The fee is reduced to the extent permitted by law.",),
)
NOT_APPLY_IF = rule(
    "applies_to_scope.does_not_apply_if",
    "scope",
    "does / shall not apply if / where / when <circumstance>",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        r"\b(?:does|do|shall|will)\s+not\s+apply\s+(?:if|where|when)\s+"
        rf"(?P<scope>[^;.:()]{{3,120}}?){_SCOPE_END}"
    ),
    flags=re.IGNORECASE,
    examples=("This clause does not apply where the goods are perishable.",),
    counter=("This clause does not apply to perishable goods.",),
)
COVERED_BY = rule(
    "applies_to_scope.covered_by",
    "scope",
    "X is (not) covered by this License / Agreement / Policy",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        r"(?:^|(?<=[.;:]\s)|\b(?:The|the|A|a|An|an|Any|any)\s+)(?P<scope>(?:[\w-]+,?\s+){1,7}?)"
        r"(?:is|are)\s+(?:not\s+)?covered\s+by\s+this\s+(?:License|Licence|Agreement|Policy)"
    ),
    examples=("Any derived work is covered by this License.",),
    counter=("Any derived work is covered by insurance.",),
)
# "This Policy covers all personal data ...", "the warranty does not cover damage caused by ...":
# the active form of "X is covered by this License".
COVERS = rule(
    "applies_to_scope.covers",
    "scope",
    "a rule's subject covers / does not cover X",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        rf"\b{_RULE_SUBJECT}\b[^.;]{{0,60}}?\b(?:covers|(?:does|shall|will)\s+not\s+cover)\s+"
        rf"(?P<scope>[^;.:()]{{3,120}}?){_SCOPE_END}"
    ),
    flags=re.IGNORECASE,
    examples=("The warranty does not cover normal wear and tear.",),
    counter=("The roof covers the whole yard.",),
)
# "For Customers in the European Union, the following terms apply": a scope stated before the
# rule it limits (only where the sentence then says that terms apply).
FOR_SCOPE = rule(
    "applies_to_scope.for_scope",
    "scope",
    "For X, the following / these terms apply: a scope stated before its rule",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        r"(?:^|(?<=[.;:]\s))For\s+(?P<scope>(?:all\s+|any\s+|each\s+)?[\w-]+(?:\s+[\w'’-]+){0,8}?)"
        r"\s*,\s+(?:the\s+following|these|this|such|the\s+terms\s+of\s+this)\s+(?:[\w-]+\s+){0,2}?"
        r"(?:shall\s+|will\s+|also\s+)?appl(?:y|ies)\b"
    ),
    examples=("For members abroad, the following rules apply.",),
    counter=("For the avoidance of doubt, the fee is due.",),
)
# What a grant leaves out: "this Section 3.01 does not grant any rights or licenses to any OEM
# Technology", "no rights are granted ... with respect to any Trademarks or Domain Names".
_NO_GRANT_HEAD = (
    r"\b(?:(?:does|shall|will)\s+not\s+grant\s+(?:any\s+)?(?:rights?|licen[cs]es?)"
    r"(?:\s+(?:or|and)\s+(?:licen[cs]es?|rights?))?|no\s+(?:rights?|licen[cs]es?)"
    r"(?:\s+(?:or|and)\s+(?:licen[cs]es?|rights?))?\s+(?:are|is|shall\s+be)\s+granted)"
)
# the subject matter ("with respect to any Trademarks") over the grantee ("to the SpinCo Group")
NO_GRANT_RESPECT = rule(
    "applies_to_scope.no_grant_respect",
    "scope",
    "no rights are granted ... with respect to X: the subject matter a grant leaves out",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        rf"{_NO_GRANT_HEAD}[^.;:()]{{0,80}}?\s(?:with\s+respect\s+to|in\s+respect\s+of)\s+"
        rf"(?:any\s+)?(?P<scope>[^;.:()]{{3,100}}?){_SCOPE_END}"
    ),
    flags=re.IGNORECASE,
    examples=("No rights are granted to the buyer with respect to any patents.",),
    counter=("The rights granted to the buyer are perpetual.",),
)
NO_GRANT = rule(
    "applies_to_scope.no_grant",
    "scope",
    "does not grant any rights to / in / under X",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        rf"{_NO_GRANT_HEAD}\s+(?:to|in|under)\s+(?:any\s+)?"
        rf"(?P<scope>[^;.:()]{{3,100}}?){_SCOPE_END}"
    ),
    flags=re.IGNORECASE,
    examples=("This Section does not grant any rights in the source code.",),
    counter=("This Section grants rights in the source code.",),
)
LICENSE_FOR = rule(
    "applies_to_scope.license_for",
    "scope",
    "a ... license for X: what a licence is granted for",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        r"\b(?:a|an)\s+(?:[\w-]+,?\s+){0,8}?licen[cs]e\s+for\s+"
        r"(?!the\s+(?:purpose|term|period|duration)\b)"
        rf"(?P<scope>[^;.:()]{{3,100}}?){_SCOPE_END}"
    ),
    flags=re.IGNORECASE,
    examples=("The owner grants a non-exclusive license for the listed products.",),
    counter=("The owner grants a license for the term of the lease.",),
)
# the general forms, in the order they are tried: a match takes its text from the later ones
# "The details of how drivers submit requests is outside the scope of this specification",
# "Such a work falls outside the scope of this License": the subject is what the document
# leaves out.
OUTSIDE_SCOPE = rule(
    "applies_to_scope.outside_scope",
    "scope",
    "X is / falls outside (beyond) the scope of this specification / License / Agreement: X is "
    "excluded",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        r"(?:^|(?<=[.;:!?]\s)|(?<=\n))(?:(?:The|the|Any|any|Such|such)\s+)?"
        r"(?P<scope>[A-Za-z][^.;:\n]{2,160}?)"
        # "Such a work is not a derivative work, and therefore falls outside": the subject
        r"(?:,?\s+(?:is|are)\s+[^.;:\n]{0,100}?,?\s+and\s+(?:therefore|thus|hence|so))?"
        r"\s+(?:is|are|falls?|lies?|remains?)\s+"
        r"(?:(?:entirely|wholly|therefore|thus)\s+)?(?P<beyond>(?:outside|beyond)\s+(?:of\s+)?the\s+"
        r"scope\s+of\s+this\s+(?:specification|extension|document|standard|protocol|License|"
        r"Licence|Agreement|Policy))\b"
    ),
    flags=re.IGNORECASE,
    examples=(
        "The details of how a driver submits requests is outside the scope of this specification.",
        "Training of staff is beyond the scope of this Agreement.",
        "Such a tool, alone, is not a part of the Work, and therefore falls outside the scope of "
        "this License.",
    ),
    counter=("The work is outside the territory.", "This is within the scope of this License."),
)
_FORMS = (
    APPLIES_TO,
    NOT_APPLY_IF,
    COVERED_BY,
    COVERS,
    FOR_SCOPE,
    NO_GRANT_RESPECT,
    NO_GRANT,
    LICENSE_FOR,
    OUTSIDE_SCOPE,
)
REPORTED = rule(
    "scope.reported",
    "scope",
    "a scope reported, not said ('notices stating that this License applies to ...'): the "
    "text before the match ends in 'that'",
    pattern=r"\bthat\s+$",
    examples=("keep the notices stating that ",),
    counter=("keep the notices ",),
)
PRONOUN = rule(
    "scope.pronoun",
    "scope",
    "a scope that is a pronoun ('applies to it'): what it stands for is elsewhere",
    pattern=r"^(?:it|them|you|us|him|her|this|that|these|those)\b",
    examples=("it and its parts", "those"),
    counter=("the whole work",),
)
PERIOD = rule(
    "scope.period",
    "scope",
    "a scope naming a year: a period is a calendar limit (applies_to), not a scope",
    pattern=r"\b\d{4}\b",
    examples=("leave taken in 2021",),
    counter=("all employees",),
)


def _clean_scope(phrase: str) -> str:
    phrase = re.sub(r"^(?:all|every|each)\s+", "", " ".join(phrase.split()), flags=re.I)
    return phrase.strip(" ,").casefold()


def scope_edges(section: SectionInfo) -> list[Edge]:
    """Scopes of kinds of people first (one per kind), then the general forms; text one form
    has taken is not read again by a later one."""
    text = section.text
    edges = []
    taken: list[Span] = []
    for m in APPLIES_TO_PEOPLE.finditer(text):
        taken.append(m.span())
        for scope in split_scopes(m.group("scope")):
            edges.append(_edge(section, APPLIES_TO_PEOPLE, m.start(), m.group(0), scope))
    for form in _FORMS:
        for m in form.finditer(text):
            if overlaps(m.start(), m.end(), taken):
                continue
            kept = _scope(text, m)
            if kept is None:
                continue
            if form is OUTSIDE_SCOPE:  # an exclusion reads as one: "X outside the scope of ..."
                kept = f"{kept} {' '.join(m['beyond'].split())}"
            taken.append(m.span())
            edges.append(_edge(section, form, m.start("scope"), m.group(0), kept))
    return edges


def _scope(text: str, m: re.Match[str]) -> str | None:
    """The scope a general form matched, unless a veto rule says it is none."""
    if REPORTED.search(text[max(0, m.start() - 12) : m.start()]):
        return None
    scope = re.sub(r"\s+(?:that|which|who)$", "", _clean_scope(m.group("scope")))
    if PRONOUN.search(scope):
        return None
    if len(scope) < 3 or not re.search(r"[a-z]", scope) or PERIOD.search(scope):
        return None
    return scope


def _edge(section: SectionInfo, by: Rule, position: int, evidence: str, scope: str) -> Edge:
    return by.edge(
        src_doc_id=section.doc_id,
        src_section_id=section.section_id,
        matched_text=" ".join(evidence.split()),
        normalized_target=scope,
        scope=scope,
        position=position,
    )
