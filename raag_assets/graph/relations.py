"""Layer 1 for one section: citations (graph/references.py) and the typed edges their
context gives them (overrides, depends_on, amends), and what a citation resolves to.

Each cue family is a rule of kind "cue" (graph/rules.py): an edge typed by a cue carries the
cue's id, a `references` edge the id of the citation form that found its mention."""

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from raag_assets.core.model import FRONT_LABEL, Edge, SectionInfo, Unresolved
from raag_assets.graph.definitions import states_definition
from raag_assets.graph.documents import Amended, amendment_of, amendment_parked
from raag_assets.graph.overlaps import inside
from raag_assets.graph.references import (
    OCR_KEYWORD,
    TEXINFO_XREF,
    Corpus,
    Mention,
    citation_rule,
    contents_spans,
    find_mentions,
    is_contents,
    iter_sentences,
)
from raag_assets.graph.rules import Rule, rule

# Relations by cue family (GRAPH_GOLD.md). A cue stands before the citation in its clause,
# with only other citations and joining words between ("Subject to the provisions of
# subsection (g) of this Section 4.1 and Section 8.2"): matched on the clause with every
# citation masked as NUL characters. A cue after the citation is matched on the rest of the
# sentence (its pattern is anchored with ^).
_MASK = "\x00"
_DOC_SELF = r"(?:Agreement|License|Licence|Contract|Policy|Amendment|Addendum|document|Deed|Terms)"
# The words that may stand between a cue and its citation: the citation's own frame ("the
# provisions of Section 4"), and the document itself narrowed to the citation ("subject to
# the terms of this Agreement and in particular Section 4"); not "the license set forth in".
_TAIL = (
    r"(?:\s|,|\x00|\b(?:and|or|either|both|for|the|other|provisions?|terms?|conditions?|sections?|"
    r"articles?|"
    r"clauses?|subsections?|paragraphs?|of|in|this|such|hereof|herein|hereunder|any|all|"
    r"applicable|relevant|set\s+forth|contained|foregoing|preceding|to|requirements?|"
    rf"restrictions?|procedures?|limitations?|in\s+particular|particularly|this\s+{_DOC_SELF})\b"
    r"|\([^()]{0,60}\))*$"
)
# What a citation holds, named by what it gives or sets: 'the exclusive right granted to the
# Distributor in', 'the restrictions set forth in'.
_GIVEN_IN = (
    r"(?:the|any|such|all)\s+(?:[\w'’-]+\s+){1,4}?(?:granted|given|set\s+(?:forth|out)|specified|"
    r"described|provided|contained|stated|established|imposed|conferred)\s+"
    r"(?:(?:to|on|upon)\s+(?:the\s+|any\s+)?[\w'’-]+\s+)?(?:for\s+)?(?:in|under|by)"
)
OVERRIDE_BEFORE = rule(
    "overrides.notwithstanding",
    "cue",
    "a clause that prevails over the citation that ends it ('notwithstanding Section 4')",
    edge_type="overrides",
    confidence=0.9,
    pattern=(
        r"\b(?:notwithstanding|in\s+spite\s+of|regardless\s+of|despite|prevails?\s+over|"
        r"takes?\s+precedence\s+over|overrides?|supersedes?|in\s+lieu\s+of|"
        r"as\s+an\s+exception\s+to|without\s+(?:being\s+)?(?:bound\s+by|regard\s+to)|"
        r"(?:modif(?:y|ies)|var(?:y|ies))\s+the\s+(?:obligations?|requirements?|provisions?)\s+"
        r"(?:in|of|under)|in\s+derogation\s+(?:of|from))"
        # "notwithstanding the foregoing or anything in Section 8.2 to the contrary"
        r"(?:\s+the\s+(?:foregoing|preceding|above)\s+(?:or|and|nor))?"
        r"(?:\s+anything(?:\s+to\s+the\s+contrary)?(?:\s+(?:contained|set\s+forth))?\s+in"
        # what the citation holds, displaced: 'notwithstanding the rights granted to the
        # Licensee in Section 2', 'despite the limits imposed by Section 5'
        rf"|\s+{_GIVEN_IN})?" + _TAIL
    ),
    flags=re.IGNORECASE,
    examples=(
        "Notwithstanding the provisions of ",
        "This clause takes precedence over ",
        "Notwithstanding the right granted to the Distributor in ",
        "despite the limits imposed by ",
        "Notwithstanding the foregoing or anything in ",
    ),
    counter=("The Supplier shall deliver the goods ",),
)
# "Notwithstanding Clause 6.2, this Clause 6 and Clauses 1 and 5 shall survive": the cue's
# list of targets ends at a comma that opens a new phrase; what follows is what prevails.
OVERRIDE_LIST_ENDS = rule(
    "overrides.list_ends",
    "cue",
    "a citation, a comma and a new phrase ('Notwithstanding Section 4, this Section 6 ...'): "
    "the cue's targets end there, the citations after it are no targets (veto)",
    pattern=r"\x00\s*,\s+(?:this|these|such|each|the)\b",
    flags=re.IGNORECASE,
    examples=("Notwithstanding \x00\x00\x00, this ", "despite \x00\x00, the rights under "),
    counter=("Notwithstanding \x00\x00, \x00\x00 and ", "in lieu of \x00\x00 and "),
)
# "pursuant to X" names the source of a thing ("sums payable pursuant to Section 5.4", "the
# payments due pursuant to Section 5.2.1"): a condition only inside a condition or exception
# (DEPENDS_WEAK). "subject to the escalation procedure specified in Section 2.8": the
# condition is the procedure the citation holds.
_HELD_IN = (
    r"(?:the|any|such|its|their)\s+(?:[\w-]+\s+){1,4}?(?:set\s+(?:forth|out)|specified|described|"
    r"provided|contained|stated|established|defined)\s+(?:for\s+)?(?:in|under|by)"
)
DEPENDS_CUE = rule(
    "depends_on.subject_to",
    "cue",
    "a clause made subject to, conditional on or in accordance with the citation that ends it",
    edge_type="depends_on",
    confidence=0.85,
    pattern=(
        rf"\b(?:(?:subject\s+to|in\s+accord(?:ance)?\s+with|in\s+compliance\s+with)\s+{_HELD_IN}|"
        r"subject\s+(?:always\s+|only\s+|further\s+|in\s+all\s+respects\s+)?to|"
        r"conditional\s+(?:up)?on|"
        r"contingent\s+(?:up)?on|conditioned\s+(?:up)?on|"
        r"in\s+accord(?:ance)?\s+with|according\s+to|"
        # "under the conditions of sections 2 and 3", "under the terms defined in section 4"
        r"under\s+the\s+(?:terms|conditions)\s+(?:of|(?:defined|set\s+(?:forth|out)|stated|"
        r"specified)\s+in)|"
        r"to\s+the\s+extent\s+(?:permitted|required|provided|allowed|authori[sz]ed)\s+"
        r"(?:by|under|in)|"
        r"save\s+(?:as\s+(?:otherwise\s+|expressly\s+)?(?:provided|set\s+(?:out|forth)|stated|"
        r"specified|permitted)\s+(?:in|under|by)|for|where|to\s+the\s+extent)\b[^;.\x00]{0,80}?|"
        r"in\s+compliance\s+with|"
        r"in\s+the\s+manner\s+(?:set\s+(?:forth|out)|provided|described|specified)\s+in|"
        r"(?:so|as)\s+long\s+as|only\s+(?:if|when)\b[^;.\x00]{0,60}?\b(?:under|"
        r"in\s+accordance\s+with|pursuant\s+to)|if\s+permitted\s+(?:under|by)|"
        r"(?:upon|on|following|after|in\s+the\s+event\s+of)\s+(?:any\s+|the\s+|such\s+)?"
        # the termination named in a few words: "Upon termination of this Agreement in its
        # entirety pursuant to", "on expiry of the Term by a Party's notice under"
        r"(?:termination|expiration|expiry)\s+(?:(?!(?:shall|will|may|must|which|that)\b)"
        r"[\w'’-]+\s+){0,6}?(?:under|pursuant\s+to|in\s+accordance\s+with|as\s+provided\s+in)|"
        # a termination done under the citation exercises the right it gives ("Client may
        # elect ... terminating this Agreement pursuant to"), as "upon termination under" does
        r"terminat(?:e|es|ed|ing)\s+(?:(?!(?:shall|will|may|must|which|that)\b)[\w'’-]+\s+){0,4}?"
        r"(?:under|pursuant\s+to|in\s+accordance\s+with)|"
        r"except\b[^;.\x00]{0,80}?)" + _TAIL
    ),
    flags=re.IGNORECASE,
    examples=(
        "Subject to ",
        "The fee is paid in accordance with the procedure set forth in ",
        "except as otherwise stated in ",
        "subject in all respects to ",
        "in accordance with its duties specified in ",
        "You may copy the Document under the conditions of ",
        "in accordance with either ",
        "Upon termination of this Agreement in its entirety pursuant to ",
        "the Buyer may elect: (a) terminating this Agreement pursuant to ",
    ),
    counter=("The Supplier shall deliver the goods ",),
)
# A strong cue that heads what the citation holds, named in a few plain words: "subject to
# the Buyer's payment of the fees set forth in Exhibit B", "subject to the protocol in Section
# 5.1", "in accordance with the notice provisions in Section 8". Any phrasing of the thing, so
# long as the words between hold no clause break (comma, parenthesis, another citation, a
# modal or a relative pronoun) and end in the preposition that points at the citation.
# The document named in the phrase ends it ("subject to the terms hereof the Seller delivers
# the goods described in") unless the phrase narrows it ("this Agreement including the
# provisions of").
_PHRASE_WORD = (
    r"(?!(?:shall|will|may|must|which|that|who|whom|here(?:of|in|under|to|by))\b)"
    r"(?!(?-i:Agreement|Contract|License|Licence|Amendment)\s+(?!including\b|and\b|in\s+particular\b))"
    r"[\w'’-]+\s+"
)
DEPENDS_PHRASE = rule(
    "depends_on.cue_phrase",
    "cue",
    "a strong cue (subject to, in accordance with, conditional on) heading a short phrase that "
    "ends in the preposition pointing at the citation ('subject to the Buyer's payment of the "
    "fees set forth in')",
    edge_type="depends_on",
    confidence=0.8,
    pattern=(
        # "not subject to the cure provisions of Section 10" exempts from it, conditions nothing
        r"\b(?:(?<!\bnot\s)subject\s+(?:always\s+|only\s+|further\s+|in\s+all\s+respects\s+)?to|"
        r"in\s+accord(?:ance)?\s+with|in\s+compliance\s+with|(?:conditional|contingent|"
        rf"conditioned)\s+(?:up)?on)\s+(?:{_PHRASE_WORD}){{1,10}}?"
        r"(?:in|on|under|of|by|within)\b" + _TAIL
    ),
    flags=re.IGNORECASE,
    examples=(
        "Subject to the Buyer's payment of the fees set forth in ",
        "Subject to the protocol in ",
        "Goods shall be subject to the rates set forth on ",
        "The notice shall be given in accordance with the notice provisions in ",
    ),
    counter=(
        "Subject to the terms hereof, the Seller shall deliver the goods described in ",
        "Subject to this Agreement, which governs the Services listed in ",
        "a breach not subject to the cure provisions of ",
    ),
)
# "as provided in X" conditions only inside a condition or exception ("unless terminated as
# provided in Article X"); on its own it points at X ("as described in Section 3.1 above").
# So do "pursuant to X" and a party's "rights / obligations under X": on their own they say
# where a thing comes from ("its obligations under Section 4.4", "the rights granted under
# Section 2.1"), not that the clause is conditioned on X.
DEPENDS_WEAK = rule(
    "depends_on.as_provided",
    "cue",
    "'as provided in', 'pursuant to', 'rights under' the citation: a condition only when a "
    "condition or exception frames it",
    edge_type="depends_on",
    confidence=0.85,
    pattern=(
        r"\b(?:as\s+(?:otherwise\s+|expressly\s+|specifically\s+)?(?:provided|set\s+(?:forth|out)|"
        r"specified|required|permitted|described|contemplated)\s+(?:for\s+)?(?:in|under|by)|"
        r"pursuant\s+to|(?:rights?|obligations?|duties|benefits?|entitlements?)\s+(?:(?:afforded|"
        r"granted|given|provided|owed)\s+(?:to\s+\S+\s+)?)?under)" + _TAIL
    ),
    flags=re.IGNORECASE,
    examples=("unless terminated earlier as provided in ", "its obligations under "),
    counter=("The Supplier shall deliver the goods ",),
)
# Complying with X or meeting its conditions is a condition only when a condition is stated
# ("provided that You comply with the requirements of Section 3.1", "only if You meet the
# conditions in Section 4"); "You must comply with Section 4" and "information required to
# comply with Section 7.01" are a duty and a purpose that name X.
COMPLIES = rule(
    "depends_on.complies_with",
    "cue",
    "complying with or meeting the citation: a condition only when a condition is stated",
    edge_type="depends_on",
    confidence=0.85,
    pattern=(
        r"(?<![\w-])(?<!non-\s)(?:(?:compl(?:y|ies|ying|iance)|conform(?:s|ing|ity|ance)?)\s+with|"
        r"(?:meets?|meeting|satisf(?:y|ies|ying)|fulfil(?:l|ls|s|ling)?|follows?)\b)" + _TAIL
    ),
    flags=re.IGNORECASE,
    examples=(
        "provided that the Licensee complies with the terms of ",
        "only if it meets ",
        "if you distribute copies you must also follow the conditions in ",
    ),
    counter=("in case of non-compliance with ",),
)
STATED_CONDITION = rule(
    "cue.stated_condition",
    "cue",
    "a stated condition (if, unless, provided that ...): frames a 'complies with' cue",
    pattern=(
        r"\b(?:if|unless|provided(?:\s+that|,\s+however)|only\s+(?:if|when|where)|"
        r"(?:so|as)\s+long\s+as|on\s+condition\s+that|conditional|conditioned|contingent|"
        r"in\s+the\s+event)\b"
        # a condition by inversion: "Should the Supplier fail to meet ..." (capitalised: it
        # opens a clause, often after a heading run into the text; the modal is lower case)
        r"|(?-i:\bShould\b)"
    ),
    flags=re.IGNORECASE,
    examples=("provided that the Licensee pays", "Should the Supplier fail to meet"),
    counter=("the Licensee shall pay",),
)
# "pursuant to" / "in accordance with" after a participle describes a thing ("the licenses
# granted pursuant to Section 6.01"), it conditions nothing, unless a condition frames it.
DESCRIBED = rule(
    "cue.described_thing",
    "cue",
    "a participle before 'pursuant to' / 'in accordance with': describes a thing, vetoes the cue",
    pattern=(
        r"(?<!\bbe\s)(?<!\bbeen\s)(?<!\bis\s)(?<!\bare\s)"
        # an event in time ('unless sooner terminated pursuant to'), not a thing described
        r"(?<!\bsooner\s)(?<!\bearlier\s)"
        r"\b(?:granted|issued|made|given|paid|delivered|executed|entered\s+into|provided|appointed|"
        r"acquired|purchased|sold|received|incurred|exercised|described|defined|afforded|due|"
        r"\w+ed|\w{3,}able)"
        r"(?:\s+(?:to|by)\s+\S+(?:\s+\S+)?)?\s+(?:pursuant\s+to|in\s+accord(?:ance)?\s+with|"
        r"according\s+to)\b"
    ),
    flags=re.IGNORECASE,
    examples=("the rights granted pursuant to", "amounts payable pursuant to"),
    counter=("the fees shall be paid pursuant to", "unless sooner terminated pursuant to"),
)
WHEN = rule(
    "cue.when",
    "cue",
    "a temporal condition (when, where, while, once) before a citation",
    pattern=r"\b(?:when|whenever|where|while|once|at\s+all\s+times)\b",
    flags=re.IGNORECASE,
    examples=("once the notice is given",),
    counter=("the notice is given",),
)
CONDITION_MARK = rule(
    "cue.condition_mark",
    "cue",
    "a condition or exception mark (if, unless, only, except, subject to ...)",
    pattern=(
        r"\b(?:if|unless|provided\s+that|on\s+condition\s+that|so\s+long\s+as|until|only|except|"
        r"when|whenever|"
        r"subject\s+to|requires?|required|conditional|conditioned|contingent|in\s+the\s+event|"
        r"in\s+the\s+absence\s+of|to\s+the\s+extent)\b"
        r"|(?-i:\bShould\b)"
    ),
    flags=re.I,
    examples=("unless terminated earlier", "in the absence of a timely cure", "Should it fail"),
    counter=("the Licensee shall pay", "the Licensee should pay"),
)
# "under X" conditions a permission or duty the clause grants or imposes: "You may convey a
# covered work under sections 3 and 4".
_UNDER_NOUNS = (
    "default", "defaults", "breach", "breaches", "obligation", "obligations", "right", "rights",
    "duty", "duties",
)  # fmt: skip
UNDER_MODAL = rule(
    "depends_on.under_modal",
    "cue",
    "a permission or duty granted or imposed under the citation ('You may convey ... under')",
    edge_type="depends_on",
    confidence=0.85,
    pattern=(
        r"\b(?:may|shall|must|will|can)\s+(?:not\s+)?(?:\w+\s+){1,6}?"
        # "under X" after what X gives or defines ("will constitute a default under", "will
        # have no obligation under") names that thing, as "its obligations under X" does
        # (DEPENDS_WEAK): not the act the modal permits or requires
        + "".join(rf"(?<!\b{w}\s)" for w in _UNDER_NOUNS)
        + r"under"
        + _TAIL
    ),
    flags=re.IGNORECASE,
    examples=("The Licensee may distribute the software under ",),
    counter=(
        "the rights under ",
        "Any failure to do so will constitute a default under ",
        "The Seller will have no obligation under ",
    ),
)
# An explicit condition stays one inside a definition ('"Sub-Section" means ... (but subject
# to Section 9.2 with respect to Related Products)'): the meaning itself is conditioned.
EXPLICIT_CONDITION = rule(
    "cue.explicit_condition",
    "cue",
    "a cue that is an explicit condition (subject to, conditional on): kept in a definition",
    pattern=(
        r"^(?:subject\s+to|conditional\s+(?:up)?on|contingent\s+(?:up)?on|"
        r"conditioned\s+(?:up)?on)\b"
    ),
    flags=re.IGNORECASE,
    examples=("subject to the terms of",),
    counter=("in accordance with",),
)
# The citation displaced by what follows it: "Section 6.1 shall be deemed to be amended",
# "the benefits ... pursuant to Section 2.3 ... shall immediately terminate".
OVERRIDE_AFTER = rule(
    "overrides.displaced_after",
    "cue",
    "the citation displaced by what follows it ('... shall terminate', '... does not apply')",
    edge_type="overrides",
    confidence=0.8,
    pattern=(
        r"^[\s,\x00]*(?:(?:and|or|above|hereof)[\s,\x00]*|\([^()]{0,60}\)[\s,\x00]*)*"
        r"(?:shall|will|is|are)\s+(?:hereby\s+)?(?:immediately\s+|automatically\s+)?"
        r"(?:be\s+deemed\s+(?:to\s+be\s+)?(?:amended|modified|varied)|terminate|cease|not\s+apply|"
        r"be\s+suspended|be\s+of\s+no\s+(?:further\s+)?(?:force|effect)|(?:be\s+)?superseded)\b"
        r"|^[\s,\x00]*(?:do|does)\s+not\s+apply\b"
    ),
    flags=re.IGNORECASE,
    examples=(" shall be deemed to be amended as follows", " does not apply to Contractors"),
    counter=(" applies to all employees",),
)
# The condition stated after the citation: "so long as Section 8.2 is not invoked".
AFTER_CONDITION = rule(
    "depends_on.after_condition",
    "cue",
    "inside a condition, what the citation must be or do after it ('... is not invoked')",
    edge_type="depends_on",
    confidence=0.85,
    pattern=(
        r"^(?:\s*(?:hereof|above|below|of\s+this\s+\w+))?\s*(?:(?:are|is|do|does|shall|become|"
        r"becomes|have\s+been|has\s+been|(?:shall|will)\s+have\s+been)\s+(?:not\s+)?"
        r"(?:been\s+)?(?:invoked|apply|applies|"
        r"applicable|satisfied|met|complied\s+with|fulfilled|triggered|exercised)|appl(?:y|ies))\b"
    ),
    flags=re.IGNORECASE,
    examples=(
        " is not invoked",
        " above has been satisfied",
        " hereof shall have been complied with",
    ),
    counter=(" shall terminate",),
)
# Vague targets are the document itself: "notwithstanding any other provision of this
# Agreement", "notwithstanding the foregoing", "subject to the terms and conditions of this
# Agreement", "except as otherwise provided herein".
VAGUE_OVERRIDE = rule(
    "overrides.vague_notwithstanding",
    "cue",
    "'notwithstanding anything to the contrary' and kin: overrides the document itself",
    edge_type="overrides",
    confidence=0.75,
    pattern=(
        r"\b(?:anything\s+(?:herein\s+|in\s+this\s+\w+\s+)?to\s+the\s+contrary\s+notwithstanding"
        # "As an exception to the Sections above" (GRAPH_GOLD's own cue, the target vague)
        r"|(?:notwithstanding|regardless\s+of|in\s+spite\s+of|despite|as\s+an\s+exception\s+to)"
        r"\s+(?:anything|any\s+(?:other\s+)?(?:provisions?|terms?)|"
        r"the\s+(?:foregoing|preceding|above)|"
        r"the\s+(?:sections?|paragraphs?|clauses?|provisions?)\s+(?:above|hereinabove)|"
        rf"the\s+(?:other\s+)?provisions\s+of\s+this\s+{_DOC_SELF}))\b(?P<rest>[^.;]{{0,60}})"
    ),
    flags=re.IGNORECASE,
    examples=(
        "Notwithstanding anything to the contrary, the Supplier may",
        "Notwithstanding the foregoing, fees are due",
        "As an exception to the Sections above, you may combine",
    ),
    counter=("Notwithstanding Section 5, fees are due", "As an exception to the rule, you may"),
)
# The clause itself given precedence over the rest of the document: "to the extent that this
# covenant conflicts with any other covenant contained in this Agreement, ...", "this Section
# shall prevail over any other provision". A rule on which of two other texts wins (the
# Agreement over an exhibit) is no override by the clause that states it.
_OWN_PART = r"this\s+(?:covenant|section|clause|article|provision|paragraph|subsection)"
_OTHER_PARTS = (
    r"(?:any|all|the)\s+other\s+(?:provisions?|covenants?|terms?|sections?|clauses?|"
    r"obligations?|agreements?\s+(?:contained|set\s+forth)\s+(?:in|herein))"
)
OWN_PRECEDENCE = rule(
    "overrides.own_precedence",
    "cue",
    "a clause that gives itself precedence over the rest of its document",
    edge_type="overrides",
    confidence=0.75,
    pattern=(
        rf"\b{_OWN_PART}\b[^.;]{{0,80}}?\b(?:conflicts?|is\s+inconsistent)\s+with\s+"
        rf"{_OTHER_PARTS}\b"
        rf"|\b{_OWN_PART}\s+(?:shall|will)\s+(?:prevail|control|govern|take\s+precedence)\s+over\s+"
        rf"{_OTHER_PARTS}\b"
    ),
    flags=re.IGNORECASE,
    examples=("This Section shall prevail over any other provisions of the Agreement",),
    counter=("The Agreement shall prevail over the Exhibits",),
)
# What makes a vague cue specific after all: a citation, or another document named
# ("notwithstanding any provision of the Enterprise License").
SPECIFIC = rule(
    "cue.specific_target",
    "cue",
    "what follows a vague cue and makes it specific: a citation or a named document (veto)",
    pattern=(
        # ('anything to the contrary in the Arbitration Rules'), not the document itself ('in
        # the Agreement')
        r"^\W*(?:to\s+the\s+contrary\s+)?(?:(?:else\s+)?(?:of|in|contained\s+in|under)\s+"
        rf"(?:the|any)\s+(?!{_DOC_SELF}\b)[A-Z]|"
        r"(?:(?:else\s+)?(?:of|in|contained\s+in|under)\s+)?(?:Sections?|Articles?|Clauses?|§))"
    ),
    examples=(
        " of the Supply Agreement",
        " in Section 5",
        " to the contrary in the Arbitration Rules",
    ),
    counter=(", the Supplier may", " to the contrary in the Agreement", " in the Agreement,"),
)
AMENDED_AFTER = rule(
    "amends.amended_after",
    "cue",
    "the citation followed by 'is hereby amended' (or supplemented, replaced, deleted ...)",
    edge_type="amends",
    confidence=0.9,
    pattern=(
        r"^\s*(?:\([^()]{1,60}\)\s*)?,?\s*(?:is|are|shall\s+be|will\s+be)\s+(?:hereby\s+)?"
        r"(?:further\s+)?(?:amended|supplemented|modified|varied|replaced|restated|deleted|"
        r"struck)\b(?!\s+from\s+time\s+to\s+time)"
    ),
    flags=re.IGNORECASE,
    examples=(
        " is hereby amended to read as follows",
        ' ("Fees") is deleted in its entirety',
        " shall be replaced with the following",
    ),
    counter=(" is hereby approved", " is amended from time to time by the Board"),
)
# "The Agreement is hereby amended (as follows) by ...": the text amended is what follows
_AMENDED_BY = (
    r"\b(?:is|are)\s+(?:hereby\s+)?(?:amended|modified|supplemented)\b[^.;\x00]{0,40}?\bby\s+"
)
AMENDS_BEFORE = rule(
    "amends.amends_cited",
    "cue",
    "a text that amends (supplements, deletes, replaces) the citation that follows: 'This "
    "Amendment amends', 'The Agreement is hereby amended by deleting', 'is amended by adding "
    "... at the end of'",
    edge_type="amends",
    confidence=0.9,
    pattern=(
        r"(?:\b(?:amends|supplements|modifies|varies)(?:\s+and\s+\w+)?"
        r"|\bhereby\s+(?:amend|delete|replace|restate|modify)s?"
        rf"|{_AMENDED_BY}(?:amending|deleting|replacing|restating|striking(?:\s+out)?|modifying)"
        r"(?:\s+in\s+(?:its|their)\s+entirety)?"
        rf"|{_AMENDED_BY}(?:adding|inserting)\b[^.;\x00]{{0,80}}?\b(?:to|into|at\s+the\s+end\s+of))"
        r"\s+(?:(?:the\s+)?(?:(?:first|second|third|last|final)\s+sentence|text|words?)\s+"
        r"(?:of|in)\s+)?$"
    ),
    flags=re.IGNORECASE,
    examples=(
        "This Amendment amends ",
        "This letter amends and restates ",
        "The Agreement is hereby amended by deleting ",
        "The Agreement is amended by adding the following sentence at the end of ",
    ),
    counter=(
        "This Amendment amends the price list",
        "is hereby amended by adding a new Section 4.3 after ",
        "The Territory may be amended from time to time by amending ",
        "Zebra has expanded its portfolio by adding the product families listed in ",
    ),
)
# A concessive clause states a fact the rule holds in spite of, not a condition of it.
CONCESSION = rule(
    "cue.concession",
    "cue",
    "a concession ('even though', 'notwithstanding that') before a cue: no condition (veto)",
    pattern=(
        r"\b(?:notwithstanding|even\s+though|although|despite)\s+(?:that|the\s+fact\s+that)\b"
        r"|\beven\s+(?:if|though)\b|\balthough\b"
    ),
    flags=re.IGNORECASE,
    examples=("Even though the goods may be",),
    counter=("the goods may be",),
)
# A saving ("without limitation of the indemnity obligations under this Section 7") says the
# citation is left as it is: no condition on it.
SAVING = rule(
    "cue.saving",
    "cue",
    "a saving ('without limitation of', 'shall not affect') between a mark and its cue (veto)",
    pattern=(
        r"\b(?:without\s+(?:limitation\s+of|limiting|prejudice\s+to|derogating\s+from)|"
        r"(?:shall|will|does)\s+not\s+(?:limit|affect|prejudice|impair))\b"
    ),
    flags=re.IGNORECASE,
    examples=("without prejudice to the warranty",),
    counter=("the warranty",),
)

