"""Layer 1 scopes: who or what a section applies to ("applies to all employees", "this
License applies to any program", "does not apply if"). Each form is a rule of graph.rules;
every `applies_to_scope` edge carries the id of the form that found it."""

import re

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.keys import split_scopes
from raag_assets.graph.lexicon import NUMBER_IN_WORDS, PEOPLE_NOUNS
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
        # the kind of person heads the phrase: not "Vendor's obligations", "Vendor Persons"
        r"(?![’'‘]s?\b|\s+(?-i:[A-Z])[a-z])"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This Policy applies to all full-time employees and contractors.",
        "The discount is available only to students based in Canada.",
    ),
    counter=(
        "This Policy applies to all purchases.",
        "None of the limits apply to Vendor's obligations.",
        "The terms do not apply to Vendor Products.",
    ),
)


# What a document or clause applies to, in general: "this License will apply ... to the whole
# of the work", "it applies also to any other work", "the definitions are applicable to the
# singular", "does not apply if ...", "X is covered by this License", "a license for X".
# A contract's rule is often named by what it is or where it stands: "the foregoing
# indemnification", "the aforementioned", "the request/approval process", "the grant of rights".
_RULE_SUBJECT = (
    r"(?:License|Licence|Agreement|Contract|Policy|Section|Article|Clause|Schedule|provisions?|"
    r"terms?|obligations?|restrictions?|requirements?|limitations?|definitions?|rules?|it|this|"
    r"they|services?|warrant(?:y|ies)|covenants?|exclusions?|conditions?|rights?|licen[cs]es?|"
    r"policy|procedures?|standards?|benefits?|foregoing|aforementioned|process(?:es)?|"
    r"indemnit(?:y|ies)|indemnification|waivers?|grants?|paragraphs?|subsections?|"
    r"exclusivity|confidentiality|disclaimers?)"
)
# A section number inside a clause ("the warranty granted in this Section 10.2 will not apply
# to ...") is no sentence end.
_GAP = r"(?:[^.;]|\.(?=\d|[A-Za-z]\b))"
_SCOPE_TEXT = r"(?P<scope>(?:[^;.:()•]|\.(?=\d|[A-Za-z]\b)){3,400})"
# Where a scope's phrase ends inside its sentence: a condition, an exception, a relative
# clause ("that", "which": not after a preposition, "code to which the developer attached
# the notice" is all scope), or a new clause with its own verb.
_SOFT_END = re.compile(
    r",\s*(?:regardless|provided|except|unless|if|whether|subject|or|notwithstanding|"
    r"and\s+(?:shall|will|may|is|are))\b|\s(?:if|unless|provided\s+(?:that|however)|"
    r"regardless|except|when|where|to\s+the\s+extent|in\s+accordance\s+with|subject\s+to|"
    r"even\s+(?:if|though|when|where)|"
    r"and\s+(?:shall|will|may|is|are))\b|"
    r"(?<!\bto)(?<!\bof)(?<!\bin)(?<!\bfor)(?<!\bby)(?<!\bwith)\s(?:that|which|who)\b|"
    r"\s(?:and|but|or)\s+(?:the|such|each|any|it|its|this|that)\s+(?:\w+\s+){0,2}"
    r"(?:shall|will|may|must|is|are)\b|"
    # a new clause: "provided Entrust agrees", ", NTL may obtain"
    r"\sprovided(?:\s+that\b|,|(?-i:\s+[A-Z]))|"
    r",\s*(?:[\w'’-]+\s+){1,3}(?:may|shall|will|must|agrees?)\b",
    re.IGNORECASE,
)
_SCOPE_MAX = 150
# A rule that does not apply: "shall not apply to X", "does not cover X", "in no event will
# the licenses extend to X", "no rights are granted in X". The phrase says so ("does not
# apply to x", "not x"): a reader, and a search for X, must not take it for what the rule
# covers.
_NO_EVENT = re.compile(r"\b(?:in\s+no\s+event|under\s+no\s+circumstances?)\b", re.I)
# "None of the limitations of liability (...) contained in this Agreement will apply to X":
# the clause's subject denies it, however far it stands from the verb
_NONE_OF = re.compile(r"\bnone\s+of\b", re.I)
LEFT_OUT = rule(
    "scope.left_out",
    "scope",
    "the words of a scope form, or the start of its sentence, deny it ('shall not apply to', "
    "'in no event will the licenses extend to'): the scope is one the rule leaves out",
    pattern=r"\b(?:not|never|no|none|neither|nor)\b",
    flags=re.IGNORECASE,
    examples=(
        "shall not apply to",
        "in no event will the licenses extend to",
        "none of the limitations will apply to",
    ),
    counter=("shall apply to", "the notice applies to"),
)
APPLIES_TO = rule(
    "applies_to_scope.applies_to",
    "scope",
    "a rule's subject (License, Section, warranty ...) applies / extends / is limited to X",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        rf"\b{_RULE_SUBJECT}\b{_GAP}{{0,80}}?(?<!\bthat\s)(?<!\bwhich\s)(?<!\bwho\s)"
        # "to the same extent as is applicable to the Parties" compares, it does not scope
        r"\b(?P<verb>appl(?:y|ies)|(?<!\bas\s)(?:is|are)\s+applicable|"
        r"extends?|(?:is|are|shall\s+be|will\s+be|being)\s+limited)"
        r"(?:\s+(?:also|only|solely|equally|therefore|fully|in\s+full))*"
        r"(?:\s*,[^,;.]{1,80},)?\s+(?:only\s+|solely\s+|also\s+|equally\s+)?"
        r"(?:to|with\s+respect\s+to|in\s+respect\s+of|(?<=apply\s)during|(?<=applies\s)during)"
        # a phrase set between the preposition and its object, ending in a preposition of its
        # own that shares the object: "shall apply only to, and is intended for the benefit of,
        # the Distributor's customers" (not "shall not apply to, and Sponsor agrees to defend,")
        r"(?:,[^,;.]{1,80}\b(?:of|to|for|against|from|with|in|on|by),)?\s+"
        rf"(?!the\s+extent\b|(?:any|such)\s+extent\b){_SCOPE_TEXT}"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This warranty applies only to goods bought from an authorised dealer.",
        "The restrictions are limited to the territory of the grant.",
        "The foregoing process shall also apply during the launch of any new product.",
        "The warranty in Section 10.2 will not apply to units that were misused.",
        "The warranties shall apply only to, and are intended for the benefit of, its customers.",
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
        rf"{_SCOPE_TEXT}"
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
        r"(?:^|(?<=[.;:]\s)|(?<=\n)|\b(?:The|the|A|a|An|an|Any|any)\s+)"
        r"(?P<scope>(?:[\w-]+,?\s+){1,7}?)"
        r"(?:is|are)\s+(?:not\s+)?covered\s+by\s+this\s+(?:License|Licence|Agreement|Policy)"
    ),
    examples=(
        "Any derived work is covered by this License.",
        "of the library.\n\nActivities other than copying are not covered by this License",
    ),
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
        rf"\b{_RULE_SUBJECT}\b{_GAP}{{0,60}}?\b(?:covers|(?:does|shall|will)\s+not\s+cover|"
        r"(?:is|are)\s+not\s+(?:be\s+)?deemed\s+to\s+cover)\s+"
        rf"{_SCOPE_TEXT}"
    ),
    flags=re.IGNORECASE,
    examples=(
        "The warranty does not cover normal wear and tear.",
        "This Agreement is not deemed to cover hardware maintenance.",
    ),
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
        rf"(?:any\s+)?{_SCOPE_TEXT}"
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
    pattern=(rf"{_NO_GRANT_HEAD}\s+(?:to|in|under)\s+(?:any\s+)?{_SCOPE_TEXT}"),
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
        rf"{_SCOPE_TEXT}"
    ),
    flags=re.IGNORECASE,
    examples=("The owner grants a non-exclusive license for the listed products.",),
    counter=("The owner grants a license for the term of the lease.",),
)
# What a grant or a use is limited to: "to use the Marks solely in connection with the
# advertisement of the Services", "will only be used by TDA in connection with its products",
# "for use solely in connection with the operation of the Center".
ONLY_IN_CONNECTION = rule(
    "applies_to_scope.only_in_connection",
    "scope",
    "solely / only / exclusively (used) in connection with X: what a grant or use is limited to",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        r"\b(?:solely|only|exclusively)\s+(?:(?:be\s+)?used\s+(?:by\s+[\w'’-]+\s+)?)?"
        r"(?:in\s+connection\s+with|in\s+conjunction\s+with|"
        r"for\s+use\s+(?:in\s+connection\s+with|in|with))\s+"
        rf"(?:or\s+directly\s+related\s+to\s+)?{_SCOPE_TEXT}"
    ),
    flags=re.IGNORECASE,
    examples=(
        "The Licensee may use the Marks solely in connection with the sale of the Products.",
        "The likeness will only be used by Acme in connection with its golf products.",
    ),
    counter=("The Licensee shall cooperate in connection with any audit.",),
)
# A grant limited to a field of use: "hereby grants ... a license to use the Licensed Domain
# Names in connection with the Business", "the exclusive right to market, sell and distribute
# Research Quantities of the Products within the Territory", "right and license to use the
# Licensed Mark solely and exclusively as a component of ...". Only a grant (the sentence says
# granted) whose phrase names its limit (GRANT_LIMIT): "the right to terminate only if" is no
# field of use, nor is a licence to use the Software with no limit named.
_EXPLOIT = (
    r"(?:use|access|make|have\s+made|sell|offer|market|distribute|promote|reproduce|copy|"
    r"display|perform|import|resell|sublicense|modify|practice|exploit|host|operate|"
    r"manufacture|advertise|publish)"
)
GRANT_FIELD = rule(
    "applies_to_scope.grant_field",
    "scope",
    "a licence or right granted to use (sell, market ...) X, limited to a field or a territory "
    "('in connection with', 'solely', 'for the purpose of', 'within the Territory')",
    edge_type="applies_to_scope",
    confidence=0.75,
    pattern=(
        r"\b(?P<scope>(?:licen[cs]es?|rights?)(?:\s+and\s+licen[cs]es?)?\s+to\s+"
        rf"{_EXPLOIT}\b(?:[^;.:()•]|\.(?=\d|[A-Za-z]\b)){{3,400}})"
    ),
    flags=re.IGNORECASE,
    examples=(
        "Licensor hereby grants a license to use the Marks in connection with the Business.",
        "grants the exclusive right to market and sell the Products within the Territory",
    ),
    counter=("The Buyer has the right to terminate this Agreement only if",),
)
GRANT_LIMIT = rule(
    "scope.grant_limit",
    "scope",
    "what limits a grant's phrase to a field of use or a territory (GRANT_FIELD needs one)",
    pattern=(
        r"\b(?:in\s+connection\s+with|in\s+conjunction\s+with|solely|only|exclusively|"
        r"for\s+the\s+(?:sole\s+|limited\s+)?purposes?\s+of|for\s+use\s+(?:in|with|by)|"
        r"(?:in|within|throughout)\s+the\s+(?:[\w-]+\s+)?Territory)\b"
    ),
    flags=re.IGNORECASE,
    examples=("to use the Marks solely on the Products", "to sell within the Exclusive Territory"),
    counter=("to use the Software",),
)
# the grant made ("grants", "is hereby granted", "shall grant"), not one wished for ("desires
# to have the Developer grant to it the right to market ...")
_GRANTED = re.compile(
    r"\b(?:grants|granted|granting|hereby\s+grants?|(?:shall|will|agrees?\s+to)\s+grant)\b",
    re.IGNORECASE,
)
# a right withheld in the grant's own words: "right and license without the right to
# sublicense to use the Marks"
_WITHHELD = re.compile(r"\b(?:without|no|not)\s+(?:the\s+|any\s+)?$", re.IGNORECASE)
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
    ONLY_IN_CONNECTION,
    OUTSIDE_SCOPE,
    GRANT_FIELD,
)
# A word every match of a general form holds (its verb; case aside, as the form's own flags
# fold at most as much): a section without it is not scanned by the form, whose search there
# is the costliest of the forms (a subject word, then up to 80 characters tried for the
# verb, at every subject word). Half the scopes' time on `make bench`'s corpus.
_NEEDS = {
    APPLIES_TO.id: re.compile(r"appl|extend|limited", re.IGNORECASE),
    COVERS.id: re.compile(r"cover", re.IGNORECASE),
    COVERED_BY.id: re.compile(r"covered", re.IGNORECASE),
    OUTSIDE_SCOPE.id: re.compile(r"scope", re.IGNORECASE),
    GRANT_FIELD.id: re.compile(r"licen|right", re.IGNORECASE),
}
REPORTED = rule(
    "scope.reported",
    "scope",
    "a scope reported, not said ('notices stating that this License applies to ...'): the "
    "text before the form, or before its verb, ends in 'that', or in 'stating' / 'saying' "
    "and at most two words",
    pattern=(
        r"(?:\b(?:stat(?:es|ing)|say(?:s|ing)|indicat(?:es|ing))\s+(?:that\s+)?"
        r"(?:[\w-]+\s+){0,2}|\bthat\s+)$"
    ),
    flags=re.IGNORECASE,
    examples=("keep the notices stating that ", "the license notice saying this License "),
    counter=(
        "keep the notices ",
        "the parties agree that the provisions of this clause shall not ",
    ),
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
# "rights of other persons that may apply to the Work": the verb of a relative clause says
# what something else applies to
RELATIVE = rule(
    "scope.relative",
    "scope",
    "the verb of a relative clause ('rights that may apply to'): another thing's scope, "
    "not the clause's",
    pattern=(
        r"(?:\b(?:that|which|who)\s+(?:(?:may|might|will|would|shall|could|can|do|does|also|"
        r"only)\s+(?:not\s+)?)?)$"
    ),
    flags=re.IGNORECASE,
    examples=("rights of other persons that may ", "the terms which shall not ", "manuals that "),
    counter=("the provisions of this clause shall not ",),
)
# "shall not apply to the terms and conditions of this Agreement": the document itself, as
# "this Agreement" (a pronoun scope) is
SELF = rule(
    "scope.self",
    "scope",
    "a scope that is the document itself ('the terms and conditions of this Agreement')",
    pattern=(
        r"^(?:the\s+)?(?:terms|provisions)(?:\s+and\s+(?:conditions|provisions))?\s+(?:of\s+)?"
        r"this\s+(?:agreement|license|licence|contract|policy)$"
    ),
    flags=re.IGNORECASE,
    examples=("the terms and conditions of this agreement", "the provisions of this license"),
    counter=("the terms of the supply agreement", "the products under this agreement"),
)
# "the Supplier's sole remedy under this warranty is limited to repair": a remedy, not a scope
REMEDY = rule(
    "scope.remedy",
    "scope",
    "a sole or exclusive remedy limited to X: the remedy, not what the rule covers",
    pattern=r"\b(?:sole|exclusive|only)\s+(?:and\s+exclusive\s+)?remed(?:y|ies)\b",
    flags=re.IGNORECASE,
    examples=("the Buyer's sole remedy under this warranty is limited to",),
    counter=("this warranty is limited to",),
)
# "liability shall be limited to an amount not to exceed the fees": a cap, not what is covered
AMOUNT = rule(
    "scope.amount",
    "scope",
    "a scope that is a sum ('limited to an amount not to exceed ...'): a cap, not a scope",
    pattern=r"^(?:an?|the)\s+(?:\w+\s+)?(?:amount|sum)\b",
    examples=("an amount not to exceed the fees paid", "the aggregate amount of the fees"),
    counter=("amounts paid in settlement of any claim",),
)


# "implied warranties are limited to one year from the date of purchase", "limited to ninety
# (90) days": how long a rule lasts, not what it covers
DURATION = rule(
    "scope.duration",
    "scope",
    "a scope that is a length of time ('limited to one year from delivery'): a duration, not "
    "a scope",
    pattern=(
        rf"^(?:a\s+(?:period|term)\s+of\s+)?(?:an?|\d+|{NUMBER_IN_WORDS})\s+(?:\(\d+\)\s+)?"
        r"(?:calendar\s+|business\s+)?(?:days?|weeks?|months?|years?)\b"
    ),
    flags=re.IGNORECASE,
    examples=("one year starting from the date of purchase", "ninety (90) days after delivery"),
    counter=("products sold in the territory", "the days of the week"),
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
        said = _people_said(text, m)
        if said is None:
            continue
        for scope in split_scopes(m.group("scope")):
            scope = f"does not apply to {scope}" if said else scope
            edges.append(_edge(section, APPLIES_TO_PEOPLE, m.start(), m.group(0), scope))
    for form in _FORMS:
        need = _NEEDS.get(form.id)
        if need is not None and not need.search(text):
            continue
        for m in form.finditer(text):
            cut = _cut(m.group("scope"))
            end = _end(m, cut)
            if overlaps(m.start(), end, taken):
                continue
            if form is GRANT_FIELD and not _granted_field(text, m, cut):
                continue
            kept = _scope(text, m, cut)
            if kept is None:
                continue
            taken.append((m.start(), end))
            edges.append(_edge(section, form, m.start("scope"), text[m.start() : end], kept))
    return edges


def _people_said(text: str, m: re.Match[str]) -> bool | None:
    """Whether a scope of kinds of people is one the rule leaves out ("the terms shall not
    apply to contractors", "none of the limits apply to employees"), or None when it is no
    scope of the clause: reported ("stating that it applies to"), or the verb of a relative
    clause ("manuals that are available to members")."""
    before = text[max(0, m.start() - 60) : m.start()]
    if REPORTED.search(before[-40:]) or RELATIVE.search(before):
        return None
    opening = re.split(r"[.;:,]", before[-30:])[-1]
    return bool(LEFT_OUT.search(f"{opening} {m.group(0)[: m.start('scope') - m.start()]}"))


def _granted_field(text: str, m: re.Match[str], cut: str) -> bool:
    """A grant's phrase (GRANT_FIELD) that its sentence says is granted, not denied ("has not
    granted nor will he grant to any other party any license to use ..." warrants no grant),
    and that names its limit (GRANT_LIMIT)."""
    opening = re.split(r"[.;:]\s", text[max(0, m.start() - 300) : m.start()])[-1]
    granted = _GRANTED.search(opening) and not LEFT_OUT.search(opening)
    if _WITHHELD.search(opening):
        return False
    return bool(granted and GRANT_LIMIT.search(cut))


def _end(m: re.Match[str], cut: str) -> int:
    """Where a form's match ends once its scope is `cut`: a scope that ends the match ends it."""
    return m.end() if m.end("scope") < m.end() else m.start("scope") + len(cut)


def _cut(scope: str) -> str:
    """A scope's text up to where its phrase ends in the sentence (`_SOFT_END`), and at most
    `_SCOPE_MAX` characters, cut after a whole word."""
    end = _SOFT_END.search(scope, 3)
    scope = scope[: end.start()] if end else scope
    if len(scope) > _SCOPE_MAX:
        scope = scope[: scope.rfind(" ", 0, _SCOPE_MAX)]
    return scope


def _scope(text: str, m: re.Match[str], cut: str) -> str | None:
    """The phrase of the scope a general form matched, its text `cut` where the phrase ends
    (`_cut`): "not x" when the rule excludes x, unless a veto rule says it is none."""
    verb = m.start("verb") if "verb" in m.re.groupindex else m.start()
    if REPORTED.search(text[max(0, verb - 40) : verb]) or REPORTED.search(
        text[max(0, m.start() - 40) : m.start()]
    ):
        return None
    if REMEDY.search(text[m.start() : verb]) or RELATIVE.search(text[max(0, verb - 60) : verb]):
        return None
    scope = re.sub(r"\s+(?:that|which|who)$", "", _clean_scope(cut))
    if (
        PRONOUN.search(scope)
        or AMOUNT.search(scope)
        or SELF.search(scope)
        # a duration read on the text as written: "ninety (90) days" is cut at its parenthesis
        or DURATION.search(text[m.start("scope") : m.start("scope") + 60])
    ):
        return None
    if len(scope) < 3 or not re.search(r"[a-z]", scope) or PERIOD.search(scope):
        return None
    if m.re is OUTSIDE_SCOPE.pattern:  # what the document leaves out, and where it says so
        return f"not {scope}, {' '.join(m['beyond'].split())}"
    # the words of the form around its scope ("shall not apply to", "are not covered by"), and
    # the start of its sentence ("in no event will the licenses extend to")
    opening = re.split(r"[.;:]", text[max(0, m.start() - 30) : m.start()])[-1]
    said = text[m.start() : m.start("scope")] + text[m.end("scope") : m.end()]
    clause = re.split(r"[.;:]", text[max(0, m.start() - 200) : m.start()])[-1]
    if _NO_EVENT.search(opening) or _NONE_OF.search(clause):
        said = f"{opening} {clause} {said}"
    if m.re is NOT_APPLY_IF.pattern or not LEFT_OUT.search(said):
        return scope
    return f"does not apply to {scope}" if m.re is APPLIES_TO.pattern else f"not {scope}"


def _edge(section: SectionInfo, by: Rule, position: int, evidence: str, scope: str) -> Edge:
    return by.edge(
        src_doc_id=section.doc_id,
        src_section_id=section.section_id,
        matched_text=" ".join(evidence.split()),
        normalized_target=scope,
        scope=scope,
        position=position,
    )
