"""Query analysis (before retrieval): `#tag` becomes a tag filter, "in document X" a
document filter, whitespace is normalised; a query that names its document ("the Supply
Agreement between Acme Corp and Beta LLC", "under RFC 3501") is resolved to it by the
names it uses (proper nouns, numbers, dates) against each document's title, id, file name
and opening (where parties and dates are stated)."""

import functools
import math
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from raag_assets.core.errors import InvalidFilter
from raag_assets.core.model import DocInfo
from raag_assets.graph.references import Corpus
from raag_assets.retrieval import names as naming

_TAG = re.compile(r"(?<![\w#&])#([A-Za-z0-9][\w-]{0,63})")
# A quoted name runs to its closing quote (a doc_id may hold a comma: "Acme, Inc. - Supply").
_DOC = re.compile(
    r"\bin\s+(?:the\s+)?(?:document|doc)\s+(?:[\"“](?P<quoted>[^\"”]+)[\"”]"
    r"|'?(?P<name>[^\"'”,;?!]+?)'?\s*(?=$|[,;?!.]))",
    re.IGNORECASE,
)


# A capitalised word not opening a sentence, an acronym, or a number: the words that name.
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'’.-]*[A-Za-z0-9]|[A-Za-z0-9]")
_SENTENCE_START = re.compile(r"(?:^|[.;:?!(\[\"“]\s*)$")
_SPLIT = re.compile(r"[^a-z0-9]+|(?<=[a-z])(?=[0-9])|(?<=[0-9])(?=[a-z])")
# A query names a document only when it speaks of one: a kind of document ("the Supply
# Agreement", "RFC 3501", "the Leave Policy"). Without that, capitalised words are topics (a
# gene, a place), which retrieval handles; a claim about "CX3CR1" names no document.
_DOC_KIND = re.compile(
    r"\b(?:agreements?|contracts?|licen[cs]es?|polic(?:y|ies)|rfcs?|handbooks?|manuals?"
    r"|amendments?|addend(?:um|a)|terms|guidelines?|regulations?|specifications?|memorand(?:um|a)"
    r"|leases?|deeds?|charters?|statutes?|treat(?:y|ies)|documents?)\b",
    re.IGNORECASE,
)
MIN_COVERAGE = 0.6  # share of the query's naming weight a document must carry
MIN_LEAD = 0.15  # ... and by how much it must lead the next document
FUZZY_WORD = 90  # rapidfuzz ratio for a long name word to count as present ("Honeywel")
NEAR_WORDS = 10_000  # long naming words whose near spellings an index keeps


@dataclass(frozen=True)
class DocDescriptor:
    """What a document can be named by: its id, title, file name, metadata values and the
    opening of its text (title block, parties, date)."""

    doc_id: str
    names: str
    title: str = ""

    @property
    def own_name(self) -> str:
        """What names the document itself (its id and title), not its opening's words."""
        return f"{self.doc_id} {self.title}"


@dataclass(frozen=True)
class DocumentResolution:
    doc_ids: tuple[str, ...]
    words: tuple[str, ...]  # the query's naming words the document carries
    coverage: float  # their share of all the query's naming weight
    rest: str = ""  # the query without those words: what is asked of the document

    def as_dict(self) -> dict[str, object]:
        return {
            "doc_ids": list(self.doc_ids),
            "words": list(self.words),
            "coverage": round(self.coverage, 3),
            "query": self.rest,
        }


@dataclass(frozen=True)
class QueryAnalysis:
    query: str  # what is searched for, filters removed
    tags: tuple[str, ...]
    doc_ids: tuple[str, ...]
    named: DocumentResolution | None = None  # the document the query names, if any

    @property
    def asked(self) -> str:
        """What is asked: with a named document, the query without its name words (the
        document is a filter now)."""
        return self.named.rest if self.named else self.query


def naming_words(query: str) -> list[str]:
    """The words of a query that can name a document: capitalised words that do not open a
    sentence, words in capitals, and numbers of three or more digits; lowercased, each once."""
    out: list[str] = []
    for m in _WORD.finditer(query):
        word = m.group(0)
        opens = bool(_SENTENCE_START.search(query[: m.start()]))
        # numbers of 3+ digits (RFC 3501, 2019); shorter ones are mostly clause numbers
        naming = sum(ch.isdigit() for ch in word) >= 3 or (
            word[0].isupper() and (not opens or (len(word) > 1 and word.isupper()))
        )
        if naming and len(word) > 1:
            for part in _SPLIT.split(word.lower()):
                if part and part not in out:
                    out.append(part)
    return out