# A PDF's text breaks lines, and sentences with them, at blank lines: "(b) In the event that
# Dassault opts to host the\n\nCo-Branded Service pursuant to Section 4.7". Some one in ten
# of the blank lines of CUAD's contracts stands inside a sentence; one after a word no
# sentence ends on (an article, a preposition, a conjunction) or a comma runs the sentence on,
# so that its cue and its citation stay in one clause.
RUN_ON = rule(
    "cue.run_on_sentence",
    "cue",
    "a blank line after a comma or a word no sentence ends on ('the', 'of', 'and'): the "
    "sentence runs on past it (a PDF's line break), its cue and citation one clause",
    pattern=(
        r"(?:,|\b(?:the|an?|this|these|those|such|its|their|any|each|of|to|in|on|at|by|for|"
        r"with|from|under|upon|into|than|and|or|nor|pursuant|subject|accordance)\b)[ \t]*$"
    ),
    flags=re.IGNORECASE,
    examples=("opts to host the", "as set forth in", "Subject to", "pursuant"),
    counter=("shall pay the fees.", "11.6 No Use of Trademarks", "Signature"),
)

# "... in accordance with the provisions of Section 1 hereof, and Sections 2, 3, 6 and 10 shall
# survive termination": after a comma, a citation that (with the rest of its list) is the
# subject of its own verb opens a new clause; the cue before the comma does not reach it.
NEW_SUBJECT = rule(
    "cue.new_subject",
    "cue",
    "a citation after a comma whose list runs on to its own verb ('..., and Sections 2, 3 and "
    "10 shall survive'): the subject of a new clause, no target of the cue before it (veto)",
    pattern=(
        r"^(?:\s*,?\s*(?:and\s+|or\s+)?(?:\x00+|\w{1,4}(?:\([a-z0-9]{1,3}\))?)(?=[\s,]))*"
        r"\s*(?:hereof\s+|of\s+this\s+\w+\s+)?(?:shall|will|must|may)\b"
    ),
    flags=re.IGNORECASE,
    examples=(", S(c), 6, 7, 8 and 10 shall survive", " hereof shall apply", " shall survive"),
    counter=(" hereof, the Buyer shall pay", ", the Supplier shall deliver", " of the Act"),
)
_AFTER_COMMA = re.compile(r",\s*(?:and\s+|or\s+)?$")

