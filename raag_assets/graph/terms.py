"""Terms of art and where they are used.

`defines` keeps every definition; a term becomes a term of art (stored in `terms`, and a
`uses_term` edge wherever it is used) only when its definition changes what the words mean
to a reader (GRAPH_GOLD.md): not pronouns, not the parties' short names, not the document
naming itself, not verbs or ordinary words that a drafter chose to define. Distinctiveness is
judged from the term, its definition and the corpus, never from a list of our documents'
words.
"""

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from raag_assets.core.model import Edge, SectionInfo, Term
from raag_assets.graph.keys import term_key
from raag_assets.graph.lexicon import UNIT_NOUNS, UPPER
from raag_assets.graph.overlaps import inside, longest_first
from raag_assets.graph.references import ANNEX_NAME, contents_spans, is_contents
from raag_assets.graph.rules import Rule, rule
from raag_assets.graph.standards import is_bibliography

# Closed grammatical classes, not vocabulary of any document.
_PRONOUNS = {
    "i",
    "me",
    "my",
    "we",
    "us",
    "our",
    "ours",
    "you",
    "your",
    "yours",
    "he",
    "him",
    "his",
    "she",
    "her",
    "hers",
    "it",
    "its",
    "they",
    "them",
    "their",
    "theirs",
}
_DETERMINERS = r"(?:the|a|an|this|these|that|those|such|each|any|said)"
# Nouns a document calls itself by ("this Agreement", "the License").
_SELF_NOUNS = {
    "agreement",
    "license",
    "licence",
    "contract",
    "policy",
    "amendment",
    "document",
    "handbook",
    "guideline",
    "guidelines",
    "standard",
    "specification",
    "memo",
    "memorandum",
    "addendum",
    "schedule",
    "exhibit",
    "annex",
    "appendix",
    "terms",
    "conditions",
    "plan",
    "charter",
    "deed",
    "instrument",
    "lease",
    "order",
    "statement",
}


def _words(term: str) -> list[str]:
    return re.sub(rf"^{_DETERMINERS}\s+", "", term.strip(), flags=re.IGNORECASE).split()


def is_self_reference(term: str) -> bool:
    """'this License', 'Agreement', 'the Contract': the document naming itself."""
    words = [w.casefold().strip("'’") for w in _words(term)]
    return (
        len(words) == 1
        and words[0] in _SELF_NOUNS
        or (term.strip().casefold().split()[0] in ("this", "these") and words[-1] in _SELF_NOUNS)
    )


NOT_A_POINTER = rule(
    "term.not_a_pointer",
    "term",
    "a definition that only points at another part of the document, where the term is defined",
    pattern=r"^\s*(?:shall\s+)?(?:ha(?:s|ve)\s+the\s+meanings?|is\s+defined|as\s+defined)\b"
    r"[^.;]{0,40}?\b(?:in|under|by)\s+(?:Section|Article|Clause|Schedule|Exhibit|"
    r"Paragraph|§|the\s+(?:preamble|recitals?)\b)",
    flags=re.IGNORECASE,
    examples=(
        " has the meaning given to it in Section 4.2.",
        " shall have the meanings set out in the Recitals;",
        " as defined in Article 3 below.",
    ),
    counter=(" means the preamble of the purchase order.", " means any defined work."),
)
_POINTER = NOT_A_POINTER.regex


def is_pointer(body: str) -> bool:
    """A definition that only points at another part of the document: 'has the meaning
    specified in Section 8.02', 'as defined in Article 4'."""
    return bool(_POINTER.match(body))


# How a party is introduced before its short name: "ACME LIMITED, a Canadian corporation
# (...)", "Acme, a company organized under the laws of ..., with registered office at ...
# (...)", "Acme Inc. (...)".
_COMPANY_FORMS = (
    r"corporation|company|incorporated|inc|ltd|limited|llc|llp|lp|plc|gmbh|ag|sa|s\.a|n\.v|"
    r"b\.v|partnership|association|trust|bank|university|individual|organi[sz]ation|entity|"
    # the forms other laws give a company, named in words
    r"soci[eé]t[eé]\s+anonyme|sociedad\s+an[oó]nima|naamloze\s+vennootschap|aktiengesellschaft"
)
PARTY_INTRODUCTION = rule(
    "term.party_introduction",
    "term",
    "how a party is introduced before the parenthesis that gives its short name",
    pattern=rf",\s+(?:a|an)\s+[^()]{{0,60}}?\b(?i:{_COMPANY_FORMS})\b[^()]*$"
    rf"|,\s+(?:a|an)\s+[^()]{{0,60}}?\b(?:organi[sz]ed|incorporated|existing)\s+under\s+the"
    rf"\s+laws\b[^()]*$"
    rf"|\b(?i:{_COMPANY_FORMS})\.?\s*,?\s*$",
    examples=(
        "This agreement is made between Northwind Trading Limited, a Delaware corporation ",
        "between Blue Harbor LLC ",
        "and Jane Doe, an individual residing in Ohio ",
        "between Societe Nordique, a societe anonyme organized under the laws of France ",
    ),
    counter=("the mineral rights held in the northern valley ",),
)
_PARTY_INTRO = PARTY_INTRODUCTION.regex
# A short name that is itself a kind of entity ('the company named below ("Company")'): a
# party's, wherever the front matter gives it.
_ENTITY_NOUN = re.compile(rf"(?i:{_COMPANY_FORMS})")
PARTY_SHORT_NAME = rule(
    "term.party_short_name",
    "term",
    "a short name in parentheses right after a party's full name as the introduction gives "
    "it (term.parties_introduced, term.party_name_end), a person's as well as a company's; "
    "or a kind of entity ('(\"Company\")', '(the \"Bank\")') in the front matter",
)

# A term ending in a company form is a company's name (over the term's words, joined).
NOT_A_COMPANY_NAME = rule(
    "term.not_a_company_name",
    "term",
    "a term that ends in a company form ('Acme Inc'): a company's name",
    pattern=r"\s(?:inc|incorporated|ltd|limited|llc|llp|plc|gmbh|ag|corp|corporation)\.?$",
    flags=re.IGNORECASE,
    examples=("Acme Inc.", "Northwind Trading Ltd", "Blue Harbor Corporation"),
    counter=("Inc", "Acme Incubator Program", "Licensed Product"),
)
_COMPANY_NAME = NOT_A_COMPANY_NAME.regex


# A template's blank for a party's name ('between [•] ("Buyer")', 'Party B: ________ (the
# "Tenant")'): the short name after it is a party's all the same.
PARTY_PLACEHOLDER = rule(
    "term.party_placeholder",
    "term",
    "a blank left for a party's name where the parties are introduced ('and [•] (\"Buyer\")', "
    "'Party B: ______ (the \"Tenant\")'): the short name after it is a party's",
    pattern=r"(?:\b(?:between|among|and)|\bParty\s+[A-Z1-9]\s*:)\s*"
    r"(?:\[[^\[\]\w]{0,12}\]|\[\s*(?:_+|name|party|company|[A-Z ]{3,30})\s*\]|_{3,}|\.{4,}|…)"
    r"\s*,?\s*$",
    examples=("and [•] ", "Party B: ________ ", "by and between [ * * * ] ", "and [NAME] "),
    counter=("and Acme Ltd ", "between the parties ", "and Schedule [2] "),
)
_PARTY_BLANK = PARTY_PLACEHOLDER.regex


# Inside the introduction of the parties, a short name right after a person's or a body's
# proper name ('CSA, agent for Jane Doe ("Talent")', 'acting through Beta Holdings ("Beta")'):
# the name of someone the agreement is made with or for, not a term of art. Not after a
# determiner ('the Licensed Software ("Software")'): a thing.
NAMED_IN_THE_INTRODUCTION = rule(
    "term.named_in_the_introduction",
    "term",
    "inside the parties' introduction (from 'between' to the recitals), a short name right "
    "after a proper name of two to five capitalised words led by a lower-case word that is no "
    "determiner and no part of a document ('agent for Jane Doe (\"Talent\")'; not 'for the "
    'Licensed Software ("Software")\', \'listed in Schedule A (the "Products")\'): a '
    "person's or a body's name, as a party's",
)
_DETERMINERS_BEFORE = {
    "the", "this", "that", "these", "those", "such", "its", "their", "his", "her", "our",
    "a", "an", "any", "each", "every", "all", "said", "certain",
}  # fmt: skip


_PART_OF_A_DOCUMENT = re.compile(rf"(?i:{UNIT_NOUNS}|section|article|clause|part|paragraph)s?")


def _named_before(before: str) -> bool:
    """`before` ends with a proper name led by a lower-case word that is no determiner
    (NAMED_IN_THE_INTRODUCTION)."""
    words = before.rstrip(" ,").split()
    run = 0
    while run < len(words) and re.fullmatch(r"[A-Z][\w.&'’-]*", words[-1 - run]):
        run += 1
    if not 2 <= run <= 5 or run == len(words):
        return False
    lead, first = words[-1 - run], words[-run]
    if _PART_OF_A_DOCUMENT.fullmatch(first):
        return False  # 'the equipment listed in Schedule A (the "Products")': things
    return lead.isalpha() and lead.islower() and lead not in _DETERMINERS_BEFORE


_BODY_BEGINS = re.compile(r"\bagree\s+as\s+follows\b|\bNOW,?\s+THEREFORE\b", re.IGNORECASE)


def _introductions(text: str, from_start: bool = False) -> list[tuple[int, int]]:
    """Where the text introduces its parties: from each cue (term.parties_introduced) to the
    recitals or PARTY_REGION on; with `from_start`, from the start of the text last (a
    preamble without a cue: 'Acme Inc. ("Acme") and Beta LLC ("Beta") agree')."""
    starts = [cue.end() for cue in PARTIES_INTRODUCED.finditer(text[:PARTY_HEAD])]
    # a cue after the words that close the introduction ("agree as follows") is the body's
    # ('the Offtake Agreement between Acme and Beta'): the preamble before them comes first
    body = _BODY_BEGINS.search(text[:PARTY_HEAD])
    front = [s for s in starts if not body or s < body.start()]
    if from_start and not front:
        starts = [0, *starts]
    elif from_start:
        starts = [*starts, 0]
    spans = []
    for start in starts:
        region = text[start : start + PARTY_REGION]
        # the recitals after the names, not a heading before them ("PREAMBLE Acme Ltd, ...")
        named = PARTY_NAME_END.search(region) if start == 0 else None
        stop = _INTRO_ENDS.search(region, named.start() if named else 0)
        spans.append((start, start + (stop.start() if stop else len(region))))
    return spans


def introduced_names(front_text: str) -> set[str]:
    """The short names given inside the parties' introduction right after a person's or a
    body's proper name (NAMED_IN_THE_INTRODUCTION: 'CSA, agent for Jane Doe ("Talent")'):
    names, as the parties' are, though not of the parties themselves. A preamble without a
    cue (a letter agreement: 'to retain Jane Roe ("Adviser")') is read from the text's start."""
    out: set[str] = set()
    introductions = _introductions(front_text, from_start=True)
    for m in re.finditer(r"\((?P<inner>[^()]{1,160})\)", front_text):
        if not inside(m.start(), introductions):
            continue
        before = re.split(r"\n\s*\n|\)", front_text[max(0, m.start() - 300) : m.start()])[-1]
        if not _named_before(before):
            continue
        for q in re.finditer(r"[“\"](?P<name>[^“”\"]{1,40})[”\"]", m.group("inner")):
            name = " ".join(q.group("name").split())
            out |= {name, " ".join(_words(name))}
    return out