@dataclass(frozen=True)
class NameIndex:
    """A tenant's documents with the words each is named by, built once per set of documents
    (`reads.Reads.names` keeps it while the documents are unchanged): a query over a tenant of
    thousands of documents then costs a look-up per naming word, not every document's
    vocabulary rebuilt and every vocabulary fuzzily scanned."""

    docs: tuple[DocDescriptor, ...]
    vocab: tuple[frozenset[str], ...]  # all a document is named by: id, title, file, opening
    own: tuple[frozenset[str], ...]  # its own name: id, title and the title's acronyms
    postings: dict[str, tuple[int, ...]]  # word -> the documents whose vocabulary holds it
    near: dict[str, frozenset[int]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, docs: Sequence[DocDescriptor]) -> "NameIndex":
        own = tuple(frozenset(_own_vocabulary(d)) for d in docs)
        vocab = tuple(frozenset(_vocabulary(d.names)) | o for d, o in zip(docs, own, strict=True))
        postings: dict[str, list[int]] = {}
        for i, v in enumerate(vocab):
            for w in v:
                postings.setdefault(w, []).append(i)
        return cls(tuple(docs), vocab, own, {w: tuple(d) for w, d in postings.items()})

    @functools.cached_property
    def own_words(self) -> frozenset[str]:
        return frozenset().union(*self.own)

    def holds_version(self, name: str, version: naming.Version) -> bool:
        """Whether a document of `version` has `name` in its own name (id, title)."""
        return any(v == version and name in o for v, o in zip(self.versions, self.own, strict=True))

    @functools.cached_property
    def called_words(self) -> frozenset[str]:
        """The words a document is called by on their own: its id's and its title's acronyms
        ('GPL' of GPL-3, 'MPL' of the Mozilla Public License), not any word of its title."""
        return frozenset().union(
            *(_vocabulary(d.doc_id) | naming.acronyms(d.title) for d in self.docs)
        )

    @functools.cached_property
    def versions(self) -> tuple[naming.Version | None, ...]:
        return tuple(naming.document_version(d.doc_id, d.names, d.title) for d in self.docs)

    def carrying(self, word: str) -> set[int]:
        """The documents whose vocabulary holds `word`, or, for a long word, a near spelling
        of it ("Honeywel"): the fuzzy match runs once over all the tenant's words."""
        if len(word) < 5 or word.isdigit():
            return set(self.postings.get(word, ()))
        if word not in self.near:  # the index is kept across queries: so are its look-ups
            if len(self.near) >= NEAR_WORDS:  # a long-running server sees ever new words
                self.near.clear()
            found = process.extract(
                word, list(self.postings), scorer=fuzz.ratio, score_cutoff=FUZZY_WORD, limit=None
            )
            self.near[word] = frozenset(i for w, _, _ in found for i in self.postings[w])
        return set(self.near[word])