Target = tuple[tuple[str, str | None], float, str]  # ((doc_id, section_id), confidence, normalized)


def _sentences(text: str) -> list[tuple[int, int]]:
    """The sentences of a section (references.iter_sentences), each run on past a blank line
    that RUN_ON says stands inside it."""
    out: list[tuple[int, int]] = []
    for start, end in iter_sentences(text):
        last = out[-1][1] if out else 0
        if out and "\n" in text[last:start] and RUN_ON.regex.search(text, max(0, last - 20), last):
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


@dataclass(frozen=True)
class _Clause:
    """Where a citation stands: the clause before it and the rest of its sentence after it
    (both masked), and its sentence as written."""

    start: int  # of the clause before the citation, in the section's text
    before: str
    after: str
    sentence: str
    defines: bool  # the sentence states a definition


def section_edges(
    section: SectionInfo, corpus: Corpus
) -> tuple[list[Edge], list[Unresolved], list[tuple[int, int, Mention]]]:
    """Layer 1 for one section. Also returns each mention with its sentence span, for Layer 2."""
    if is_contents(section):
        return [], [], []  # a table of contents cites nothing
    text = section.text
    found = _section_mentions(section, corpus)
    resolved = [resolve(m, section, corpus) for m in found]
    # a name that resolves to no document here ("the Patent License", a defined term) is not
    # masked as a citation
    masked = _masked(
        text, [m for m, (t, _) in zip(found, resolved, strict=True) if m.kind != "document" or t]
    )
    contents = contents_spans(text)
    containers = _ancestors(section, corpus)
    spans = _sentences(text)
    edges: list[Edge] = []
    parked: list[Unresolved] = []
    mentions: list[tuple[int, int, Mention]] = []
    for m, (targets, unresolved) in zip(found, resolved, strict=True):
        if inside(m.start, contents):
            continue  # a table of contents lists headings; it cites nothing
        s_start, s_end = next(((a, b) for a, b in spans if a <= m.start < b), (0, 0))
        mentions.append((s_start, s_end, m))
        clause = _clause(text, masked, m, s_start, s_end)
        if _amends_agreement(m, section, corpus, clause):
            targets, unresolved = _resolve_in_amended(m, section, corpus)
        parked.extend(unresolved)
        for target in targets:
            edges.extend(_citation_edges(section, m, target, clause, containers))
    edges.extend(vague_relations(section, masked))
    return edges, _amendment_parked(section, corpus, parked), mentions