# Inside the introduction of the parties, a short name given after "hereinafter" ('ACME SA,
# represented by ..., (hereinafter referred to as "the Customer")', 'BETA AG, Cologne,
# hereinafter referred to as "Beta"'): the introduction names parties there, not things.
PARTY_HEREINAFTER = rule(
    "term.party_hereinafter",
    "term",
    "inside the parties' introduction (from 'between' to the recitals), a quoted short name "
    "after 'hereinafter' ('hereinafter referred to as \"Beta\"', with or without parentheses), "
    "but the document's own name: a party's",
    pattern=r"\bhereinafter\s*,?\s*(?:(?:referred\s+to|called|known|designated)\s+(?:as\s+)?)?"
    r"(?:the\s+)?[“\"](?P<name>[^“”\"\n]{1,40})[”\"]",
    flags=re.IGNORECASE,
    examples=('hereinafter referred to as "Beta"', '(hereinafter called the "Seller")'),
    counter=('referred to as "Beta"', 'the "Seller"'),
)
_OWN_NAME = re.compile(r"(?i)(?:this\s+|the\s+)?(?:agreement|contract|addendum|amendment)")


def _named_hereinafter(front_text: str) -> set[str]:
    """The short names given after "hereinafter" inside the parties' introduction
    (PARTY_HEREINAFTER), but the document's own."""
    introductions = _introductions(front_text)
    out: set[str] = set()
    for m in PARTY_HEREINAFTER.regex.finditer(front_text):
        name = " ".join(m.group("name").split())
        if not inside(m.start(), introductions) or _OWN_NAME.fullmatch(name):
            continue
        # back to the paragraph or the last short name: a party's description opens with its
        # name and says nothing ("is", "shall"), unlike a sentence naming a thing ('the
        # product lines ... are hereinafter called the "Products"')
        pieces = re.split(r"\n\s*\n|[”\"]", front_text[max(0, m.start() - 600) : m.start()])
        segment = pieces[-1]
        if not segment.strip() and len(pieces) > 1:
            segment = pieces[-2]  # "hereinafter" set under its party's paragraph
        opening = " ".join(segment.split())[:80]
        if opening[:1].isupper() and not _SAYS.search(segment):
            out |= {name, " ".join(_words(name))}
    return out


_SAYS = re.compile(r"\b(?:is|are|shall|will|agrees?)\b")


# A parenthesis holding a name alone, unquoted ('(Developer )', '(the Company)'), as a filing
# that lost its quotation marks gives a party's short name (defines.unquoted_parenthetical).
_BARE_NAME = re.compile(
    r"\s*(?:hereinafter\s+(?:(?:referred\s+to|called)\s+as\s+)?)?(?:(?:the|a|an)\s+)?"
    r"(?P<name>[A-Z][\w&’'.-]*(?:\s[A-Z][\w&’'.-]*){0,3})\s*"
)


def party_names(front_text: str) -> set[str]:
    """Short names the parties are given where they are introduced: 'NORTHERN TELECOM
    LIMITED, a Canadian corporation ("NTL")', 'Redwater LLC (the "Contractor")', ("Licensee"),
    or right after a party's full name as the introduction gives it, a person's too
    (term.party_short_name: 'between JANE DOE ("Doe") and ...'), or after a template's blank
    for the name (term.party_placeholder: 'and [•] ("Buyer")')."""
    out = set()
    full = [" ".join(n.split()).casefold() for n in party_full_names(front_text)]
    for m in re.finditer(r"\((?P<inner>[^()]{1,160})\)", front_text):
        before = front_text[max(0, m.start() - 300) : m.start()]
        before = re.split(r"\n\s*\n|\)", before)[-1]  # back to the paragraph or the last party
        introduced = (
            _introduced_here(before)
            or _after_full_name(before, full)
            or _PARTY_BLANK.search(before)
            or _under_its_party(front_text[max(0, m.start() - 1500) : m.start()], full)
            or _described_party(front_text[max(0, m.start() - 600) : m.start()], full)
        )
        quoted = [
            " ".join(q.group("name").split())
            for q in re.finditer(r"[“\"](?P<name>[^“”\"]{1,40})[”\"]", m.group("inner"))
        ]
        if not quoted and (bare := _BARE_NAME.fullmatch(m.group("inner"))):
            quoted = [bare.group("name")]  # a filing that lost its quotation marks: '(Developer )'
        # the parties' collective name given beside "Parties" ('(the "Parties" or "Joint
        # Venturers")'): theirs too (term.party_short_name)
        together = any(_PARTIES_WORD.fullmatch(n) for n in quoted)
        for name in quoted:
            if introduced or together or _ENTITY_NOUN.fullmatch(" ".join(_words(name))):
                out |= {name, " ".join(_words(name))}
    return out | _named_hereinafter(front_text)


# The sentence's predicate after the last party's description ('..., a Delaware corporation,
# is effective as of the date signed below ("Amendment Effective Date")'): the parenthesis
# names what the sentence says, not the party.
_PREDICATE = re.compile(r"\b(?:is|are)\s+(?:effective|entered|made|dated)\b", re.IGNORECASE)


def _introduced_here(before: str) -> bool:
    """`before` ends with a party's introduction (PARTY_INTRODUCTION) that no predicate of
    the sentence follows."""
    intro = _PARTY_INTRO.search(before)
    return intro is not None and not _PREDICATE.search(before, intro.start())


_PARTIES_WORD = re.compile(r"(?i)(?:the\s+)?part(?:y|ies)")


# A party described by where it is before its short name: 'Acme Inc., with a place of
# business at 1 Main Street, Springfield ("Acme")', 'Beta Pte Ltd, a Singapore company (a
# subsidiary of Gamma (S) Pte Ltd) with its principal place of business at ... ("Beta")'. The
# description runs from the party's full name (party_full_names) to the parenthesis, past
# parentheses that name no one.
PARTY_DESCRIBED = rule(
    "term.party_described",
    "term",
    "a short name in parentheses after a party's full name and the place it is at ('with a "
    "place of business at', 'having an address at', 'registered office at', 'residing at'), "
    "whatever parentheses without a quoted name stand between",
    pattern=r"\b(?:(?:with|having|has)\s+(?:a|an|its|their|his|her)\s+(?:principal\s+|"
    r"registered\s+|head\s+)?(?:place\s+of\s+business|address|offices?|seat)|"
    r"(?:registered|head)\s+office|located\s+at|residing\s+at|domiciled\s+(?:at|in))\b",
    flags=re.IGNORECASE,
    examples=(
        "Acme Inc., with a place of business at 1 Main Street, Springfield ",
        "Beta Ltd, having its registered office at 2 High Street ",
        "Jane Roe, residing at 5 Elm Road ",
    ),
    counter=("the products described in Schedule A ", "Acme Inc. shall deliver the goods "),
)
_PARTY_DESCRIBED = PARTY_DESCRIBED.regex
_UNNAMED_PARENTHESES = re.compile(r"\([^()\"“”]*\)")


def _described_party(before: str, full: Sequence[str]) -> bool:
    """`before` (up to a parenthesis, back to the paragraph or the last quoted short name)
    opens with one of the parties' full names and describes where that party is
    (PARTY_DESCRIBED): the parenthesis gives that party's short name."""
    segment = re.split(r"\n\s*\n|[”\"]\s*\)", before)[-1]
    for _ in range(2):  # nested parentheses that name no one: '(a subsidiary of Gamma (S) Ltd)'
        segment = _UNNAMED_PARENTHESES.sub(" ", segment)
    if "(" in segment or ")" in segment:
        return False
    named = " ".join(segment.split()).casefold()
    # the segment may open with the sentence's own predicate after an earlier parenthesis
    # ('(the "Effective Date"), is by and between Acme Inc., with offices located at ...'):
    # the party's name then follows the last "between" / "among"
    heads = [named, *(named[m.end() :] for m in _BETWEEN.finditer(named))]
    heads = [re.sub(r"^(?:\W|(?:by\s+and\s+)?between\b|among\b|and\b)+", "", h) for h in heads]
    return any(n and h.startswith(n) for n in full for h in heads) and bool(
        _PARTY_DESCRIBED.search(named)
    )


_BETWEEN = re.compile(r"\b(?:between|among)\b")


def _under_its_party(before: str, full: Sequence[str]) -> bool:
    """The short name set in a paragraph of its own under the party's paragraph, which opens
    with its full name or introduces it as a party (term.party_short_name):
    'BETWEEN: / ACME LTD., a company having its office at ... / ("Acme")'."""
    pieces = re.split(r"\n\s*\n", before)
    if len(pieces) < 2 or pieces[-1].strip():
        return False
    paragraph = pieces[-2]
    opening = " ".join(paragraph.split()).casefold()
    return bool(_PARTY_INTRO.search(paragraph) or any(n and opening.startswith(n) for n in full))


# What stands before a party's full name in the introduction: its start, "between", "and",
# a comma or colon, an item number ("(2)").
_BEFORE_A_NAME = re.compile(r"(?:^|\b(?:between|among|and)|[,:;]|\(\w{1,3}\))\s*$", re.IGNORECASE)


def _after_full_name(before: str, full: Sequence[str]) -> bool:
    """`before` (the text up to a parenthesis) ends with one of the parties' full names
    (case-folded, as `party_full_names` reads them), introduced as a party."""
    named = " ".join(before.split()).rstrip(" ,").casefold()
    return any(
        named.endswith(n) and _BEFORE_A_NAME.search(named[: len(named) - len(n)]) for n in full
    )


