"""Terms of art and where they are used.

`defines` keeps every definition; a term becomes a term of art (stored in `terms`, and a
`uses_term` edge wherever it is used) only when its definition changes what the words mean
to a reader (GRAPH_GOLD.md): not pronouns, not the parties' short names, not the document
naming itself, not verbs or ordinary words that a drafter chose to define. Distinctiveness is
judged from the term, its definition and the corpus, never from a list of our documents'
words.
"""

import re
from collections.abc import Iterable, Sequence

from raag_assets.core.model import Edge, SectionInfo, Term
from raag_assets.graph.keys import term_key
from raag_assets.graph.references import contents_spans, is_contents
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


def is_pointer(body: str) -> bool:
    """A definition that only points at another part of the document: 'has the meaning
    specified in Section 8.02', 'as defined in Article 4'."""
    return bool(
        re.match(
            r"\s*(?:shall\s+)?(?:ha(?:s|ve)\s+the\s+meanings?|is\s+defined|as\s+defined)\b"
            r"[^.;]{0,40}?\b(?:in|under|by)\s+(?:Section|Article|Clause|Schedule|Exhibit|"
            r"Paragraph|§|the\s+(?:preamble|recitals?)\b)",
            body,
            re.IGNORECASE,
        )
    )


# How a party is introduced before its short name: "ACME LIMITED, a Canadian corporation
# (...)", "Acme, a company organized under the laws of ..., with registered office at ...
# (...)", "Acme Inc. (...)".
_COMPANY_FORMS = (
    r"corporation|company|incorporated|inc|ltd|limited|llc|llp|lp|plc|gmbh|ag|sa|s\.a|n\.v|"
    r"b\.v|partnership|association|trust|bank|university|individual|organi[sz]ation|entity"
)
_COMPANY_SUFFIX = r"(?:inc|incorporated|ltd|limited|llc|llp|plc|gmbh|ag|corp|corporation)\.?"
_PARTY_INTRO = re.compile(
    rf",\s+(?:a|an)\s+[^()]{{0,60}}?\b(?i:{_COMPANY_FORMS})\b[^()]*$"
    rf"|\b(?i:{_COMPANY_FORMS})\.?\s*,?\s*$"
)


def party_names(front_text: str) -> set[str]:
    """Short names the parties are given where they are introduced: 'NORTHERN TELECOM
    LIMITED, a Canadian corporation ("NTL")', 'Redwater LLC (the "Contractor")', ("Licensee")."""
    out = set()
    for m in re.finditer(r"\((?P<inner>[^()]{1,160})\)", front_text):
        before = front_text[max(0, m.start() - 300) : m.start()]
        before = re.split(r"\n\s*\n|\)", before)[-1]  # back to the paragraph or the last party
        if not _PARTY_INTRO.search(before):
            continue
        for q in re.finditer(r"[“\"](?P<name>[^“”\"]{1,40})[”\"]", m.group("inner")):
            name = " ".join(q.group("name").split())
            out |= {name, " ".join(_words(name))}
    return out


def names_a_party(body: str, parties: set[str]) -> bool:
    """A definition that points at a party: 'shall mean ETI and all Subsidiaries thereof',
    'means either NTL or ETI'."""
    m = re.match(
        r"\s*(?:(?:shall\s+)?means?|refers?\s+to)\s+(?:either\s+)?(?:the\s+)?"
        r"(?P<first>[A-Z][\w.&-]*)",
        body,
    )
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
_OUTSIDE_POINTER = re.compile(
    r"^\s*(?:shall\s+)?ha(?:s|ve)\s+the\s+meanings?\b[^.;]{0,40}?\b(?:in|under|by)\s+(?:the\s+)?"
    r"[A-Z][\w]*(?:\s+[A-Z][\w]*)*\s+(?:Act|Code|Law|Regulations?|Rules?|Treaty|Directive)\b"
)