def _amends_agreement(m: Mention, section: SectionInfo, corpus: Corpus, clause: _Clause) -> bool:
    """In an amendment, a section it declares amended without naming a document ("Section 12
    is deleted in its entirety", "Section 4.2 of this Agreement is hereby amended") is a
    section of the agreement it amends, unless it says "of this Amendment"."""
    if m.kind != "labels" or m.doc_name or m.end == 0:
        return False
    if re.search(r"\bthis\s+(?:Amendment|Addendum)\b", m.text, re.IGNORECASE):
        return False
    return _amendment(clause.before, clause.after) is not None and bool(
        amendment_of(section.doc_id, corpus)
    )


def _resolve_in_amended(
    m: Mention, section: SectionInfo, corpus: Corpus
) -> tuple[list[Target], list[Unresolved]]:
    """The cited labels in the agreement the amendment amends, or parked with the reason."""
    amended = amendment_of(section.doc_id, corpus)
    if amended is None:
        return [], []
    if amended.doc_id is None:
        labels = ", ".join(m.labels) or None
        return [], [_parked(m, section, _amended_reason(m, amended), labels)]
    return _resolve_labels(m, section, corpus, amended.doc_id, amended.certainty)


def _amended_reason(m: Mention, amended: Amended) -> str:
    """'section 4.2 of the agreement amended, the Supply Agreement dated 2019-03-01: no
    document of that name in this tenant yet'."""
    cited = f"section {', '.join(m.labels)}" if m.labels else m.text
    return f"{cited} of the agreement amended, {amended.described()}: {amended.reason}"