def resolve_document(
    query: str, docs: Sequence[DocDescriptor] | NameIndex
) -> DocumentResolution | None:
    """The document(s) a query names (it must speak of a kind of document, a version or a
    document's own acronym): the one carrying most of the weight of its naming words (each
    weighted by how few documents carry it), clearly ahead of the next; several only when they
    tie. A version the query names ("GPLv2", "LGPL 2.1") picks that version among the
    documents its words fit; a family named without one ("the GPL") gets its latest version.
    None when nothing matches well."""
    query = naming.spaced_versions(query)
    index = docs if isinstance(docs, NameIndex) else NameIndex.of(docs)
    n = len(index.docs)
    if n < 2:
        return None
    versions = naming.query_versions(query, index.own_words, index.holds_version)
    words = _naming_words_for(query, index.own_words, bool(versions))
    if not words or not _speaks_of_a_document(query, words, versions, index.called_words):
        return None
    carriers = {w: index.carrying(w) for w in words}
    carried = [{w for w in words if i in carriers[w]} for i in range(n)]
    df = {w: len(carriers[w]) for w in words}
    weight = {w: math.log(1 + n / df[w]) if df[w] else 0.0 for w in words}
    total = sum(math.log(1 + n) if df[w] == 0 else weight[w] for w in words)
    if total <= 0:
        return None
    scores = [sum(weight[w] for w in c) / total for c in carried]
    # a word of the document's own name (id, title, its acronym) is stronger evidence than
    # the same word in its opening: 'GPL' names GPL-2, not the LGPL that mentions the GPL
    ranking = [
        s + sum(weight[w] for w in c if w in o) / total
        for s, c, o in zip(scores, carried, index.own, strict=True)
    ]
    chosen = (
        _by_version(index, ranking, versions)
        if versions
        else _latest_of_family(
            index, _best(index.docs, scores, ranking) or _by_acronym(query, index.own)
        )
    )
    if not chosen:
        return None
    matched = tuple(w for w in words if w in carried[chosen[0]])
    found = tuple(sorted(index.docs[i].doc_id for i in chosen))
    title = set().union(*(index.own[i] for i in chosen))
    rest = without_words(query, set(matched), title)
    return DocumentResolution(found, matched, scores[chosen[0]], rest)


def _vocabulary(text: str) -> set[str]:
    return (set(_SPLIT.split(text.lower())) - {""}) | naming.ordinal_tokens(text)


def _own_vocabulary(d: DocDescriptor) -> set[str]:
    return _vocabulary(d.own_name) | naming.acronyms(d.title)


def _naming_words_for(query: str, own: Collection[str], versioned: bool) -> list[str]:
    """The query's naming words, its ordinals ('Amendment No. 2'), and a capitalised word
    opening a sentence when it is a word of some document's own name ('Apache License 2.0:
    ...'); a sentence's first word is otherwise an ordinary word. Where the query names a
    version ("revision A of the leave policy"), any word of a document's own name counts:
    the version says a document is meant, the words say which."""
    words = naming_words(query)
    for m in _WORD.finditer(query):
        word = m.group(0).lower()
        owned = word in own and len(word) > 1 and word not in naming.SMALL
        if (versioned or m.group(0)[0].isupper()) and owned and word not in words:
            words.append(word)
    words.extend(sorted(naming.ordinal_tokens(query) - set(words)))
    return words


def _speaks_of_a_document(
    query: str, words: Sequence[str], versions: set[naming.Version], called: Collection[str]
) -> bool:
    """A kind of document ("the Supply Agreement"), a version ("GPLv2") or, in capitals, what
    a document is called by (`called`: ids and title acronyms: "under the MPL"); otherwise
    capitalised words are topics, a word of a title among them: "RNA" or "PGE2" in a claim is
    what it is about, not the paper whose title holds it."""
    if _DOC_KIND.search(query) or versions:
        return True
    capitals = _capitals(query, 1)
    return any(w in capitals and w in called for w in words)


def _capitals(query: str, shortest: int) -> set[str]:
    """The parts of the query's words written in capitals ('GPL', 'CC0' -> 'cc', '0'), each
    at least `shortest` characters long."""
    return {
        part
        for m in _WORD.finditer(query)
        if m.group(0).isupper() and len(m.group(0)) >= shortest
        for part in _SPLIT.split(m.group(0).lower())
        if len(part) >= shortest
    }


def _best(
    docs: Sequence[DocDescriptor], scores: Sequence[float], ranking: Sequence[float]
) -> list[int]:
    """The documents ranking first (naming weight carried, own-name words counted twice),
    clearly ahead of the next (up to three that tie); none when the best carries too little
    of the weight (`scores`: each word once)."""
    ranked = sorted(range(len(docs)), key=lambda i: (-ranking[i], docs[i].doc_id))
    best = ranking[ranked[0]]
    if min(1.0, best) < MIN_COVERAGE:  # own-name words count twice here too
        return []
    tied = [i for i in ranked if ranking[i] >= best - 1e-9]
    following = next((ranking[i] for i in ranked if ranking[i] < best - 1e-9), 0.0)
    if best - following < MIN_LEAD or len(tied) > 3:
        return []
    return tied