# The parties' full names where the text introduces them: the paragraph after "between",
# "among" or "Party A:", each name ending where its description, address or short name begins
# ('ACME LIMITED, a Canadian corporation', 'Acme Inc., with offices at', 'Acme Inc. ("Acme")')
# or with its company form ('ACME INC. 2nd Floor, ...').
PARTIES_INTRODUCED = rule(
    "term.parties_introduced",
    "term",
    "where a document introduces its parties: 'by and between', 'among', 'Party A:', 'BETWEEN:'",
    pattern=(
        r"\b(?:by\s+and\s+)?(?:between|among)\b\s*:?|\bParty\s+[A-Z1-9]\s*:"
        r"|\b(?:Ladies\s+and\s+Gentlemen|Dear\s+Sirs?(?:\s+(?:and|or)\s+Madams?)?)\s*[:,]"
    ),
    flags=re.IGNORECASE,
    examples=("This Agreement is made by and between Acme Inc. and", "BETWEEN: ACME LTD"),
    counter=("the parties hereto agree as follows",),
)
PARTY_NAME_END = rule(
    "term.party_name_end",
    "term",
    "where a party's full name ends: its description (', a Delaware corporation'), address "
    "('with offices at', 'of 12 Main Street'), short name ('(\"Acme\")') or company form",
    pattern=(
        r",?\s+(?:a|an)\s+(?:[\w.-]+\s+){0,8}?(?i:" + _COMPANY_FORMS + r")\b"
        r"|\s*,?\s*\(\s*(?i:the\s+|this\s+|hereinafter\s+(?:(?:to\s+be\s+)?referred\s+to\s+as\s+"
        r"|called\s+)?)?[\"“'‘]"
        # a short name in parentheses without quotes, before the sentence goes on: 'Acme
        # Services (ACME) certifies', 'JOHN DOE (the Executive).'; not a place inside a name
        # ('Acme (Beijing) Co., Ltd.'), which a capitalised word follows
        r"|\s*,?\s*\((?:the\s+[A-Z][\w&.@-]*(?:\s+[A-Z][\w&.@-]*){0,2}|[A-Z][A-Z0-9&.@-]+)\)"
        r"(?=\s*(?:[,.;]|$)|\s+[a-z])"
        r"|,?\s+(?:with\s+(?:its|a|an|offices|principal)|having|whose|located|organized|existing"
        r"|incorporated|residing|registered|represented)\b"
        # a short name given without parentheses, a person named in a capacity: 'Acme LLP,
        # hereinafter referred to as "Acme"', 'Jane Doe, in her individual capacity'
        r"|,\s*(?:hereinafter|hereafter|herein\s+called|in\s+(?:his|her|its)\s+(?:individual\s+)?"
        r"capacity|individually)\b|\s+(?:hereinafter|hereafter)\b"
        r"|,?\s+(?i:of)\s+\d"
        r"|\s*,?\s*\((?i:collectively|together|each)\b"  # 'and Jane Doe (collectively, the ...'
        # a title block's next field: 'Address:', 'Legal Representative:'; the next party's:
        # '... County Party B:'
        r"|(?<=[a-z.])\s+(?=[A-Z][a-z]+(?:\s+[A-Za-z][a-z]+)?\s*:)|(?<=[a-z])\s+(?=(?i:party)\s+[A-Z1-9]\s*:)"
        r"|\b(?i:Inc|LLC|L\.L\.C|Ltd|Limited|LLP|L\.P|LP|PLC|Corp|Corporation|Co|N\.A|S\.A|B\.V"
        r"|S\.p\.A|S\.r\.l|S\.?A\.?R\.?L|Pty|A/S|Oy|KK"
        r"|N\.V|AG|GmbH|PTE|MHC|Company|Incorporated|a\.s|s\.r\.o)\b\.?(?=\s*(?:$|[^\w\s,.(\"“']|[,.]?\s+"
        r"(?!(?i:Inc|LLC|Ltd|L\.P|LP|PLC|Co\b|N\.A|S\.A|B\.V|AG\b|Limited|Incorporated|MHC))))"
    ),
    examples=(
        "Acme Widgets Inc., a Delaware corporation",
        'Blue Harbor LLC ("Blue Harbor")',
        "Jane Doe, residing in Ohio",
        "Northwind Services (NWS) certifies",
        "JANE DOE (the Employee).",
        "Acme Research LLC and Jane Doe (collectively, the Investors)",
        'Blue Harbor Trading, hereinafter referred to as the "Seller"',
        "Jane Doe, in her individual capacity",
        "NORTHWIND SERVICES OF 12 HARBOR ROAD",
        'Blue Harbor Trading hereinafter referred to as ("Seller")',
        "People's Government of Northwind County Party B: Blue River Energy Co., Ltd.",
    ),
    counter=("the parties hereto agree", "Acme (Beijing) Trading", "Gadget (R) modules"),
)
_INTRO_ENDS = re.compile(
    r"\b(?:WHEREAS|RECITALS?|WITNESSETH|BACKGROUND|PREAMBLE|NOW,?\s+THEREFORE|agree\s+as\s+follows"
    r"|Recitals|Whereas)\b"
)
_PLACE_BEFORE = {"in", "at", "of", "under", "from", "located", "residing", "within", "a", "an"}
_NAME_CONNECTORS = {"and", "of", "&", "de", "du", "la", "der", "van", "von", "for", "the", "d/b/a"}
_NOT_A_PARTY = re.compile(
    r"^(?:the(?:\s|$)|(?i:agreement|parties|party|company|this|that|each|both|either|all|any|such"
    r"|schedule|exhibit|section|state|laws?|whereas|ladies|gentlemen|dear|sirs?)\b)"
)
# An address, not a name: a street, a suite, a post code.
_ADDRESS = re.compile(
    r"\b(?:suite|street|st\.|road|rd\.|floor|avenue|ave\.?|blvd|boulevard|drive|building|plaza"
    r"|p\.\s?o\.|box|district|highway|\d{5})\b",
    re.IGNORECASE,
)
# The company forms that close a name, in two runs the lists below share: in lower case, as
# the case-insensitive _FORM_WORD reads them, upper-cased for SIGNATORY_CAPS.
_FORMS_HEAD = r"inc|llc|l\.l\.c|ltd|limited|llp|l\.p|lp|plc|corp|corporation"
_FORMS_MID = r"n\.a|s\.a|b\.v|n\.v|ag"
# A company form closing a name: "Acme Inc. and Beta LLC" are two names.
_FORM_WORD = (
    rf"(?i:{_FORMS_HEAD}|co|{_FORMS_MID}"
    r"|s\.p\.a|s\.r\.l|sarl|pty|pte|a/s|oy|kk|a\.s|s\.r\.o)\.?,?"
)
# Not one party's name: a date, or two short names together ("Acme and Beta").
_NOT_ONE_NAME = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\bcopyright\b"
    r"|\b(?:but|not|including)\b|[a-z]{4,}\.\s"  # a sentence, not a name
    r"|^[A-Z][\w.-]*\s+(?:and|&)\s+(?:the\s+)?[A-Z][\w.-]*$"
    # a month alone: 'as of the 1st day of December, (the "Effective Date")'
    r"|^(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december)$",
    re.IGNORECASE,
)
_DOCUMENT_WORD = re.compile(r"^(?:AGREEMENT|CONTRACT|LEASE|LICEN[CS]E|AMENDMENT|ADDENDUM)$")
PARTY_REGION = 1500  # the introduction of the parties runs this far after its cue
PARTY_HEAD = 8000  # and stands this near the start


_NO_NAME_ALONE = frozenset(("the", "this", "that", "these", "those", "such", "each", "any", "all"))


def party_full_names(front_text: str) -> list[str]:
    """The parties' full names as the text introduces them, in order: 'This Agreement is made
    between Acme Widgets Inc., a Delaware corporation ("Acme"), and Jane Doe, residing in
    Ohio' -> ['Acme Widgets Inc.', 'Jane Doe']."""
    text = " ".join(front_text[:PARTY_HEAD].split())
    out: list[str] = []
    # after each cue in turn, else from the start of the text
    for start, stop in _introductions(text, from_start=True):
        region = text[start:stop]
        for end in PARTY_NAME_END.finditer(region):
            cut = end.end() if end.group(0)[:1].isalpha() else end.start()
            for name in _one_by_one(_name_before(region[:cut])):
                if name.strip(" ,.").casefold() in _NO_NAME_ALONE:
                    continue  # 'The' alone, before a list item ('* The existing ...'), is no name
                if not any(name == o or name in o for o in out):
                    out = [o for o in out if o not in name] + [name]
        if len(out) >= 2:
            break
    return out


# Where the parties sign: the names their signature blocks give them. A fallback for a document
# whose introduction names fewer than two (a joint filing signed by each filer, a schedule, a
# preamble raag cannot read): each party's name in capitals closed by its company form
# ('ACME HOLDINGS LP By: ...', 'for and on behalf of ACME LIMITED'), or a name with its company
# form right before its signature line ('Acme Widgets, Inc. By: /s/ ...').
SIGNATORY_CAPS = rule(
    "term.signatory_caps",
    "term",
    "a party's name in capitals closed by its company form, in its signature block",
    pattern=(
        rf"(?<![\w&'’./-])[{UPPER}][{UPPER}0-9&'’.-]*"
        rf"(?:,?[ ]+(?:[{UPPER}][{UPPER}0-9&'’./-]*|of|and|&))*"
        rf",?[ ]+(?:{_FORMS_HEAD.upper()}|COMPANY|TRUST"
        rf"|{_FORMS_MID.upper()}|GMBH|PTE|PTY|S\.P\.A|S\.R\.L)\b\.?(?![\w&-])"
    ),
    examples=(
        "IN WITNESS WHEREOF ... NORTHWIND TRADING LP By: Blue Harbor LLC, its general partner",
        "for and on behalf of ) /s/ J. Roe NORTHWIND HOLDINGS LIMITED )",
    ),
    counter=("IN WITNESS WHEREOF, the parties have signed this Agreement.", "Acme Inc. By:"),
)
SIGNATORY_BEFORE_BY = rule(
    "term.signatory_before_by",
    "term",
    "in a signature block, the words before a signature line ('Acme Widgets, Inc. By: /s/'): "
    "a party's name when they end in its company form (not the person signing for it)",
    pattern=r"[^:;()\n]{1,100}?(?=:?\s*By\s*:)",
    examples=("Northwind Widgets, Inc. By: /s/ Jane Roe",),
    counter=("IN WITNESS WHEREOF, the parties have signed this Agreement.",),
)
SIGNATURE_CUE = re.compile(r"\bIN\s+WITNESS\s+WHEREOF\b|/s/|\bBy\s*:\s*_{3,}", re.IGNORECASE)
SIGNATURE_CHARS = 5_000  # the signature blocks' names, one block after another


def signatory_names(text: str) -> list[str]:
    """The parties' names as their signature blocks give them, in order: each in capitals
    closed by its company form (SIGNATORY_CAPS), or closed by its description on its line
    ('THE BANKERS BANK, a Georgia banking corporation'), or closed by its company form before
    its signature line (SIGNATORY_BEFORE_BY)."""
    cue = SIGNATURE_CUE.search(text)
    if cue is None:
        return []
    # a line of its own ends a name: 'Title: Managing Director' above 'Acme Inc.'
    window = re.sub(r"[^\S\n]+", " ", text[cue.start() : cue.start() + SIGNATURE_CHARS])
    found = [(m.start(), m.end(), m.group(0)) for m in SIGNATORY_CAPS.finditer(window)]
    found += _described(window, found)
    for m in SIGNATORY_BEFORE_BY.finditer(window):
        name = _name_before(m.group(0))
        taken = any(a < m.end() and m.start() < b for a, b, _ in found)
        if name and not taken and re.search(r"\b" + _FORM_WORD + "$", name):
            found.append((m.end() - len(name), m.end(), name))
    out: list[str] = []
    for _, _, name in sorted(found):
        name = name.strip(" ,")
        if _NOT_A_PARTY.match(name) is None and name.casefold() not in map(str.casefold, out):
            out.append(name)
    return out


def _described(window: str, found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Names closed by their description on their line in a signature block, after the names
    `found` there already (columns side by side: 'ACME, INC. BETA BANK, a Georgia bank')."""
    out = []
    for end in PARTY_NAME_END.finditer(window):
        if end.group(0).lstrip(" ,")[:2] not in ("a ", "an"):
            continue
        name = _name_before(window[window.rfind("\n", 0, end.start()) + 1 : end.start()]) or ""
        for _, _, known in found:
            if name.startswith(known + " "):
                name = name[len(known) + 1 :]
        start = end.start() - len(name)
        if name and not any(a < end.start() and start < b for a, b, _ in found):
            out.append((start, end.start(), name))
    return out


def with_signatories(parties: Sequence[str], text: str) -> tuple[str, ...]:
    """The parties an introduction names, and where it names fewer than two that can be a
    party's full name (two words or more, or a company form: not 'Tech' read off a form's
    field), those the signature blocks name (signatory_names) too."""
    named = [p for p in parties if _full_name(p)]
    if len(named) >= 2:
        return tuple(parties)
    known = [_bare(p) for p in named]
    signed = [
        n for n in signatory_names(text) if not any(_bare(n) in k or k in _bare(n) for k in known)
    ]
    return tuple(named + signed) if signed else tuple(parties)


def _bare(name: str) -> str:
    """A name without its company form, case and punctuation: 'NORTHWIND LTD' = 'Northwind
    Limited'."""
    words = [w for w in re.split(r"[\s,]+", name) if w and not re.fullmatch(_FORM_WORD, w)]
    return " ".join(re.sub(r"\W", "", w).casefold() for w in words)


def _full_name(name: str) -> bool:
    return len(name.split()) >= 2 or bool(re.search(r"\b" + _FORM_WORD + "$", name))


def _one_by_one(name: str | None) -> list[str]:
    """Names listed with commas, each closed by its company form: 'Acme Partners L.P., Acme
    Fund L.P.' -> both."""
    if not name:
        return []
    pieces: list[str] = []
    for piece in re.split(r",\s+", name):
        if pieces and (
            re.fullmatch(_FORM_WORD, piece) or not re.search(_FORM_WORD + "$", pieces[-1])
        ):
            pieces[-1] += ", " + piece  # "Acme, Inc.", or a name with a comma of its own
        else:
            pieces.append(piece)
    whole = all(re.search(r"\b" + _FORM_WORD + "$", p) for p in pieces)
    return pieces if len(pieces) > 1 and whole else [name]


_PERSON_FIELD = re.compile(r"(?i:representative):")
# Words that stand before the parties' names, never in them: a cue, a heading ("PREAMBLE").
_BEFORE_NAMES = ("BETWEEN", "AMONG", "BY", "PREAMBLE", "PARTIES")
# A document's name, not a party's: 'entered into this Supply Contract (the "Contract")'.
_A_DOCUMENT = re.compile(r"\b(?i:agreement|contract|amendment|addendum)$")