def _amendment_parked(
    section: SectionInfo, corpus: Corpus, parked: list[Unresolved]
) -> list[Unresolved]:
    """The parked references of a section, with an amendment's naming of an agreement the
    tenant does not hold in place of a plain citation of that name."""
    named = amendment_parked(section, corpus)
    if not named:
        return parked
    key = named[0].normalized_target.casefold()
    plain = [
        p for p in parked if not (p.kind == "document" and (p.target_doc or "").casefold() == key)
    ]
    return [*named, *plain]


def _section_mentions(section: SectionInfo, corpus: Corpus) -> list[Mention]:
    """The citations of a section's heading (at offset 0, no clause around them), then of its
    text. A document's own title ("Amendment 1 to the Leave Policy") names it, and cites
    nothing."""
    doc = corpus.docs.get(section.doc_id)
    is_title = doc is not None and section.heading == doc.title
    heading = [] if is_title else find_mentions(section.heading)
    return [*(replace(m, start=0, end=0) for m in heading), *find_mentions(section.text)]


def _clause(text: str, masked: str, m: Mention, s_start: int, s_end: int) -> _Clause:
    """The clause before the citation (back to the sentence start or the last ";") and the
    rest of its sentence."""
    start = max(s_start, masked.rfind(";", s_start, m.start) + 1)
    sentence = text[s_start:s_end].strip()
    return _Clause(
        start, masked[start : m.start], masked[m.end : s_end], sentence, states_definition(sentence)
    )