def _by_acronym(query: str, own: Sequence[frozenset[str]]) -> list[int]:
    """The documents whose own name holds a word the query writes in capitals ('under the
    GFDL'), when they are few (one document, or up to three versions of one): an acronym a
    document is named by speaks for it even among words it does not carry."""
    capitals = _capitals(query, 3)
    found = [i for i, o in enumerate(own) if capitals & o]
    return found if 0 < len(found) <= 3 else []


def _by_version(
    index: NameIndex, scores: Sequence[float], versions: set[naming.Version]
) -> list[int]:
    """Among the documents of a version the query names, those its words fit best; none
    when no document of that version carries any of its naming words."""
    docs = index.docs
    of_version = [i for i, v in enumerate(index.versions) if v in versions]
    if not of_version:
        return _best(docs, scores, scores)
    best = max(scores[i] for i in of_version)
    if best <= 0:
        return []
    return sorted((i for i in of_version if scores[i] >= best - 1e-9), key=lambda i: docs[i].doc_id)


def _latest_of_family(index: NameIndex, tied: list[int]) -> list[int]:
    """Several versions of one document named without a version ('the GPL'): the latest. Other
    ties (two contracts the words fit equally) stay."""
    if len(tied) < 2:
        return tied
    versions = [index.versions[i] for i in tied]
    if any(v is None for v in versions) or len(set(versions)) < len(versions):
        return tied
    return [max(zip(versions, tied, strict=True))[1]]


def might_name_a_document(query: str) -> bool:
    """Worth reading the tenant's document names for: a version, or naming words with a kind
    of document or a word in capitals among them."""
    query = naming.spaced_versions(query)
    if naming.query_versions(query):  # "revision A of the leave policy": no capitals needed
        return True
    if naming.numbered_names(query):  # "with git 2.36": the names say if 'git' is one
        return True
    if not naming_words(query):
        return False
    return bool(
        _DOC_KIND.search(query)
        or any(m.group(0).isupper() and len(m.group(0)) > 1 for m in _WORD.finditer(query))
    )


def without_words(query: str, words: set[str], title: Collection[str] = ()) -> str:
    """The query with the words that named the document taken out: once the document is
    chosen they would only pull in its title block and signature page. With the document's
    own name words (`title`), the whole phrase that names it goes: a run of words of its name
    (small words between) around a naming word, so 'the Software license and maintenance
    agreement between ...' loses 'license', 'maintenance' and 'agreement' too, which
    otherwise draw the passages of its Maintenance section to every question about it; the
    same words elsewhere in the query (what is asked) stay."""
    found = list(_WORD.finditer(query))
    drop = _naming_phrases(query, found, words, set(title))
    asked_from = _after_framing_clause(query, found, drop)
    if asked_from is not None:  # the question alone, the framing clause gone with its marks
        return " ".join(query[asked_from:].split())
    kept = []
    last = 0
    for n, m in enumerate(found):
        kept.append(query[last : m.start()])
        if n not in drop:
            kept.append(m.group(0))
        last = m.end()
    kept.append(query[last:])
    rest = " ".join("".join(kept).split())
    return rest if re.search(r"[A-Za-z0-9]", rest) else query


# What ends a phrase naming a document: a clause or sentence break ("...Inc.; which law",
# "... Policy. What"), not the stop of an abbreviation ("Inc. and").
_PHRASE_BREAK = re.compile(r"[;:?!]|\.\s+(?=[A-Z])")


FRAMING_WORDS = 3  # words other than the name a clause that only frames it may hold