def _capital(ch: str) -> bool:
    """A letter that may open a name: a capital, or a letter of a script without case
    ("深圳市科技有限公司", "ソニー株式会社")."""
    return ch.isupper() or (ch.isalpha() and not ch.islower())


def _name_before(text: str) -> str | None:
    """The run of name words that ends `text`: capitalised words and the connectors between
    them, back to the cue, a parenthesis or a lower-case word."""
    # a place in parentheses inside a name: "Acme (Hong Kong) Co., Ltd."
    text = re.sub(
        r"\(([A-Z][\w.]*(?: [A-Z][\w.]*){1,2})\)",
        lambda m: "(" + m.group(1).replace(" ", "\u00a0") + ")",
        text,
    )
    # a letter's salutation after the addressee's name: 'Jane Roe Dear Jane:'
    words = re.sub(r"\s+Dear$", "", text.rstrip(" ,")).split(" ")
    taken: list[str] = []
    stop = ""
    for i in range(len(words) - 1, -1, -1):
        stop = words[i]
        bare = words[i].strip(",")
        if re.fullmatch(r"\([A-Z][\w.\u00a0]*\)", bare):  # "Acme (Beijing) Co., Ltd."
            taken.append(words[i])
            continue
        if (
            not bare
            or re.search(r"[()\"“”:;]", bare)
            or bare.upper() in _BEFORE_NAMES
            or re.fullmatch(r"\(?\d{1,2}[.)]", bare)  # an item number: '(2) BETA', '2. Beta'
            # a date's year before the name: '... on April 22, 2000 Acme Media, Inc.'
            or (
                re.fullmatch(r"(?:19|20)\d\d", bare)
                and re.fullmatch(r"\d{1,2}\w{0,2},", words[i - 1] if i else "")
            )
        ):
            break
        if len(taken) >= 2 and words[i].endswith(",") and re.fullmatch(_FORM_WORD, bare):
            break  # "... Fund, L.P., Cibelli Research LLC": the form closes the name before
        named = (
            _capital(bare[0])
            or bare[0].isdigit()
            or any(c.isupper() for c in bare[1:])
            # "Acme, inc", "Acme plc"
            or (bool(re.fullmatch(_FORM_WORD, bare)) and re.match(r"[A-Z]|.*,$", words[i - 1]))
        )
        if _DOCUMENT_WORD.match(bare) or not (
            named
            or bare.lower() in _NAME_CONNECTORS
            or re.fullmatch(
                r"[a-z]+\.[a-z]{2,4}|[a-z](?:\.[a-z])+\.?", bare
            )  # "acme.com", "e.l.f."
        ):
            break
        if bare.lower() == "and" and (
            i == 0
            or re.search(r"[,\d]$|^[a-z]", words[i - 1])
            or re.fullmatch(_FORM_WORD, words[i - 1])
            or (
                i >= 2 and (words[i - 2] in ("of", "in", "under", "at") or words[i - 2][-1:] == ",")
            )
        ):
            break  # "..., and Acme Ltd", "the laws of Singapore and Acme Ltd": the next party
        taken.append(words[i])
        stop = ""
    for end in (-1, 0):  # a connector neither opens nor closes a name
        while taken and taken[end].strip(",").lower() in _NAME_CONNECTORS - {"the"}:
            dropped = taken.pop(end).strip(",").lower()
            if end == -1 and dropped == "of" and stop.lower() in ("laws", "law"):
                stop = dropped  # "under the laws of Switzerland": a place, not a party
    if (
        len(taken) >= 3
        and taken[-1] == "the"
        and all(w[:1].isupper() for w in taken[-3:-1])
        and (not stop or stop.endswith(",") or stop.lower() in ("between", "among", "and"))
    ):
        # 'the undersigned, the Acme Income Fund ("Fund")': the name after "the", where a
        # party is named (not 'as of the Effective Date (the "Start")')
        taken.pop()
    name = re.sub(r"\.{2,}$", ".", " ".join(reversed(taken)).strip(" ,")).replace("\u00a0", " ")
    if (
        not name
        or stop in _PLACE_BEFORE  # "residing in Ohio", "organized under the laws of Texas"
        # a person's field in a title block: 'Legal Representative: Jane Roe Party B: ...'
        or _PERSON_FIELD.fullmatch(stop)
        # the close of the name before and the label after it: '... Co., Ltd. Legal'
        or re.match(r"(?:(?i:ltd|inc|llc)\.?|(?i:corp|co)\.),?\s", name)
        or len(taken) > 12
        or _NOT_A_PARTY.match(name)
        or re.fullmatch(r"(?i:incorporated|company|corporation|limited)", name)
        or _A_DOCUMENT.search(name)
        or _ADDRESS.search(name)
        or _NOT_ONE_NAME.search(name)
        # a number (a registration, a street) in a name without a company form to close it
        or (re.search(r"(?:^|\s)\d", name) and not re.search(r"\b" + _FORM_WORD + "$", name))
        or re.search(r"\d\.\d|(?:^|\s)\d+\s.*\s\d+\b", name)  # section numbers: contents
        or not re.search(r"[^\W\d_]{2}", name)  # two letters, of any script
    ):
        return None
    return name


# The name a definition opens with, a party's when it is one of the parties' short names.
NOT_A_PARTY_ALIAS = rule(
    "term.not_a_party_alias",
    "term",
    "a single word defined by a party's short name ('means either Acme or its subsidiaries'): "
    "another name of a party, so a party's name too (term.not_a_party_name)",
    # the whole word, not a possessive: 'shall mean Biocept's assay' names a thing of Biocept's
    pattern=r"^\s*(?:(?:shall\s+)?means?|refers?\s+to)\s+(?:either\s+)?(?:the\s+)?"
    r"(?P<first>[A-Z][\w.&-]*)(?![\w.&'’-])",
    examples=(" shall mean either Acme or the applicable subsidiary", " refers to the Buyer"),
    counter=(
        " means the close of business on the date",
        " is any person",
        " shall mean Biocept's OncoCEE-LU assay",
    ),
)
_PARTY_ALIAS = NOT_A_PARTY_ALIAS.regex


def names_a_party(body: str, parties: set[str]) -> bool:
    """A definition that points at a party: 'shall mean ETI and all Subsidiaries thereof',
    'means either NTL or ETI'."""
    m = _PARTY_ALIAS.match(body)
    return bool(m and m.group("first").rstrip(".,") in parties)


def definition_is_verbal(evidence: str, term: str) -> bool:
    """'To "convey" a work means', 'a work "based on" the earlier work': a verb or a phrase
    defined, not a noun."""
    quoted = re.escape(term)
    return bool(
        re.search(rf"\bto\s+[“\"]{quoted}[”\"]", evidence, re.IGNORECASE)
        or re.search(rf"[“\"]{quoted}[”\"]\s+(?:a|an|the|such|that|this)\b", evidence)
    )


def _first_sentence(body: str) -> str:
    return re.split(r"(?<=[.;])\s", body, maxsplit=1)[0][:400]


def tautological(term: str, body: str) -> bool:
    """A definition that repeats the term in its own words, in lower case ('"Board of
    Directors" means the board of directors of the Company', '"Patent" shall mean any patent',
    '"Laws" means all applicable laws'): the ordinary word, read the same without it. A
    single word repeated after "the" names one particular thing ('"Notes": the renewable
    notes of the Company') and is not tautological."""
    words = _words(term)
    if not words:
        return False
    phrase = r"\s+".join([*(re.escape(w.lower()) for w in words[:-1]), _plural(words[-1].lower())])
    sentence = _first_sentence(body)
    if len(words) == 1:
        # a single word is defined by itself where the definition opens with it ('any
        # patent', 'all applicable laws'), not where it recurs in a long tail
        sentence = " ".join(sentence.split()[:20])
    for m in re.finditer(rf"(?<![\w-]){phrase}(?!\w)", sentence):
        if len(words) > 1:
            # the phrase heads the definition ('means the board of directors of X'); at the end
            # of a list of alternatives ('means any adaptation, modification, enhancement or
            # derivative work') the term is widened, a term of art
            if len(sentence[: m.start()].split()) <= 5:
                return True
            continue
        lead = sentence[: m.start()].split()[-4:]
        if "the" not in [w.lower() for w in lead]:
            return True
    return False


# A definition that lists kinds of entity defines a word for a party or a person
# ('"Person" means an individual, partnership, ...', '"Trustee": ... Bank, National
# Association'), not a term of art.
_ENTITY_WORDS = re.compile(
    rf"\b(?:{_COMPANY_FORMS}|commission|agency|authority|government|body|association)\b",
    re.IGNORECASE,
)
# A definition borrowed from another document ('has the meaning ascribed thereto in the
# Securities Act'): the word keeps the meaning the law gives it.
NOT_BORROWED_FROM_A_LAW = rule(
    "term.not_borrowed_from_a_law",
    "term",
    "a definition borrowed from a statute or code ('has the meaning given in the Companies "
    "Act'): the word keeps the meaning the law gives it",
    pattern=r"^\s*(?:shall\s+)?ha(?:s|ve)\s+the\s+meanings?\b[^.;]{0,40}?\b(?:in|under|by)\s+"
    r"(?:the\s+)?[A-Z][\w]*(?:\s+[A-Z][\w]*)*\s+(?:Act|Code|Law|Regulations?|Rules?|Treaty|"
    r"Directive)\b",
    examples=(
        " shall have the meaning ascribed to it in the Companies Act",
        " has the meaning given under the Internal Revenue Code of 1986",
    ),
    counter=(" has the meaning given in Section 4", " means the law of the place"),
)
_OUTSIDE_POINTER = NOT_BORROWED_FROM_A_LAW.regex


# Nouns that name a separate instrument, not a concept of this one: "the Separation
# Agreement", "the Indenture", "the Prospectus".
_INSTRUMENT_NOUNS = r"agreements?|indentures?|contracts?|prospectus(?:es)?|deeds?"
_INSTRUMENT_BODY = re.compile(
    rf"^\s*(?:(?:shall\s+)?means?\s+)?(?:that\s+certain\b|(?:the|an?|each)\s+"
    # not 'the date this Agreement is signed': a thing of this document, no instrument
    rf"(?:(?!(?:this|these|that|such|its)\b)[\w-]+\s+){{0,3}}?"
    rf"(?:{_INSTRUMENT_NOUNS}|registration\s+statement|license\s+agreement)\b)",
    re.IGNORECASE,
)
# '... an agreement to be concluded ... in substantially the form set forth in Exhibit B (the
# "Enterprise License")': an instrument still to be made in a given form, a document of its own.
_FORM_BEFORE = re.compile(r"\bin\s+substantially\s+the\s+form\b[^.;()]*$", re.IGNORECASE)


# A qualifier before the head of a definition ('With respect to a person, any agreement ...').
_QUALIFIER = re.compile(
    r"^\s*(?:(?:shall\s+)?means?\s*,?\s+)?(?:with\s+respect\s+to|in\s+relation\s+to|as\s+to)\s"
    r"[^,;:]{1,80},\s*",
    re.IGNORECASE,
)


def names_instrument(term: str, body: str, before: str = "") -> bool:
    """The term names another document (an agreement, indenture, prospectus, registration
    statement), which the reader needs as a citation, not a term of art: by its head noun,
    by a definition that opens with the instrument ('That certain Indenture dated ...', 'The
    prospectus included in ...'), or, defined in passing, by the form it is to take
    (`before`: the text before the parenthesis)."""
    words = _words(term)
    head = body[q.end() :] if (q := _QUALIFIER.match(body)) else body
    if re.match(r"\s*(?:(?:shall\s+)?means?\s+)?(?:any|all|each|every)\b", head, re.IGNORECASE):
        return False  # 'Material Agreement. Any agreement ...': a class of agreements, a concept
    # the head noun: the last word, or the word before "of" ('Deed of Subscription')
    head_noun = words[words.index("of") - 1] if "of" in words[1:] else words[-1]
    if len(words) > 1 and re.fullmatch(_INSTRUMENT_NOUNS, head_noun, re.IGNORECASE):
        return True
    if len(words) == 1 and re.fullmatch(r"indenture|prospectus", words[0], re.IGNORECASE):
        return True
    if re.search(r"\bregistration\s+statements?$", " ".join(words), re.IGNORECASE):
        return True  # a filing, named however it is brought in ('files a registration ...')
    return bool(_INSTRUMENT_BODY.match(body) or _FORM_BEFORE.search(before))