def _citation_edges(
    section: SectionInfo, m: Mention, target: Target, clause: _Clause, containers: set[str]
) -> list[Edge]:
    """The edges of one resolved citation: its `references` edge, and the overrides,
    depends_on and amends edges its clause's cues give it."""
    (dst_doc, dst_section), confidence, normalized = target
    base: dict[str, object] = {
        "src_doc_id": section.doc_id,
        "src_section_id": section.section_id,
        "matched_text": m.text,
        "normalized_target": normalized,
        "dst_doc_id": dst_doc,
        "dst_section_id": dst_section,
        "raw_target": m.raw,
        "position": m.start,
    }
    edges = [citation_rule(m).edge(confidence=confidence, **base)]
    if m.end == 0:
        return edges  # a heading's citation has no clause around it
    text, before, after = section.text, clause.before, clause.after
    # "the rights granted under this Article 4 shall terminate ..." in 4.1: a part does not
    # displace the article it belongs to, as a section does not itself (it may be conditioned
    # on the rest of it: "subject to the other sections of this Article VI")
    own_part = dst_doc == section.doc_id and dst_section in containers
    if _AFTER_COMMA.search(before) and NEW_SUBJECT.search(after):
        # the subject of a new clause: no cue before the comma reaches it
        clause = replace(clause, before="")
        before = ""
    override = None if own_part else OVERRIDE_BEFORE.search(before)
    if override and OVERRIDE_LIST_ENDS.search(before[override.start() :]):
        override = None
    if override:
        cue = text[clause.start + override.start() : m.end]
        edges.append(_scaled(OVERRIDE_BEFORE, confidence, base, matched_text=cue))
    # what is said after the citation ("... Section 8.2 does not apply") is a condition inside
    # one ("so long as ...", "where ..."), else a displacement of the citation
    after_condition = _after_condition(before, after)
    if not (after_condition or override or own_part):
        override = OVERRIDE_AFTER.search(after)
        if override:
            edges.append(_scaled(OVERRIDE_AFTER, confidence, base))
    if not override:
        edges.extend(_dependency_edge(section, m, clause, after_condition, confidence, base))
    # a whole document amended is the document's relation (graph/documents.py)
    amendment = _amendment(before, after) if dst_section else None
    if amendment:
        edges.append(_scaled(amendment, confidence, base))
    return edges


def _scaled(r: Rule, confidence: float, base: dict[str, object], **fields: object) -> Edge:
    """An edge of cue rule `r` on a citation resolved with `confidence`: the rule's confidence
    scaled by the citation's."""
    return r.edge(confidence=r.certainty * confidence, **{**base, **fields})


def _after_condition(before: str, after: str) -> re.Match[str] | None:
    """Inside a condition, what the citation must be or do: "so long as Section 8.2 is not
    invoked"."""
    conditioned = CONDITION_MARK.search(before) or WHEN.search(before)
    return AFTER_CONDITION.search(after) if conditioned else None


def _dependency_edge(
    section: SectionInfo,
    m: Mention,
    clause: _Clause,
    after_condition: re.Match[str] | None,
    confidence: float,
    base: dict[str, object],
) -> list[Edge]:
    """The depends_on edge of a citation no cue makes an override: from the cue before it
    (its evidence runs from the cue to the citation) or the condition after it."""
    cue = _dependency(clause)
    if cue:
        r, found = cue
        start, end = clause.start + found.start(), m.end
    elif after_condition:
        r, start, end = AFTER_CONDITION, m.start, m.end + after_condition.end()
    else:
        return []
    evidence = " ".join(section.text[start:end].split())
    return [_scaled(r, confidence, base, condition=clause.sentence, matched_text=evidence)]


# A verb phrase "is / are / been <adverb>" just before the participle DESCRIBED found: the
# participle is the verb of an event ("if the Term is automatically extended pursuant to"),
# not a thing described; DESCRIBED's own look-behind sees only the bare "is extended".
_PASSIVE_ADVERB = re.compile(r"\b(?:is|are|be|been|was|were)\s+\w+ly\s+$", re.IGNORECASE)


def _dependency(clause: _Clause) -> tuple[Rule, re.Match[str]] | None:
    """The cue before a citation that makes the clause conditional on it, unless it describes
    a thing, is conceded, or scopes a definition's meaning."""
    cue = _dependency_cue(clause.before)
    if cue is None:
        return None
    r, found, weak = cue
    before = clause.before[: found.start()]
    window = clause.before[max(0, found.start() - 40) :]
    described = DESCRIBED.search(window)
    if described and _PASSIVE_ADVERB.search(window, 0, described.start()):
        described = None  # "is automatically extended pursuant to": an event, as "is extended"
    # a weak cue after a participle ("sums payable pursuant to Section 5.4") describes a thing
    # even inside a condition ("if an audit reveals underpayment of sums ...")
    if described and (weak or not CONDITION_MARK.search(before)):
        return None
    if CONCESSION.search(before):
        return None  # "Notwithstanding that such rights may be subject to ...": conceded
    if clause.defines and (r is DEPENDS_PHRASE or not EXPLICIT_CONDITION.search(found.group())):
        # a definition's "except ..." scopes a meaning, not a duty; its "subject to a separate
        # agreement as set forth in Section 5" says what the thing is
        return None
    return r, found


def _dependency_cue(before: str) -> tuple[Rule, re.Match[str], bool] | None:
    """The dependency cue that ends a clause, and whether it is a weak one (a condition only
    when a condition frames it)."""
    for strong in (DEPENDS_CUE, UNDER_MODAL, DEPENDS_PHRASE):
        if found := strong.search(before):
            return strong, found, False
    weak = DEPENDS_WEAK.search(before)
    if weak and _framed(before, weak.start()):
        return DEPENDS_WEAK, weak, True
    weak = COMPLIES.search(before)
    if weak and _framed(before, weak.start(), STATED_CONDITION):
        return COMPLIES, weak, True
    return None