# Nouns that name a separate instrument, not a concept of this one: "the Separation
# Agreement", "the Indenture", "the Prospectus".
_INSTRUMENT_NOUNS = r"agreements?|indentures?|contracts?|prospectus(?:es)?|deeds?"
_INSTRUMENT_BODY = re.compile(
    rf"^\s*(?:(?:shall\s+)?means?\s+)?(?:that\s+certain\b|(?:the|an?|each)\s+"
    rf"(?:[\w-]+\s+){{0,3}}?(?:{_INSTRUMENT_NOUNS}|registration\s+statement|license\s+agreement)\b)",
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
    if len(words) > 1 and re.fullmatch(_INSTRUMENT_NOUNS, words[-1], re.IGNORECASE):
        return True
    if len(words) == 1 and re.fullmatch(r"indenture|prospectus", words[0], re.IGNORECASE):
        return True
    return bool(_INSTRUMENT_BODY.match(body) or _FORM_BEFORE.search(before))


# A role a party plays ('"Receiving Party" means each Party in its capacity as the recipient
# ...'): the parties under another name, read the same without the definition.
_PARTY_ROLE = re.compile(r"^\s*(?:shall\s+)?means?\s+(?:each|either|any|the|a)\s+Party\b")
# A single word for a class of persons ('Investor. Any person who purchases Notes', 'Holder.
# The registered owner of any Note'): who someone is, not a coined thing.
# A qualifier may stand between "means" and the head ('"Affiliate" means, with respect to any
# person, any other person that controls ...'): the head is what follows it.
_PERSON_HEAD = re.compile(
    r"^\s*(?:(?:shall\s+)?means?\s*,?\s+)?"
    r"(?:(?:with\s+respect\s+to|in\s+relation\s+to|as\s+to)\s[^,;:]{1,80},\s+)?"
    r"(?:\((?:[ivx]{1,4}|[a-z]|\d{1,2})\)\s*)?"  # an item marker: '(i) the employees, ...'
    r"(?i:the|a|an|any|each|every|all)?\s*(?:[a-z-]+\s+){0,2}?"
    r"(?:persons?|individuals?|owners?|holders?|purchasers?|entity|entities|employees|officers|"
    r"directors|agents|representatives|personnel)\b"
)


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
    `doc_text`: the document's text, to see how consistently it capitalises a word.
    """
    words = _words(term)
    if not words or not any(c.isalpha() for c in term):
        return False
    folded = [w.casefold() for w in words]
    if len(words) == 1 and folded[0] in _PRONOUNS:
        return False
    if is_self_reference(term) and not (len(words) == 1 and _CLASS_BODY.match(body)):
        # '"Document" refers to any such manual or work' names the works a licence covers,
        # not the licence naming itself
        return False
    if term in parties or " ".join(words) in parties or folded in (["party"], ["parties"]):
        return False  # the parties, by their short names or as "Party"
    if definition_is_verbal(evidence, term):
        return False
    if len(words) > 1 and re.fullmatch(_COMPANY_SUFFIX, words[-1], re.IGNORECASE):
        return False  # "Acme Inc": a company's name
    if in_passing and len(words) > 1 and _labels_own_words(words, before):
        # 'the common stock of the Company ("Common Stock")': a label for the ordinary words
        # just written, as '"Board of Directors" means the board of directors of X'
        return False
    if _SELF_CONTEMPLATED.match(body):
        return False  # '"Transactions" means the transactions contemplated by this Agreement'
    if tautological(term, body) and not _recast(words, body, doc_terms, parties, doc_text):
        # '"Board of Directors" means the board of directors of X' reads the same without
        # it; '"Intellectual Property Rights" means all intellectual property rights in (i)
        # Patents, (ii) Trademarks ...' is recast in the document's own terms, a term of art;
        # so is a word narrowed to this document's own things ('"Product" means each product
        # identified in a Statement of Work ... under this Agreement')
        return False
    if names_instrument(term, body, before if in_passing else ""):
        return False
    if re.fullmatch(r"part(?:y|ies)", folded[-1]) and _PARTY_ROLE.match(body):
        return False  # "Receiving Party": each Party in one of its roles, not a third party
    if len(words) > 1 and words[-1] in ("Act", "Statute", "Directive"):
        # a statute's short name ("Securities Exchange Act"); not "Code", which also ends
        # coined terms ("Corresponding Application Code")
        return False
    if len(words) > 1:
        # a phrase of adverbs/participles ("normally used", "knowingly relying") reads as
        # ordinary English: a noun phrase ends in a noun, not a -ly/-ed/-ing word or a particle
        last = folded[-1]
        if last in ("on", "in", "to", "of", "by", "with", "for") or (
            re.fullmatch(r"\w+(?:ly|ed|ing)", folded[0]) and re.fullmatch(r"\w+(?:ed|ing)", last)
        ):
            return False
        if re.match(rf"The\s+(?:[A-Z][\w.&-]*\s+|of\s+|and\s+)*{re.escape(words[-1])}\b", body):
            return False  # 'Securities Act. The Securities Act of 1933': a name shortened
        if body[:1].isupper() and _names_entity(body):
            return False  # 'Paying Agent. Bank, National Association': a party's name
        if " ".join(words[1:]).islower():
            # a lower-case phrase ("covered work", "source code") is coined when its definition
            # builds on the document's other terms ("either the unmodified Program or ...")
            return _mentions_terms(_first_sentence(body), doc_terms, term)
        return True
    word = words[0]
    if word.islower():
        return False  # a lower-case single word defined: an ordinary word given a meaning
    if word.isupper() and len(word) <= 6:
        # an acronym is a name (party, body, statute) unless its definition opens with a
        # common noun and builds on the document's own terms: '"PPV" means the difference
        # between the price for a Product Unit ...' abbreviates a concept of this document
        # ('"SEC" means the Securities and Exchange Commission' stays a name, '"GAAP" means
        # generally accepted accounting principles' a concept from outside)
        return bool(_CONCEPT_BODY.match(body)) and _mentions_terms(
            _first_sentence(body), doc_terms, term
        )
    if in_passing:
        return True
    if _enumerates(body):
        return False  # '"Technology" means Software, documentation, designs, ...': a category
    return not (_names_entity(body) or _OUTSIDE_POINTER.match(body) or _PERSON_HEAD.match(body))


# A definition that only points back at the document ("the transactions contemplated by this
# Agreement", "the matters contemplated hereby"): the ordinary words, read the same without it.
_SELF_CONTEMPLATED = re.compile(
    r"^\s*(?:(?:shall\s+)?means?\s+)?(?:the|all|any)\s+(?:[a-z-]+\s+){0,2}?[a-z-]+\s+"
    r"(?:contemplated|described|referred\s+to)\s+(?:by|in|under)?\s*"
    r"(?:this\s+(?:Agreement|Contract|License|Licence|Deed)|hereby|herein|hereunder)\s*[.;]"
)


def _labels_own_words(words: list[str], before: str) -> bool:
    """The words of a term defined in passing stand, in lower case, just before its
    parenthesis ('the common stock of the Company ("Common Stock")')."""
    phrase = r"\s+".join([*(re.escape(w.lower()) for w in words[:-1]), _plural(words[-1].lower())])
    tail = " ".join(before.split()[-12:])
    return bool(re.search(rf"(?<![\w-]){phrase}(?![\w-])", tail))


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
    not "product"); a multi-word term in any case, with plurals and possessives; lower-case
    single words also with verb endings."""
    words = _words(term) or term.split()
    *head, last = words
    # a lower-case word may be a verb defined ("convey"); a phrase is a noun phrase, whose last
    # word takes no verb endings ("authorization grant" is not in "authorization granted")
    verb = not head and last.islower() and last.isalpha()
    last_re = _inflected(last) if verb else _plural(last)
    body = r"\s+".join([*(re.escape(w) for w in head), last_re])
    body = body.replace(r"\-", r"-\s?")  # "Sub- Section": a hyphenated word broken at a line end
    single_cap = len(words) == 1 and not words[0].islower()
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
    return _bound_to_document(words[0], body, doc_text)


def _bound_to_document(word: str, body: str, doc_text: str) -> bool:
    """A capitalised word whose definition repeats it in lower case is still a term of art
    when the definition narrows it to this document's own things ('"Product" means each
    product identified in ... a Statement of Work ... under this Agreement', '"Program"
    refers to any such program', "such" pointing back at a stated condition) and the
    document writes it capitalised in most of its uses, so a reader can tell the term from
    the ordinary word."""
    sentence = _first_sentence(body)
    such = re.search(rf"\bsuch\s+{_plural(word.lower())}\b", sentence)
    if not (such or _THIS_DOCUMENT.search(sentence)):
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
    a document that defines nothing itself borrows the tenant's (preferring live versions)."""
    out: dict[str, Term] = {}
    cited = related.get(doc_id, set())
    for key, defs in by_key.items():
        own = [t for t in defs if t.doc_id == doc_id]
        pool = own or [t for t in defs if t.doc_id in cited]
        if not pool and doc_id not in defining_docs:
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
_FILING_LEGEND = re.compile(
    r"\bfiled\s+separately\s+with\s+the\s+(?:Securities\s+and\s+Exchange\s+)?Commission\b"
    r"[^.\n]{0,80}\.?|\bconfidential\s+treatment\s+(?:has\s+been\s+|was\s+|is\s+)?requested\b"
    r"[^.\n]{0,120}\.?",
    re.IGNORECASE,
)
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
    edges = []
    for s in sections:
        if s.doc_id not in vocab:
            vocab[s.doc_id] = _vocabulary(s.doc_id, by_key, related_docs, superseded, defining_docs)
        if is_contents(s) or is_bibliography(s):
            continue  # a table of contents lists headings, a bibliography titles: no uses
        # a heading-only section ("ARTICLE III NORTEL USE OF ENTRUST PRODUCTS") uses terms in
        # its heading
        text = s.text if s.text.strip() else s.heading
        offset = len(text) - len(s.text)
        contents = [*contents_spans(text), *filing_legends(text)]
        found: list[tuple[int, int, str, Term]] = []
        for key, definition in sorted(vocab[s.doc_id].items()):
            if definition.term not in patterns:
                patterns[definition.term] = term_pattern(definition.term)
            for m in patterns[definition.term].finditer(text):
                if not any(a <= m.start() < b for a, b in contents):
                    found.append((m.start(), m.end(), key, definition))
        taken: list[tuple[int, int]] = []
        used: dict[str, tuple[int, str, Term]] = {}
        for start, end, key, definition in sorted(found, key=lambda x: (x[0] - x[1], x[0])):
            if any(start < b and a < end for a, b in taken):
                continue  # inside a longer term
            taken.append((start, end))
            if _COMPANY_AFTER.match(text, end) or _mixed_case(text[start:end], definition.term):
                continue
            if _quoted(text, start, end):
                continue  # '"Net Sales" has the meaning ...': the term named, not used
            if key not in used or start < used[key][0]:
                used[key] = (start, text[start:end], definition)
        for key, (start, matched, definition) in sorted(used.items(), key=lambda x: x[1][0]):
            if definition.section_id == s.section_id or key in defined_in.get(s.section_id, ()):
                continue  # the section defines it itself
            edges.append(
                Edge(
                    "uses_term",
                    layer=1,
                    src_doc_id=s.doc_id,
                    src_section_id=s.section_id,
                    matched_text=matched,
                    normalized_target=key,
                    confidence=1.0 if definition.doc_id == s.doc_id else 0.9,
                    dst_doc_id=definition.doc_id,
                    dst_section_id=definition.section_id,
                    term=definition.term,
                    position=max(0, start - offset),
                )
            )
    return edges