# A role a party plays ('"Receiving Party" means each Party in its capacity as the recipient
# ...'): the parties under another name, read the same without the definition.
NOT_A_PARTY_ROLE = rule(
    "term.not_a_party_role",
    "term",
    "a '... Party' defined as a party in one of its roles ('Disclosing Party' means each Party "
    "that discloses): the parties under another name",
    pattern=r"^\s*(?:shall\s+)?(?:means?|be)\s+(?:each|either|any|the|a)\s+[Pp]arty\b",
    examples=(
        " means each Party in its capacity as the recipient",
        " shall mean the Party that pays",
        " shall be the party which discloses the information",
    ),
    counter=(" means any person who is not a party", " means the other side"),
)
_PARTY_ROLE = NOT_A_PARTY_ROLE.regex
# A single word for a class of persons ('Investor. Any person who purchases Notes', 'Holder.
# The registered owner of any Note'): who someone is, not a coined thing.
# A qualifier may stand between "means" and the head ('"Affiliate" means, with respect to any
# person, any other person that controls ...'): the head is what follows it.
NOT_A_CLASS_OF_PERSONS = rule(
    "term.not_a_class_of_persons",
    "term",
    "a single word defined as a class of persons ('Holder. The registered owner of a Note'): who "
    "someone is, not a coined thing",
    pattern=r"^\s*(?:(?:shall\s+)?means?\s*,?\s+)?"
    r"(?:(?:when\s+used\s+)?(?:with\s+respect\s+to|in\s+relation\s+to|as\s+to)\s[^,;:]{1,80},\s+)?"
    r"(?:\((?:[ivx]{1,4}|[a-z]|\d{1,2})\)\s*)?"  # an item marker: '(i) the employees, ...'
    r"(?i:the|a|an|any|each|every|all)?\s*(?:[a-z-]+\s+){0,2}?"
    # the head may be a defined word itself ('a Person that controls ...')
    r"(?:[Pp]ersons?|individuals?|owners?|holders?|purchasers?|[Ee]ntity|[Ee]ntities|employees|"
    r"officers|directors|agents|representatives|personnel)\b",
    examples=(
        "Any person who buys a ticket",
        " means, with respect to a company, the employees and agents of that company",
        " means, when used with respect to any specified Person, a Person that controls",
        "The registered owner of any share",
    ),
    counter=(" means the price paid for a unit", "Any software delivered"),
)
_PERSON_HEAD = NOT_A_CLASS_OF_PERSONS.regex


# A definition that only points back at the document ("the transactions contemplated by this
# Agreement", "the matters contemplated hereby"): the ordinary words, read the same without it.
NOT_SELF_CONTEMPLATED = rule(
    "term.not_self_contemplated",
    "term",
    "a definition that only points back at the document ('the transactions contemplated by "
    "this Agreement'): the ordinary words, read the same without it",
    pattern=r"^\s*(?:(?:shall\s+)?means?\s+)?(?:the|all|any)\s+(?:[a-z-]+\s+){0,2}?[a-z-]+\s+"
    r"(?:contemplated|described|referred\s+to)\s+(?:by|in|under)?\s*"
    r"(?:this\s+(?:Agreement|Contract|License|Licence|Deed)|hereby|herein|hereunder)\s*[.;]",
    examples=(
        " means the transactions contemplated by this Agreement.",
        " means all services described herein;",
    ),
    counter=(" means the sale of the shares to the buyer.",),
)
_SELF_CONTEMPLATED = NOT_SELF_CONTEMPLATED.regex


# The exclusions judged by a function rather than one pattern of their own.
NOT_A_WORD = rule(
    "term.not_a_word", "term", "a term with no letters (a number, a mark): nothing to look for"
)
NOT_A_PRONOUN = rule(
    "term.not_a_pronoun", "term", "a pronoun defined ('you'): a closed class, not a term of art"
)
NOT_THE_DOCUMENT_ITSELF = rule(
    "term.not_the_document_itself",
    "term",
    "the document naming itself ('this Agreement', 'the License'), unless a single word is "
    "defined as a class of works ('\"Document\" refers to any such manual')",
)
NOT_A_PARTY_NAME = rule(
    "term.not_a_party_name",
    "term",
    "a party's short name (term.party_introduction, term.not_a_party_alias) or 'Party' itself",
)
NOT_A_VERB = rule(
    "term.not_a_verb",
    "term",
    "a verb or a phrase defined ('to \"convey\" a work', 'a work \"based on\" another'), not "
    "a noun",
)
NOT_A_LABEL_FOR_OWN_WORDS = rule(
    "term.not_a_label_for_own_words",
    "term",
    "a phrase defined in passing right after the same words in lower case ('the common stock of "
    'the Company ("Common Stock")\')',
)
NOT_THE_ORDINARY_WORDS = rule(
    "term.not_the_ordinary_words",
    "term",
    "a definition that repeats the term in lower case ('\"Patent\" means any patent'), unless it "
    "recasts it in the document's own terms or narrows it to the document's own things",
)
NOT_ANOTHER_INSTRUMENT = rule(
    "term.not_another_instrument",
    "term",
    "the name of another document (an agreement, indenture, prospectus, registration "
    "statement, or one to be made in a given form): a citation, not a term of art",
)
# A statute's short name ("Securities Exchange Act"), over the term's words joined; not
# "Code", which also ends coined terms ("Corresponding Application Code").
NOT_A_STATUTE_NAME = rule(
    "term.not_a_statute_name",
    "term",
    "a phrase ending in Act, Statute or Directive: a statute's short name",
    pattern=r"\s(?:Act|Statute|Directive)$",
    examples=("Securities Exchange Act", "Data Protection Directive"),
    counter=("Act", "Corresponding Application Code", "Act of God"),
)
_STATUTE = NOT_A_STATUTE_NAME.regex
NOT_A_NOUN_PHRASE = rule(
    "term.not_a_noun_phrase",
    "term",
    "a phrase ending in a particle or made of adverbs and participles ('relying on', 'normally "
    "used'): ordinary English, a noun phrase ends in a noun",
)
NOT_A_SHORTENED_NAME = rule(
    "term.not_a_shortened_name",
    "term",
    "a phrase defined by the longer name it shortens ('Securities Act. The Securities Act of "
    "1933')",
)
NOT_AN_ENTITY = rule(
    "term.not_an_entity",
    "term",
    "a definition that opens with kinds of entity or an organisation's name ('an individual, "
    "partnership or corporation', 'Bank, National Association'): a party or a person",
)
NOT_A_COMMON_PHRASE = rule(
    "term.not_a_common_phrase",
    "term",
    "a lower-case phrase ('source code') whose definition does not build on the document's "
    "other terms",
)
NOT_A_LOWER_CASE_WORD = rule(
    "term.not_a_lower_case_word",
    "term",
    "a single lower-case word defined: an ordinary word given a meaning",
)
NOT_A_NAMED_ACRONYM = rule(
    "term.not_a_named_acronym",
    "term",
    "an acronym that names a body, a party or a statute, not a concept of the document (its "
    "definition opens with a common noun and builds on the document's terms)",
)
NOT_A_CATEGORY_LIST = rule(
    "term.not_a_category_list",
    "term",
    "a single word defined by a list of ordinary kinds ('means software, documentation, "
    "designs, ...'): the ordinary category, widened",
)


@dataclass(frozen=True)
class _Definition:
    """A defined term with what the exclusions judge it by (the arguments of `distinctive`)."""

    term: str
    words: list[str]  # the term without a leading determiner
    evidence: str
    parties: set[str]
    body: str
    doc_terms: Iterable[str]
    in_passing: bool
    before: str
    doc_text: str

    @property
    def folded(self) -> list[str]:
        return [w.casefold() for w in self.words]


def _pronoun(d: _Definition) -> bool:
    return len(d.words) == 1 and d.folded[0] in _PRONOUNS


def _itself(d: _Definition) -> bool:
    # '"Document" refers to any such manual or work' names the works a licence covers, not
    # the licence naming itself
    if is_self_reference(d.term) and not (len(d.words) == 1 and _CLASS_BODY.match(d.body)):
        return True
    # 'This PATENT ASSIGNMENT (the "Assignment")': an instrument (the document, or one it
    # attaches) naming itself by its own head noun, whatever the noun
    return d.in_passing and len(d.words) == 1 and _names_itself(d.words[0], d.before)


def _names_itself(word: str, before: str) -> bool:
    # the name's words capitalised ('This Master Services Agreement'), not a sentence
    opening = re.search(
        r"\b(?i:this)\s+((?:[A-Z][\w&'’-]*\s+|(?:&|and|of)\s+){0,6}?)([A-Z][\w'’-]*)[\s,]*$", before
    )
    return opening is not None and opening.group(2).casefold() == word.casefold()


def _party(d: _Definition) -> bool:
    return (
        d.term in d.parties
        or " ".join(d.words) in d.parties
        or d.folded in (["party"], ["parties"])
    )


def _verbal(d: _Definition) -> bool:
    return definition_is_verbal(d.evidence, d.term)


def _company(d: _Definition) -> bool:
    return bool(_COMPANY_NAME.search(" ".join(d.words)))


def _own_words(d: _Definition) -> bool:
    # 'the common stock of the Company ("Common Stock")': a label for the ordinary words just
    # written, as '"Board of Directors" means the board of directors of X'
    # but not where the sentence goes on to say where the thing is fixed ('sales commissions
    # ("Sales Commissions") as set forth in the SOW'): the label then carries that meaning
    return (
        d.in_passing
        and len(d.words) > 1
        and _labels_own_words(d.words, d.before)
        and not _FIXED_ELSEWHERE.match(d.body)
    )


# After a label in passing: where what it labels is fixed ('as set forth in the SOW', 'as
# described in Exhibit A', 'to be agreed in writing').
_FIXED_ELSEWHERE = re.compile(
    r"[\s)”\"]*,?\s*(?:as|to\s+be)\s+(?:(?:more\s+)?(?:fully\s+|further\s+)?)"
    r"(?:set\s+(?:forth|out)|described|specified|detailed|defined|calculated)\s+(?:in|on|under)\b",
    re.IGNORECASE,
)


def _contemplated(d: _Definition) -> bool:
    return bool(_SELF_CONTEMPLATED.match(d.body))


def _ordinary(d: _Definition) -> bool:
    # '"Board of Directors" means the board of directors of X' reads the same without it;
    # '"Intellectual Property Rights" means all intellectual property rights in (i) Patents,
    # (ii) Trademarks ...' is recast in the document's own terms, a term of art; so is a word
    # narrowed to this document's own things ('"Product" means each product identified in a
    # Statement of Work ... under this Agreement')
    return tautological(d.term, d.body) and not _recast(
        d.words, d.body, d.doc_terms, d.parties, d.doc_text
    )


def _instrument(d: _Definition) -> bool:
    return names_instrument(d.term, d.body, d.before if d.in_passing else "")


def _party_role(d: _Definition) -> bool:
    # "Receiving Party": each Party in one of its roles, not a third party; so is a single
    # word defined as one ('"Buyer" shall mean the party ordering shipment')
    role = len(d.words) == 1 or re.fullmatch(r"part(?:y|ies)", d.folded[-1])
    return bool(role and _PARTY_ROLE.match(d.body))


def _statute(d: _Definition) -> bool:
    return bool(_STATUTE.search(" ".join(d.words)))