def _amendment(before: str, after: str) -> Rule | None:
    """The cue that says a cited section is amended: after it, or before it."""
    if AMENDED_AFTER.search(after):
        return AMENDED_AFTER
    return AMENDS_BEFORE if AMENDS_BEFORE.search(before) else None


def _ancestors(section: SectionInfo, corpus: Corpus) -> set[str]:
    out: set[str] = set()
    parent = section.parent_id
    while parent and parent not in out:
        out.add(parent)
        above = corpus.by_id.get(parent)
        parent = above.parent_id if above else None
    return out


def _framed(before: str, at: int, marks_rule: Rule = CONDITION_MARK) -> bool:
    """A condition or exception frames the cue at `at`: its mark stands before it with no other
    citation between ("unless terminated as provided in Article X"). A mark already followed by
    its own citation ("Subject to Section 7.3, ... its obligations under Section 4.4") frames
    that one."""
    marks = list(marks_rule.regex.finditer(before, 0, at))
    if not marks or _MASK in before[marks[-1].end() : at]:
        return False
    # a saving ("without limitation of the indemnity obligations under this Section 7") says
    # the citation is left as it is: no condition on it
    return not SAVING.regex.search(before, marks[-1].end(), at)


def _masked(text: str, mentions: Sequence[Mention]) -> str:
    """The text with each citation blanked to NUL characters and EDGAR underline runs to
    spaces, offsets kept, so cues can be matched across lists of citations."""
    chars = list(re.sub(r"-{3,}", lambda m: " " * len(m.group(0)), text))
    for m in mentions:
        chars[m.start : m.end] = _MASK * (m.end - m.start)
    return "".join(chars)


def vague_relations(section: SectionInfo, masked: str) -> list[Edge]:
    """Overrides whose target is vague ("any other provision of this Agreement", "the
    foregoing"): the target is the document itself (GRAPH_GOLD.md). A condition on the whole
    document ("subject to the terms of this Agreement") is boilerplate, no dependency."""
    found = [
        (m.start(), m.start("rest"), VAGUE_OVERRIDE)
        for m in VAGUE_OVERRIDE.finditer(masked)
        # "notwithstanding anything in Section 5": the citation is the target
        if not (SPECIFIC.search(m.group("rest")) or _MASK in m.group("rest")[:25])
    ]
    found += [(m.start(), m.end(), OWN_PRECEDENCE) for m in OWN_PRECEDENCE.finditer(masked)]
    return [
        r.edge(
            src_doc_id=section.doc_id,
            src_section_id=section.section_id,
            matched_text=" ".join(section.text[start:end].split()),
            normalized_target=section.doc_id,
            dst_doc_id=section.doc_id,
            position=start,
        )
        for start, end, r in sorted(found, key=lambda f: (f[0], f[1]))
    ]


def resolve(
    m: Mention, section: SectionInfo, corpus: Corpus
) -> tuple[list[Target], list[Unresolved]]:
    """Resolve a mention: a named document first, else the citing document."""
    doc_id, doc_conf = _cited_document(m, section, corpus)
    if doc_id is None and m.kind == "document" and (printed := _printed_in(m, section, corpus)):
        return [printed], []
    if doc_id is None:
        labels = ", ".join(m.labels) or None
        reason = f"no document named {m.doc_name!r} in this tenant yet"
        amended = amendment_of(section.doc_id, corpus) if m.kind == "labels" else None
        if amended and _names_amended(m.doc_name or "", amended.name):
            reason = _amended_reason(m, amended)
        return [], [_parked(m, section, reason, labels)]
    if m.kind == "document":
        if doc_id == section.doc_id:
            return [], []  # a document naming itself
        return [((doc_id, None), citation_rule(m).certainty * doc_conf, doc_id)], []
    if m.kind == "named_section":
        return _resolve_heading(m, section, corpus, doc_id, doc_conf)
    return _resolve_labels(m, section, corpus, doc_id, doc_conf)


def _cited_document(m: Mention, section: SectionInfo, corpus: Corpus) -> tuple[str | None, float]:
    """The document a mention cites, with a confidence: the one it names, else the citing one."""
    if not m.doc_name:
        return section.doc_id, 1.0
    amended = amendment_of(section.doc_id, corpus) if m.kind == "labels" else None
    if amended and _names_amended(m.doc_name, amended.name):
        # "Section 4.2 of the Agreement" in an amendment: the agreement it amends, the one
        # of that name its date and parties fit, or none (parked with the reason)
        return amended.doc_id, amended.certainty
    found = corpus.find_docs(m.doc_name)
    doc_id, doc_conf = found[0] if found else (None, 0.0)
    tied = [d for d, c in found if c == doc_conf]
    if section.doc_id in tied:
        # its own name among the equally good: the closest name wins ("the General Public
        # License" in GPL-1 names GPL-1 itself; in LGPL-2.1 it names a GPL, not the Lesser one)
        close = {d: corpus.closeness(d, m.doc_name) for d in tied}
        best = max(close.values())
        if close[section.doc_id] == best:
            return section.doc_id, doc_conf
        doc_id = next(d for d in tied if close[d] == best)
    if doc_id is None and m.kind == "labels" and _names_itself(m.doc_name, section, corpus):
        # "Section 13.1 of the Agreement" with no other document of that bare name: the
        # document that calls itself "the Agreement" (an amendment filed with it included)
        return section.doc_id, 0.9
    return doc_id, doc_conf


def _parked(m: Mention, section: SectionInfo, reason: str, label: str | None = None) -> Unresolved:
    """A mention left unresolved, with what a later layer should look for."""
    if m.kind == "named_section":
        target = m.title or m.text  # the heading Layer 3 will look for
    else:
        target = " of the ".join(x for x in (label, m.doc_name) if x) or m.text
    return Unresolved(
        section.doc_id,
        section.section_id,
        m.text,
        target,
        m.doc_name,
        label,
        reason,
        m.start,
        kind=m.kind,
    )


def _resolve_heading(
    m: Mention, section: SectionInfo, corpus: Corpus, doc_id: str, doc_conf: float
) -> tuple[list[Target], list[Unresolved]]:
    """A section cited by its heading, in the named document or anywhere in the tenant."""
    found, conf = corpus.find_heading(doc_id if m.doc_name else None, m.title or "")
    if found is None and m.rule == TEXINFO_XREF.id:
        found, conf = _entry_section(doc_id, m.title or "", corpus), 0.9
    if found is None:
        reason = f"no section headed like {m.title!r}; left for semantic matching"
        return [], [_parked(m, section, reason)]
    if found.doc_id == section.doc_id and found.label == FRONT_LABEL:
        # 'the section entitled "GNU Free Documentation License"' in a licence of that name:
        # the heading of its title block is the document's own name, not a section
        return [], []
    if found.section_id == section.section_id:
        return [], []  # a section citing itself by its heading
    confidence = citation_rule(m).certainty * conf * doc_conf
    return [((found.doc_id, found.section_id), confidence, f"{found.doc_id} § {found.label}")], []