def _after_framing_clause(query: str, found: Sequence[re.Match[str]], drop: set[int]) -> int | None:
    """Where the question starts after an opening clause that only frames the name
    ('Consider the Supply Agreement between Acme and Beta; what is the term?'): a first clause
    holding naming words and few others (at most FRAMING_WORDS, or half as many as the words
    naming: 'between Dassault Systemes and/or certain affiliates of Dassault Systems and
    PlanetCAD Inc.'; a single letter, as of 'd/b/a', is none), when a later clause that names
    nothing asks the question (ends in '?'). The later clause names the document only where it
    writes a naming word as a name (a capital or a digit: 'may Summa assign it?'); the same
    word in small letters is what is asked ('the intellectual property created under the
    Intellectual Property Agreement', 'a right of first refusal' under the 'Form Of Franchise
    Agreement'). A first clause saying more ('Under GPLv2, I want to ship binaries only.
    What must I offer?') is part of what is asked. What is left of a framing clause ('Consider
    between') asks nothing, and its words ('consider') would match the document's 'in
    consideration of' before what is asked."""
    breaks = list(_PHRASE_BREAK.finditer(query))
    if not breaks:
        return None
    end = breaks[0].end()
    first = {n for n, m in enumerate(found) if m.start() < end}
    later = [n for n in range(len(found)) if n not in first]
    names_later = any(n in drop and _written_as_name(found[n].group(0)) for n in later)
    asks = query.rstrip().endswith("?") and later and not names_later
    left = [
        n
        for n in first - drop
        if len(found[n].group(0)) > 1 and found[n].group(0).lower() not in naming.SMALL
    ]
    few = len(left) <= max(FRAMING_WORDS, len(first & drop) // 2)
    return end if first & drop and asks and few else None


def _written_as_name(word: str) -> bool:
    """A word written as a name is: with a capital or a digit ('Summa', 'GPLv2', '3501')."""
    return any(ch.isupper() or ch.isdigit() for ch in word)


def _naming_phrases(
    query: str, found: Sequence[re.Match[str]], words: set[str], title: set[str]
) -> set[int]:
    """The indexes (in `found`) of the words that name the document: each naming word, and
    with `title`, every word of a run holding one whose words are all naming words, words of
    the document's own name or small words, unbroken by a clause break."""
    kinds = []
    for m in found:
        parts = [p for p in _SPLIT.split(m.group(0).lower()) if p]
        if parts and all(p in words for p in parts):
            kinds.append("naming")
        elif parts and all(p in title or p in naming.SMALL for p in parts):
            kinds.append("name")
        else:
            kinds.append("")
    drop = {n for n, kind in enumerate(kinds) if kind == "naming"}
    if not title:
        return drop
    run: list[int] = []
    for n, kind in enumerate([*kinds, ""]):
        broken = (
            bool(run)
            and n < len(found)
            and bool(_PHRASE_BREAK.search(query, found[run[-1]].end(), found[n].start()))
        )
        if kind and not broken:
            run.append(n)
            continue
        if any(kinds[i] == "naming" for i in run):
            drop.update(run)
        run = [n] if kind else []
    return drop


def analyze(
    query: str,
    docs: Sequence[DocInfo] | Callable[[], Sequence[DocInfo] | Corpus],
    descriptors: Callable[[], Sequence[DocDescriptor] | NameIndex] | None = None,
) -> QueryAnalysis:
    """`docs` may be a callable: the tenant's documents are only needed for "in document".
    `descriptors` (read only when the query has naming words) resolves a named document."""
    tags = tuple(dict.fromkeys(m.group(1) for m in _TAG.finditer(query)))
    text = _TAG.sub(" ", query)
    doc_ids = _document_filters(list(_DOC.finditer(text)), docs)
    text = _DOC.sub(" ", text)
    clean = " ".join(text.split())
    if not clean:
        raise InvalidFilter("query is empty once #tags and 'in document' are taken out")
    named = None
    if not doc_ids and descriptors is not None and might_name_a_document(clean):
        named = resolve_document(clean, descriptors())
    return QueryAnalysis(clean, tags, tuple(dict.fromkeys(doc_ids)), named)


def _document_filters(
    mentions: list[re.Match[str]],
    docs: Sequence[DocInfo] | Callable[[], Sequence[DocInfo] | Corpus],
) -> list[str]:
    """The document each "in document X" names: by id, else as a citation would name it."""
    if not mentions:
        return []
    listed = docs() if callable(docs) else docs
    corpus = listed if isinstance(listed, Corpus) else Corpus(listed, [])
    doc_ids: list[str] = []
    for m in mentions:
        name = (m.group("quoted") or m.group("name")).strip()
        doc_id = next((d for d in corpus.docs if d.casefold() == name.casefold()), None)
        if doc_id is None:
            doc_id, _ = corpus.find_doc(name)
        if doc_id is None:
            raise InvalidFilter(
                f"no document matching {name!r} in this tenant (from 'in document')"
            )
        doc_ids.append(doc_id)
    return doc_ids