def _not_noun_phrase(d: _Definition) -> bool:
    # a noun phrase ends in a noun, not a -ly/-ed/-ing word or a particle
    first, last = d.folded[0], d.folded[-1]
    return last in ("on", "in", "to", "of", "by", "with", "for") or bool(
        re.fullmatch(r"\w+(?:ly|ed|ing)", first) and re.fullmatch(r"\w+(?:ed|ing)", last)
    )


def _shortened_name(d: _Definition) -> bool:
    name = rf"The\s+(?:[A-Z][\w.&-]*\s+|of\s+|and\s+)*{re.escape(d.words[-1])}\b"
    return bool(re.match(name, d.body))


def _entity_name(d: _Definition) -> bool:
    return d.body[:1].isupper() and _names_entity(d.body)


def _common_phrase(d: _Definition) -> bool:
    # a lower-case phrase ("covered work") is coined when its definition builds on the
    # document's other terms ("either the unmodified Program or ...")
    lower = " ".join(d.words[1:]).islower()
    return lower and not _mentions_terms(_first_sentence(d.body), d.doc_terms, d.term)


def _category(d: _Definition) -> bool:
    return _enumerates(d.body)


def _entity(d: _Definition) -> bool:
    return _names_entity(d.body)


def _borrowed(d: _Definition) -> bool:
    return bool(_OUTSIDE_POINTER.match(d.body))


def _persons(d: _Definition) -> bool:
    return bool(_PERSON_HEAD.match(d.body))


# A short name given in passing right after a company's full name ('Netscape Communications
# Corporation ("Netscape") may publish ...'): a name, wherever the text introduces it.
NOT_A_COMPANY_SHORT_NAME = rule(
    "term.not_a_company_short_name",
    "term",
    "a word given in passing as the short name of the company named just before it",
    pattern=r"(?<!\b[Tt]he)\s(?:Inc|Incorporated|Ltd|Limited|LLC|L\.L\.C|LLP|PLC|plc|GmbH|AG|"
    r"Corp|Corporation|Company|Co(?=\.)|S\.A|N\.V|B\.V)\.?[\s,(“\"']*$",
    examples=(
        "Netscape Communications Corporation (",
        "published by Acme Widgets, Inc., (",
        "Beijing Internet Information Service Co. (",
    ),
    counter=("the software (", "not limited to (", "the board of directors of the Company ("),
)


def _named_company(d: _Definition) -> bool:
    # the short name taken from the full name before it (a word of it or its initials), not a
    # role the company plays ('Acme Software Corp. (the "Licensor")')
    m = NOT_A_COMPANY_SHORT_NAME.regex.search(d.before) if d.in_passing else None
    if not m or d.term.strip().casefold().startswith("the "):
        return False
    name = re.findall(r"[A-Za-z][\w&-]*", d.before[max(0, m.start() - 120) : m.start()])[-8:]
    initials = "".join(w[0] for w in name if w[0].isupper()).casefold()
    if len(d.words) > 1:  # every word of it from the full name ('"Beijing SINA"')
        return set(d.folded) <= {w.casefold() for w in name}
    word = d.folded[0]
    return word in {w.casefold() for w in name} or (len(word) > 1 and word in initials)


Check = tuple[Rule, Callable[[_Definition], bool]]
# In the order they are tried; the first that holds names the exclusion.
_ANY_TERM: tuple[Check, ...] = (
    (NOT_A_PRONOUN, _pronoun),
    (NOT_THE_DOCUMENT_ITSELF, _itself),
    (NOT_A_PARTY_NAME, _party),
    (NOT_A_VERB, _verbal),
    (NOT_A_COMPANY_NAME, _company),
    (NOT_A_LABEL_FOR_OWN_WORDS, _own_words),
    (NOT_SELF_CONTEMPLATED, _contemplated),
    (NOT_THE_ORDINARY_WORDS, _ordinary),
    (NOT_ANOTHER_INSTRUMENT, _instrument),
    (NOT_A_PARTY_ROLE, _party_role),
    (NOT_A_STATUTE_NAME, _statute),
)
_PHRASE: tuple[Check, ...] = (
    (NOT_A_COMPANY_SHORT_NAME, _named_company),
    (NOT_A_NOUN_PHRASE, _not_noun_phrase),
    (NOT_A_SHORTENED_NAME, _shortened_name),
    (NOT_AN_ENTITY, _entity_name),
    (NOT_A_COMMON_PHRASE, _common_phrase),
)
_WORD: tuple[Check, ...] = (
    (NOT_A_CATEGORY_LIST, _category),
    (NOT_AN_ENTITY, _entity),
    (NOT_BORROWED_FROM_A_LAW, _borrowed),
    (NOT_A_CLASS_OF_PERSONS, _persons),
)


def _first(checks: Sequence[Check], d: _Definition) -> Rule | None:
    return next((r for r, check in checks if check(d)), None)


def _word_exclusion(d: _Definition) -> Rule | None:
    """The exclusions of a single word, after those of any term."""
    word = d.words[0]
    if word.islower():
        return NOT_A_LOWER_CASE_WORD
    if word.isupper() and len(word) <= 6:
        # an acronym is a name (party, body, statute) unless its definition opens with a
        # common noun and builds on the document's own terms: '"PPV" means the difference
        # between the price for a Product Unit ...' abbreviates a concept of this document
        # ('"SEC" means the Securities and Exchange Commission' stays a name, '"GAAP" means
        # generally accepted accounting principles' a concept from outside)
        coined = bool(_CONCEPT_BODY.match(d.body)) and _mentions_terms(
            _first_sentence(d.body), d.doc_terms, d.term
        )
        return None if coined else NOT_A_NAMED_ACRONYM
    if _named_company(d):
        return NOT_A_COMPANY_SHORT_NAME
    if d.in_passing:
        return None  # a label for one particular thing
    return _first(_WORD, d)


def exclusion(
    term: str,
    evidence: str,
    parties: set[str],
    body: str = "",
    doc_terms: Iterable[str] = (),
    in_passing: bool = False,
    before: str = "",
    doc_text: str = "",
) -> Rule | None:
    """The rule that keeps `term` from the terms of art, or None for a term of art (the
    arguments are `distinctive`'s)."""
    words = _words(term)
    if not words or not any(c.isalpha() for c in term):
        return NOT_A_WORD
    d = _Definition(term, words, evidence, parties, body, doc_terms, in_passing, before, doc_text)
    found = _first(_ANY_TERM, d)
    if found is None:
        found = _first(_PHRASE, d) if len(words) > 1 else _word_exclusion(d)
    return found


def distinctive(
    term: str,
    evidence: str,
    parties: set[str],
    body: str = "",
    doc_terms: Iterable[str] = (),
    in_passing: bool = False,
    before: str = "",
    doc_text: str = "",
) -> bool:
    """Is `term` a term of art whose uses should bring its definition to a reader?

    `evidence`: the definition as written; `body`: the text that defines it; `parties`: the
    parties' short names in this document; `doc_terms`: the other terms the document defines;
    `in_passing`: defined in a parenthesis after what it names ('the right to buy ... (the
    "Option")'), a label for one particular thing; `before`: the text before that parenthesis;
    `doc_text`: the document's text, to see how consistently it capitalises a word. Which
    exclusion holds, if one does: `exclusion`.
    """
    return exclusion(term, evidence, parties, body, doc_terms, in_passing, before, doc_text) is None


def _labels_own_words(words: list[str], before: str) -> bool:
    """The words of a term defined in passing stand, in lower case, just before its
    parenthesis ('the common stock of the Company ("Common Stock")'). Not where they bring
    in a new thing ('shall form a steering committee (the "Steering Committee")'): the label
    then names that one thing, as a term of art."""
    phrase = r"\s+".join([*(re.escape(w.lower()) for w in words[:-1]), _plural(words[-1].lower())])
    tail = " ".join(before.split()[-12:])
    return bool(re.search(rf"(?<![\w-])(?<!\ba )(?<!\ban ){phrase}(?![\w-])", tail))


def _enumerates(body: str) -> bool:
    """A definition that is a list of kinds ('means Software, technical documentation,
    specifications, schematics, designs, ...'): the ordinary word for a category, widened
    by a list, reads the same without it. Five or more items before the first stop."""
    m = re.match(r"\s*(?:(?:shall\s+)?means?\s+)?(?:any|all)?\s*(?:and\s+all\s+)?", body)
    # item markers ("any (i) multinational, federal, ... government") number the list, they
    # do not end it
    rest = re.sub(r"\((?:[ivx]{1,4}|[a-z]|\d{1,2})\)\s*", "", body[m.end() if m else 0 :])
    head = re.split(r"[.;:(]", rest, maxsplit=1)[0]
    items = [i.strip() for i in head.split(",")]
    # kinds of thing are common nouns; a list of names ("the United States, Canada, ...")
    # delimits a particular thing (a Territory) and is a definition that matters
    common = sum(1 for i in items[:5] if _content_words(i)[:1].islower())
    return len(items) >= 5 and all(0 < len(i.split()) <= 4 for i in items[:5]) and common >= 4


def _content_words(item: str) -> str:
    return re.sub(r"^(?:(?:the|a|an|any|all|other|and|or)\s+)+", "", item, flags=re.IGNORECASE)


def _names_entity(body: str) -> bool:
    """The definition opens with a kind of entity or an organisation's name: '(i) a
    corporation, company or other entity', 'an individual, partnership, ...', 'Bank, National
    Association or its successors'."""
    words = re.sub(r"\([a-z0-9]{1,4}\)|[,;:]", " ", body).split()
    words = [w for w in words if w.lower() not in ("means", "shall", "mean", "refers", "to")]
    while words and w_det(words[0]):
        words = words[1:]
    name = []
    for w in words[:8]:
        if not (w[:1].isupper() or w in ("and", "of", "&", "for")):
            break
        name.append(w.strip("."))
        if w.endswith("."):
            break
    if len(name) > 1 and _ENTITY_WORDS.fullmatch(name[-1]):
        return True  # "The Securities and Exchange Commission": an organisation's name
    if _ENTITY_MODIFIER.match(body):
        return False  # 'The trust account established by ...': "trust" modifies a noun
    return bool(words) and bool(
        _ENTITY_WORDS.fullmatch(words[0].strip("."))
        or (
            len(words) > 2
            and words[0][:1].isupper()
            and _ENTITY_WORDS.fullmatch(words[2].strip("."))
        )
    )


# A kind of entity used as a modifier ("trust account", "bank holiday", "company car").
_ENTITY_MODIFIER = re.compile(
    rf"^\s*(?:(?:shall\s+)?means?\s+)?(?:(?i:the|a|an|any|each|every|all|such)\s+)?"
    rf"(?i:{_COMPANY_FORMS}|commission|agency|authority|government|body|association)\s+"
    r"(?!(?:or|and|of|organi[sz]ed|formed|incorporated|existing|that|which|who|in|under|"
    r"with|whose|duly|named)\b)[a-z][a-z-]+\b"
)


def w_det(word: str) -> bool:
    return word.lower() in ("a", "an", "the", "any", "each", "every", "all", "such")


def _mentions_terms(text: str, doc_terms: Iterable[str], term: str) -> bool:
    for other in doc_terms:
        if term_key(other) == term_key(term) or is_self_reference(other):
            continue
        words = _words(other)
        coined = words and not (len(words) == 1 and words[0].islower())
        if coined and term_pattern(other).search(text):
            return True
    return False


def _terms_mentioned(text: str, doc_terms: Iterable[str], term: str, parties: set[str]) -> int:
    """How many of the document's other coined terms (not the parties, not itself) `text` uses."""
    count = 0
    for other in set(doc_terms):
        words = _words(other)
        if (
            not words
            or term_key(other) == term_key(term)
            or is_self_reference(other)
            or other in parties
            or " ".join(words) in parties
            or (len(words) == 1 and words[0].islower())
        ):
            continue
        count += bool(term_pattern(other).search(text))
    return count