# A document the citing one prints in full as a section headed by its name: a manual's
# copyright page granting permission "under the terms of the GNU Free Documentation License",
# which its appendix A.1 prints. With no document of that name in the tenant, the section is
# what the name cites.
PRINTED_DOCUMENT = rule(
    "citation.printed_document",
    "citation",
    "a document named by a citation that no document of the tenant takes, printed in full "
    "(4,000 characters or more) in the citing document as a section headed by that name: the "
    "citation is of that section",
)


# The least text of a section that prints a whole document (the GNU FDL is some 20,000
# characters; a definition headed by its term a few hundred).
_PRINTED_CHARS = 4000


def _printed_in(m: Mention, section: SectionInfo, corpus: Corpus) -> Target | None:
    """The citing document's own section headed by the document name cited (PRINTED_DOCUMENT),
    if there is one besides the citing section."""
    found, conf = corpus.find_heading(section.doc_id, m.doc_name or "")
    if found is None or conf < 0.95 or found.section_id == section.section_id:
        return None
    if len(found.text) < _PRINTED_CHARS:
        return None  # a definition's entry headed "Original Code": a term, not a document
    confidence = round(citation_rule(m).certainty * conf, 3)
    return (found.doc_id, found.section_id), confidence, f"{found.doc_id} § {found.label}"


def _entry_section(doc_id: str, name: str, corpus: Corpus) -> SectionInfo | None:
    """The section of a document holding an entry of that name on a paragraph of its own (a
    function's entry in a manual's reference chapter, cited by a Texinfo cross-reference)."""
    wanted = name.casefold()
    for s in corpus.by_doc.get(doc_id, []):
        if any(" ".join(p.split()).casefold() == wanted for p in s.text.split("\n\n")):
            return s
    return None


# A section number no contract's own outline reaches: three digits and more at the top
# ("Section 1553", "Section 4980H", "Sections 302 and 906") or three decimals and more
# ("Section 227.7202"), as statutes and regulations number their sections.
STATUTE_NUMBER = rule(
    "citation.beyond_own_numbering",
    "citation",
    "a cited section number of a statute's or regulation's form (1553, 4980H, 227.7202) that "
    "the citing document's own numbering never takes: a section of another text",
    pattern=r"(?:(?:article|section|clause|paragraph)\s+)?(?:\d{3,5}[A-Za-z]?|\d{1,3}\.\d{3,4})"
    r"(?:[.(].*)?",
    flags=re.IGNORECASE,
    examples=("1553", "4980H", "227.7202", "302(b)", "Section 906"),
    counter=("15", "2.1", "10.02", "12(b)"),
)
# What a citation of another text's section is parked under, its text unnamed.
OTHER_TEXT = "another text"


def _other_text(label: str, doc_id: str, corpus: Corpus) -> bool:
    """A label of a statute's form that no section of the citing document takes, where the
    document numbers its sections at all (else its numbering is unknown: the citation may
    be of its own lost "Section 302")."""
    own = corpus.labels.get(doc_id, {})
    numbered = any(re.match(r"(?:article\s+|section\s+)?\d", key) for key in own)
    return (
        numbered
        and bool(STATUTE_NUMBER.regex.fullmatch(label))
        and not any(STATUTE_NUMBER.regex.fullmatch(key) for key in own)
    )


def _resolve_labels(
    m: Mention, section: SectionInfo, corpus: Corpus, doc_id: str, doc_conf: float
) -> tuple[list[Target], list[Unresolved]]:
    """Each cited label of a document; an OCR-repaired citation is a little less certain. A
    label in the citing document's own name that its numbering never takes ("Section 4980H"
    in a contract of twenty sections) cites another text: parked as such (STATUTE_NUMBER)."""
    targets: list[Target] = []
    parked: list[Unresolved] = []
    cited = citation_rule(m).certainty
    ocr = OCR_KEYWORD.certainty if m.raw else 1.0
    own = _own_items(section.text) if doc_id == section.doc_id else frozenset()
    for label in m.labels:
        if label in own:
            continue  # "section 4" in a licence printed as one section: its own clause 4
        found, conf = corpus.find_label(doc_id, label)
        if found is None and doc_id == section.doc_id and _other_text(label, doc_id, corpus):
            reason = f"section {label!r} is of another text's numbering ({STATUTE_NUMBER.id})"
            parked.append(replace(_parked(m, section, reason, label), target_doc=OTHER_TEXT))
            continue
        if found is None:
            parked.append(_parked(m, section, f"no section {label!r} in {doc_id}", label))
            continue
        if found.section_id == section.section_id:
            continue  # "this Section" style self-citation
        confidence = round(cited * conf * doc_conf * ocr, 3)
        targets.append(
            ((found.doc_id, found.section_id), confidence, f"{found.doc_id} § {found.label}")
        )
    return targets, parked


# A clause numbered inside a section's own text, its title in capitals ("... not allowed.
# 4. MODIFICATIONS You may copy ..."): a licence printed as one section of a manual (the GNU
# FDL in an appendix) numbers its clauses so, and cites them by number ("section 4").
OWN_ITEM = rule(
    "citation.own_numbered_item",
    "citation",
    "a section whose text numbers three or more clauses with titles in capitals: a citation "
    "of one of those numbers is of its own clause (the section itself), not of the document's "
    "section of that number",
    pattern=r"(?:^|(?<=[.:;”\"]\s)|\n)(?P<n>\d{1,2})\.\s+[A-Z]{2,}(?:[ ,'’-]+[A-Z]{2,})*"
    r"(?=\s+[A-Z][a-z])",
    examples=(
        "is not allowed. 0. PREAMBLE The purpose",
        "made by others. 4. MODIFICATIONS You may copy",
    ),
    counter=("as set out in section 4. The Licensee", "4.2 PAYMENT Fees are due"),
)


@functools.lru_cache(maxsize=256)  # asked once per citation; the section's text is the same
def _own_items(text: str) -> frozenset[str]:
    """The numbers of the clauses a section's text numbers itself (OWN_ITEM), if three or
    more."""
    numbers = {m.group("n") for m in OWN_ITEM.finditer(text)}
    return frozenset(numbers) if len(numbers) >= 3 else frozenset()


def _names_amended(name: str, amended: str) -> bool:
    """A document name an amendment cites is the agreement it amends: that name, or the bare
    "the Agreement" the amendment calls it by."""
    bare = re.fullmatch(r"(?:Agreement|License|Licence|Contract|Policy|Deed|Terms|Lease)", name)
    return bool(bare) or name.casefold() == amended.casefold()


def _names_itself(name: str, section: SectionInfo, corpus: Corpus) -> bool:
    """A bare "the Agreement" is the citing document itself, unless that document is an
    amendment: then "the Agreement" is the one it amends, held elsewhere or not at all."""
    if not re.fullmatch(_DOC_SELF, name):
        return False
    doc = corpus.docs.get(section.doc_id)
    first = corpus.by_doc.get(section.doc_id, [section])[0]
    title = " ".join(x for x in (doc.title if doc else "", first.heading, section.doc_id) if x)
    return not re.search(r"\bamend(?:ment|ing)\b", title, re.IGNORECASE)