def term_pattern(term: str) -> re.Pattern[str]:
    """How a term is found in text. A capitalised single word matches as drafted ("Product",
    not "product"; a word of five letters or more defined in capitals also capitalised:
    "SOFTWARE", "Software"); a multi-word term in any case, with plurals and possessives; lower-case
    single words also with verb endings."""
    # a hyphenated word broken at a line end in the definition ('(the "Non- Compete Period")')
    # is the one word its uses write whole ("the Non-Compete Period"); not a hyphen left
    # hanging before "and" / "or" ("Pre- and Post-Closing Taxes")
    term = re.sub(r"(?<=\w)-\s+(?!(?:and|or|to)\b)(?=\w)", "-", term)
    words = _words(term) or term.split()
    *head, last = words
    # a lower-case word may be a verb defined ("convey"); a phrase is a noun phrase, whose last
    # word takes no verb endings ("authorization grant" is not in "authorization granted")
    verb = not head and last.islower() and last.isalpha()
    last_re = _inflected(last) if verb else _plural(last)
    body = r"\s+".join([*(re.escape(w) for w in head), last_re])
    body = body.replace(r"\-", r"-\s?")  # "Sub- Section": a hyphenated word broken at a line end
    single_cap = len(words) == 1 and not words[0].islower()
    if single_cap and last.isupper() and last.isalpha() and len(last) >= 5:
        # a word defined in capitals ('"SOFTWARE" means') is written capitalised in use
        # ("the Software"); a short one is an acronym, as drafted only ("IT" is not "It")
        body = rf"(?:{body}|{_plural(last.capitalize())})"
    flags = 0 if single_cap else re.IGNORECASE
    return re.compile(rf"(?<![\w-]){body}(?:['’]s?)?(?![\w-])", flags)


def _inflected(word: str) -> str:
    """A lower-case word with its plural and verb endings: convey(s|ed|ing), modif(y|ies|ied)."""
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return re.escape(word[:-1]) + r"(?:y|ies|ied|ying)"
    if word.endswith("e"):
        return re.escape(word[:-1]) + r"(?:e|es|ed|ing)"
    return re.escape(word) + r"(?:s|es|ed|ing)?"


def _plural(word: str) -> str:
    """A noun with its plural, or a plural term with its singular ("Products", "Product")."""
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return re.escape(word[:-1]) + r"(?:y|ies)"
    if word.endswith("ies") and len(word) > 4:
        return re.escape(word[:-3]) + r"(?:y|ies)"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return re.escape(word[:-1]) + r"s?"
    if word.endswith("s"):
        return re.escape(word) + r"(?:es)?"
    return re.escape(word) + r"(?:s|es)?"


# A definition whose meaning is a class of things ('refers to any such manual or work'), after
# an aside such as ", below,".
_CLASS_BODY = re.compile(
    r"^[\s,]*(?:(?:below|above|herein|hereinafter)\s*,\s*)?(?:shall\s+)?(?:means?|refers?\s+to)\s+"
    r"(?:any|each|every|all)\b"
)
# A definition that opens with a common noun ('means the difference between', 'means a written
# purchase order'), not a capitalised name.
_CONCEPT_BODY = re.compile(
    r"^\s*(?:shall\s+)?(?:means?|refers?\s+to)\s+(?:(?:the|an?|any|each|all)\s+)?"
    r"(?!(?:the|an?|any|each|all)\s)[a-z]"
)
# The definition ties the word to this document: "this Agreement", "hereto", "hereunder".
_THIS_DOCUMENT = re.compile(
    rf"\bth(?:is|ese)\s+(?:{'|'.join(sorted(_SELF_NOUNS))})\b|\bhere(?:to|under|in|of|by|with)\b",
    re.IGNORECASE,
)


# A definition narrowed to a numbered part of this document: '"Shipping Term" means the
# default shipping term as set forth in Section 6.5'.
_OWN_PART = re.compile(
    r"\b(?:set\s+(?:forth|out)|specified|described|provided|stated)\s+(?:in|under)\s+"
    r"(?:Section|Article|Clause|Paragraph|Exhibit|Schedule|Annex|Appendix)\s+[\w.]+"
)


def _recast(
    words: list[str], body: str, doc_terms: Iterable[str], parties: set[str], doc_text: str
) -> bool:
    term = " ".join(words)
    if len(words) > 1:
        sentence = _first_sentence(body)
        return bool(_OWN_PART.search(sentence)) or (
            _terms_mentioned(sentence, doc_terms, term, parties) >= 2
        )
    return _bound_to_document(words[0], body, doc_text, doc_terms, parties)


_PARTYS = re.compile(
    r"\s*(?:shall\s+)?(?:means?|refers?\s+to)\s*:?\s+(?:the\s+)?(?P<owner>[A-Z][\w.&-]*)['’]s\s"
)
_THE_PARTICULAR = re.compile(r"\s*(?:shall\s+)?(?:means?|refers?\s+to)\s*:?\s+the\s", re.IGNORECASE)


def _bound_to_document(
    word: str,
    body: str,
    doc_text: str,
    doc_terms: Iterable[str] = (),
    parties: set[str] = frozenset(),  # type: ignore[assignment]
) -> bool:
    """A capitalised word whose definition repeats it in lower case is still a term of art
    when the definition narrows it to this document's own things ('"Product" means each
    product identified in ... a Statement of Work ... under this Agreement', '"Program"
    refers to any such program', "such" pointing back at a stated condition, '"Product"
    means the products ... relating to the Training Course', another of its terms) and the
    document writes it capitalised in most of its uses, so a reader can tell the term from
    the ordinary word."""
    sentence = _first_sentence(body)
    such = re.search(rf"\bsuch\s+{_plural(word.lower())}\b", sentence)
    # the particular things of another of its terms ('means the products ... relating to the
    # Training Course'), not any of a kind ('means any patent ... filed before the Closing')
    particular = _THE_PARTICULAR.match(body) and _terms_mentioned(
        sentence, doc_terms, word, parties
    )
    # a party's own thing ('"Assay" shall mean Biocept's OncoCEE-LU assay ...')
    owner = _PARTYS.match(body)
    own = _THIS_DOCUMENT.search(sentence) or particular or (owner and owner["owner"] in parties)
    if not (such or own):
        return False
    # capitalised mid-sentence (not after a full stop) against lower case
    capital = len(re.findall(rf"(?<![.!?:]\s)(?<![\w-]){_plural(word)}(?![\w-])", doc_text))
    lower = len(re.findall(rf"(?<![\w-]){_plural(word.lower())}(?![\w-])", doc_text))
    return capital > lower


def _vocabulary(
    doc_id: str,
    by_key: dict[str, list[Term]],
    related: dict[str, set[str]],
    superseded: set[str],
    defining_docs: set[str],
) -> dict[str, Term]:
    """The terms a document's sections may use: its own, then those of documents it cites;
    a document that defines nothing itself borrows the tenant's unambiguous coined phrases
    (USES_BORROWED_DEFINITION)."""
    out: dict[str, Term] = {}
    cited = related.get(doc_id, set())
    for key, defs in by_key.items():
        own = [t for t in defs if t.doc_id == doc_id]
        pool = own or [t for t in defs if t.doc_id in cited]
        if not pool and doc_id not in defining_docs and _borrowable(key, defs, superseded):
            pool = defs
        if pool:
            out[key] = sorted(
                pool,
                key=lambda t: (t.doc_id in superseded, t.doc_id != doc_id, t.doc_id, t.section_id),
            )[0]
    return out


# A name followed by a company form is the company, not the term ("Entrust Technologies Inc.").
_COMPANY_AFTER = re.compile(
    r"\s*,?\s*(?:Inc|Incorporated|Ltd|Limited|LLC|L\.L\.C|LLP|plc|PLC|GmbH|AG|S\.A|N\.V|B\.V|"
    r"Corp|Corporation|Co)\b"
)


def _quoted(text: str, start: int, end: int) -> bool:
    return start > 0 and text[start - 1] in "\"“'‘" and text[end : end + 1] in ('"', "”", "'", "’")


def _mixed_case(found: str, term: str) -> bool:
    """'additional Shares' for "Additional Shares": capitals that follow neither the definition
    nor plain lower case, so an ordinary word before the term "Shares". Every word capitalised
    is title case ("Change Envelope Structure definition"), the term in any case."""
    a, b = found.split(), _words(term)
    if len(a) < 2 or len(a) != len(b) or found.islower() or found.isupper():
        return False
    if all(x[:1].isupper() for x in a):
        return False
    return any(x[:1].isupper() != y[:1].isupper() for x, y in zip(a, b, strict=True))


# The legend an EDGAR filing prints where text was redacted ("***Confidential Information has
# been omitted and has been filed separately with the Securities and Exchange Commission",
# "Confidential treatment has been requested for ..."): page furniture of the filing, not text
# of the section it interrupts, so it uses no term.
NOT_USED_IN_A_FILING_LEGEND = rule(
    "term.not_used_in_a_filing_legend",
    "term",
    "a redaction legend of a filing (its anchor phrase; the span runs back to the start of "
    "the sentence): page furniture, no use of a term",
    pattern=r"\bfiled\s+separately\s+with\s+the\s+(?:Securities\s+and\s+Exchange\s+)?Commission\b"
    r"[^.\n]{0,80}\.?|\bconfidential\s+treatment\s+(?:has\s+been\s+|was\s+|is\s+)?requested\b"
    r"[^.\n]{0,120}\.?",
    flags=re.IGNORECASE,
    examples=(
        "[***] The omitted text has been filed separately with the Commission.",
        "Confidential treatment has been requested for the marked portions.",
    ),
    counter=("The report is filed with the board each quarter.",),
)
_FILING_LEGEND = NOT_USED_IN_A_FILING_LEGEND.regex
_LEGEND_START = re.compile(r"[^.\n]{0,160}$")


def filing_legends(text: str) -> list[tuple[int, int]]:
    """Spans of redaction legends: from the anchor phrase back to the start of its sentence
    or line (anchored first, so the scan stays linear)."""
    out = []
    for m in _FILING_LEGEND.finditer(text):
        back = _LEGEND_START.search(text, max(0, m.start() - 160), m.start())
        start = back.start() if back else m.start()
        if m.group(0).lower().startswith("filed") and not re.search(
            r"\b(?:omitted|redacted)\b", text[start : m.start()], re.IGNORECASE
        ):
            continue  # "filed separately with the Commission" alone reports a filing
        out.append((start, m.end()))
    return out


def _borrowable(key: str, defs: Sequence[Term], superseded: set[str]) -> bool:
    """A term a document that cites nothing may take from the tenant: a phrase of two words or
    more ("Line Manager") that one live document defines. A single word ("Services",
    "Client", "Fees") or a phrase many unrelated contracts define ("Effective Date") names
    something of the reader's own document, whose definition raag missed, not of another's."""
    live = {t.doc_id for t in defs if t.doc_id not in superseded}
    return len(key.split()) > 1 and len(live) <= 1


# A use's edge names where its definition is: in the section's own document, or borrowed
# from a document it cites (or the tenant's, where the document defines nothing itself).
# The term is found by `term_pattern`: as drafted, in plural or possessive.
USES_OWN_DEFINITION = rule(
    "uses_term.own_definition",
    "term",
    "a term of art used in a section of the document that defines it",
    edge_type="uses_term",
    confidence=1.0,
)
USES_BORROWED_DEFINITION = rule(
    "uses_term.borrowed_definition",
    "term",
    "a term of art used in a section of another document: one that cites the defining "
    "document, or that defines nothing itself (then only a phrase of two words or more that "
    "one live document of the tenant defines)",
    edge_type="uses_term",
    confidence=0.9,
)
NOT_USED_IN_A_COMPANY_NAME = rule(
    "term.not_used_in_a_company_name",
    "term",
    "a match followed by a company form ('Northwind Trading Inc.'): the company, not the term",
    pattern=_COMPANY_AFTER,
    examples=("Northwind Trading Inc. shall deliver", "Acme, Ltd."),
    counter=("the Licensed Product shall be delivered", "the Company shall pay"),
)
# "The DAMAGE extension", "the Damage extension": the protocol extension (its specification)
# named by the word, not a use of the type or concept the word also defines.
NOT_USED_IN_AN_EXTENSION_NAME = rule(
    "term.not_used_in_an_extension_name",
    "term",
    "a match followed by 'extension' ('the DAMAGE extension'): the protocol extension named, "
    "not the term",
    pattern=r"\s+[Ee]xtension\b",
    examples=("The DAMAGE extension is designed", "the Damage Extension"),
    counter=("a DAMAGE argument", "the DAMAGE extensions list"),
)
# "This Master Services Agreement", "under the Supply Agreement": the words before
# "Agreement" name an instrument (this one or another), they do not use the term "Services".
NOT_USED_IN_AN_INSTRUMENT_NAME = rule(
    "term.not_used_in_an_instrument_name",
    "term",
    "a match followed by 'Agreement' or 'Contract' ('This Master Services Agreement'): the "
    "instrument's name, not a use of the term",
    pattern=r"\s+(?:Agreement|AGREEMENT|Contract|CONTRACT)s?\b",
    examples=("This Master Services Agreement", "the SUPPLY AGREEMENT"),
    counter=("the Services rendered", "Services agreed in writing"),
)
NOT_USED_WHEN_QUOTED = rule(
    "term.not_used_when_quoted",
    "term",
    "a match in quotation marks ('\"Net Sales\" has the meaning ...'): the term named, not used",
)
NOT_USED_IN_MIXED_CASE = rule(
    "term.not_used_in_mixed_case",
    "term",
    "a match whose capitals follow neither the definition nor lower case ('additional Shares' "
    'for "Additional Shares"): an ordinary word before the term',
)
NOT_USED_INSIDE_A_LONGER_DEFINED_NAME = rule(
    "term.not_used_inside_a_longer_defined_name",
    "term",
    "a match inside a longer phrase the document defines, a term of art or not ('Property' in "
    "'Property Academy', a brand the document names): the longest defined term wins",
)

Match = tuple[int, int, str, Term]  # start, end, term key, definition


def term_uses(
    sections: Sequence[SectionInfo],
    terms: Sequence[Term],
    related_docs: dict[str, set[str]],
    superseded: set[str],
    defined_at: Iterable[tuple[str, str]] = (),
) -> list[Edge]:
    """One uses_term edge per (section, term), to the section that defines the term. Where
    terms overlap, the longest match wins ("Licensed Product Revenue" is not a use of
    "Licensed Product"); a section does not use what it defines (`defined_at`: every
    (section_id, term key) with a definition, besides each term's home)."""
    by_key: dict[str, list[Term]] = {}
    for t in terms:
        by_key.setdefault(t.key, []).append(t)
    defining_docs = {t.doc_id for t in terms}
    defined_in: dict[str, set[str]] = {}
    for section_id, key in [*((t.section_id, t.key) for t in terms), *defined_at]:
        defined_in.setdefault(section_id, set()).add(key)
    patterns: dict[str, re.Pattern[str]] = {}
    vocab: dict[str, dict[str, Term]] = {}
    # the phrases each document defines, terms of art or not: a longer one holds its words
    doc_of = {s.section_id: s.doc_id for s in sections}
    phrases: dict[str, set[str]] = {}
    for section_id, key in defined_at:
        if len(key.split()) > 1 and section_id in doc_of:
            phrases.setdefault(doc_of[section_id], set()).add(key)
    names: dict[str, set[Term]] = {}  # per document, its defined phrases that are no terms
    edges = []
    for s in sections:
        if s.doc_id not in vocab:
            vocab[s.doc_id] = _vocabulary(s.doc_id, by_key, related_docs, superseded, defining_docs)
            names[s.doc_id] = {
                Term(k, k, s.doc_id, "")
                for k in phrases.get(s.doc_id, set()) - set(vocab[s.doc_id])
            }
        if is_contents(s) or is_bibliography(s):
            continue  # a table of contents lists headings, a bibliography titles: no uses
        defined_here = defined_in.get(s.section_id, set())
        edges.extend(_section_uses(s, vocab[s.doc_id], patterns, defined_here, names[s.doc_id]))
    return edges


def annex_name_citations(
    sections: Sequence[SectionInfo], named: Iterable[tuple[Term, SectionInfo]]
) -> list[Edge]:
    """The citations of annexes by the names the document gives them (ANNEX_NAME): for each
    (term, the annex it names), one references edge from each other section of its document
    that uses the term ("as set forth in the SOW") to the annex."""
    by_doc: dict[str, list[SectionInfo]] = {}
    for s in sections:
        by_doc.setdefault(s.doc_id, []).append(s)
    edges = []
    for term, annex in named:
        pattern = term_pattern(term.term)
        for s in by_doc.get(term.doc_id, []):
            if s.section_id in (term.section_id, annex.section_id) or is_contents(s):
                continue
            use = next(
                (m for m in pattern.finditer(s.text) if not _no_use(s.text, *m.span(), term.term)),
                None,
            )
            if use is not None:
                edges.append(
                    ANNEX_NAME.edge(
                        src_doc_id=s.doc_id,
                        src_section_id=s.section_id,
                        matched_text=use.group(0),
                        normalized_target=f"{annex.doc_id} § {annex.label}",
                        dst_doc_id=annex.doc_id,
                        dst_section_id=annex.section_id,
                        position=use.start(),
                    )
                )
    return edges


def _read(s: SectionInfo) -> str:
    """The text a section's term uses are looked for in: its heading is text of the section
    (GRAPH_GOLD.md), put before the text where the text does not open with it ("6.
    LICENSED PRODUCTS" above "(a) ..."), and all there is of a heading-only section
    ("ARTICLE III NORTEL USE OF ENTRUST PRODUCTS")."""
    heading = " ".join(s.heading.split())
    if not s.text.strip():
        return s.heading
    opening = " ".join(s.text[: len(s.heading) + 40].split())
    if not heading or heading == s.label or heading.casefold() in opening.casefold():
        return s.text
    return f"{heading}\n{s.text}"


def _section_uses(
    s: SectionInfo,
    vocab: dict[str, Term],
    patterns: dict[str, re.Pattern[str]],
    defined_here: set[str],
    names: set[Term] = frozenset(),  # type: ignore[assignment]
) -> list[Edge]:
    """The first use of each term in one section, in text order, but of those it defines;
    `names`, the longer phrases the document defines that are no terms of art, hold the words
    they contain (NOT_USED_INSIDE_A_LONGER_DEFINED_NAME) and are no uses themselves."""
    text = _read(s)
    offset = len(text) - len(s.text)
    first: dict[str, tuple[int, str, Term]] = {}
    # the longest match wins an overlap, even where it is then no use; of two terms matching
    # the same words (a document defining "Benefit" and "Benefits"), the one written as found,
    # and a term of art before a name of the same words
    blockers = {t.key: t for t in names}
    furniture = [*contents_spans(text), *filing_legends(text)]  # read once for both
    found = sorted(
        [
            *_matches(text, vocab, patterns, furniture),
            *_matches(text, blockers, patterns, furniture),
        ],
        key=lambda f: (not _as_drafted(text, f), f[3] in names),
    )
    for start, end, key, definition in longest_first(found, lambda f: (f[0], f[1])):
        if definition in names:
            continue
        if key not in first and not _no_use(text, start, end, definition.term):
            first[key] = (start, text[start:end], definition)
    return [
        (USES_OWN_DEFINITION if definition.doc_id == s.doc_id else USES_BORROWED_DEFINITION).edge(
            src_doc_id=s.doc_id,
            src_section_id=s.section_id,
            matched_text=matched,
            normalized_target=key,
            dst_doc_id=definition.doc_id,
            dst_section_id=definition.section_id,
            term=definition.term,
            position=max(0, start - offset),
        )
        for key, (start, matched, definition) in first.items()
        # the section defines it itself
        if definition.section_id != s.section_id and key not in defined_here
    ]


def _matches(
    text: str,
    vocab: dict[str, Term],
    patterns: dict[str, re.Pattern[str]],
    furniture: Sequence[tuple[int, int]],
) -> list[Match]:
    """Every match of every term of the vocabulary, outside `furniture` (the text's contents
    lines and filing legends; `patterns` caches each term's pattern)."""
    found: list[Match] = []
    for key, definition in sorted(vocab.items()):
        if definition.term not in patterns:
            patterns[definition.term] = term_pattern(definition.term)
        for m in patterns[definition.term].finditer(text):
            if not inside(m.start(), furniture):
                found.append((m.start(), m.end(), key, definition))
    return found


def mentioned_in(sections: Sequence[SectionInfo], term: str) -> set[str]:
    """The sections that mention `term` as term uses look for it (`term_pattern`, not quoted,
    outside contents lines): where the term's definition could be brought, edge or not."""
    pattern = term_pattern(term)
    out = set()
    for s in sections:
        text = _read(s)
        furniture = contents_spans(text)
        if any(
            not _quoted(text, m.start(), m.end()) and not inside(m.start(), furniture)
            for m in pattern.finditer(text)
        ):
            out.add(s.section_id)
    return out


def _as_drafted(text: str, match: Match) -> bool:
    """The match reads as its term is written, but for case and a possessive."""
    start, end, _, definition = match
    found = re.sub(r"['’]s?$", "", text[start:end])
    return " ".join(found.split()).casefold() == " ".join(_words(definition.term)).casefold()


def _no_use(text: str, start: int, end: int, term: str) -> bool:
    """A match that is no use of the term: part of a company's, an extension's or an
    instrument's name, in mixed case, or quoted (NOT_USED_*)."""
    return (
        bool(_COMPANY_AFTER.match(text, end))
        or bool(NOT_USED_IN_AN_EXTENSION_NAME.regex.match(text, end))
        or bool(NOT_USED_IN_AN_INSTRUMENT_NAME.regex.match(text, end))
        or _mixed_case(text[start:end], term)
        or _quoted(text, start, end)
    )


# Terms of art decided from the document itself: a definition makes a candidate; how the
# document then uses the term decides it.
NOT_USED_ELSEWHERE = rule(
    "term.not_used_elsewhere",
    "term",
    "a defined term that no section uses outside the sections defining it (as term uses are "
    "found): the document gives no sign it is a term of art, and no reader to bring it to",
)


def used_terms(
    sections: Sequence[SectionInfo],
    terms: Sequence[Term],
    related_docs: dict[str, set[str]],
    superseded: set[str],
    defined_at: Iterable[tuple[str, str]] = (),
) -> list[Term]:
    """The candidate terms of art the documents bear out: used in some section besides those
    that define them (NOT_USED_ELSEWHERE). Uses are found as `term_uses` finds them (a
    multi-word term in any case, GRAPH_GOLD.md), so a term of art is exactly a term that
    brings its definition somewhere."""
    exclusions = use_exclusions(sections, terms, related_docs, superseded, defined_at)
    return [t for t in terms if (t.doc_id, t.key) not in exclusions]


def use_exclusions(
    sections: Sequence[SectionInfo],
    terms: Sequence[Term],
    related_docs: dict[str, set[str]],
    superseded: set[str],
    defined_at: Iterable[tuple[str, str]] = (),
) -> dict[tuple[str, str], Rule]:
    """The rule that keeps each (document, term key) from the terms of art by its uses."""
    texts = {s.section_id: _read(s) for s in sections}
    using: dict[tuple[str, str], list[str]] = {}
    for e in term_uses(sections, terms, related_docs, superseded, defined_at):
        key = (e.dst_doc_id or "", e.normalized_target)
        using.setdefault(key, []).append(texts.get(e.src_section_id or "", ""))
    out: dict[tuple[str, str], Rule] = {}
    for t in terms:
        if not using.get((t.doc_id, t.key)):
            out[(t.doc_id, t.key)] = NOT_USED_ELSEWHERE
    return out
