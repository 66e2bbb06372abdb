"""The `edges` stage as one pure function: Layers 1 and 2 over a tenant's sections, one
document at a time, so a document that fails is reported and the rest of the graph is built."""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from raag_assets.core.model import FRONT_LABEL, DocInfo, Edge, SectionInfo, Term, Unresolved, dedupe
from raag_assets.graph import nlp as layer2
from raag_assets.graph.dates import date_edges, term_anchors
from raag_assets.graph.definitions import (
    DEFINED_ELSEWHERE,
    definition_text,
    definitions,
    quotes_names,
)
from raag_assets.graph.documents import document_edges, text_document_edges
from raag_assets.graph.protocol import TYPE_ENTRY, type_definitions
from raag_assets.graph.references import (
    DOC_NAME,
    Corpus,
    Mention,
    annex_named,
    find_mentions,
    is_contents,
)
from raag_assets.graph.relations import resolve, section_edges
from raag_assets.graph.scopes import scope_edges
from raag_assets.graph.standards import (
    cites_another_document,
    example_date,
    is_standard,
    protocol_definition,
    quoted_heading_citations,
    standard_edges,
    standard_term,
)
from raag_assets.graph.steps import step_mentions, step_sequences
from raag_assets.graph.terms import (
    annex_name_citations,
    distinctive,
    introduced_names,
    is_pointer,
    names_a_party,
    party_names,
    used_terms,
)
from raag_assets.graph.topics import heading_topics, text_topics

Parse = Callable[[list[str]], list]  # texts -> spaCy Docs, in order
Layer1 = tuple[list[Edge], list[Unresolved], list[tuple[int, int, Mention]]]


@dataclass
class Extraction:
    edges: list[Edge] = field(default_factory=list)
    parked: list[Unresolved] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)
    topics: dict[str, list[str]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)  # doc_id -> reason


def extract(docs: Sequence[DocInfo], sections: Sequence[SectionInfo], parse: Parse) -> Extraction:
    """The graph of live documents and their sections; earlier versions of changed documents
    (in `docs`, without sections) only get the supersedes edge from the version after them."""
    out = Extraction()
    by_doc: dict[str, list[SectionInfo]] = {}
    for s in sections:
        by_doc.setdefault(s.doc_id, []).append(s)
    docs = titled(docs, sections)
    live = [d for d in docs if d.superseded_by is None]
    draft = Corpus(live, sections)
    doc_level = document_edges(docs, draft)
    for s in sections:
        doc_level.extend(text_document_edges(s, draft))
    superseded = {e.dst_doc_id for e in doc_level if e.edge_type == "supersedes" and e.dst_doc_id}
    corpus = Corpus(live, sections, superseded)
    section_level: list[Edge] = []
    first: dict[str, list[Layer1]] = {}
    for doc in live:
        try:
            secs = by_doc.get(doc.doc_id, [])
            quoted = quotes_names(secs)
            first[doc.doc_id] = [layer1(s, corpus, quoted) for s in secs]
        except Exception as exc:  # one bad document must not cost the tenant its graph
            out.errors[doc.doc_id] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    # only the sentences Layer 2 reads are parsed (nlp.windows), all in one call
    parts = {
        s.section_id: layer2.windows(s, made)
        for d, l1 in first.items()
        for s, (made, _, _) in zip(by_doc.get(d, []), l1, strict=True)
    }
    parsed = _parse_all([s for d in first for s in by_doc.get(d, [])], parts, parse)
    for doc in live:
        if doc.doc_id not in first:
            continue
        secs = by_doc.get(doc.doc_id, [])
        try:
            windows = parsed if parsed is not None else _parse_parts(secs, parts, parse)
            edges, parked, topics = _document(secs, first[doc.doc_id], windows, corpus)
        except Exception as exc:  # one bad document must not cost the tenant its graph
            out.errors[doc.doc_id] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            continue
        if is_standard(secs):  # RFC-style documents: their own citation and definition forms
            by_id = {s.section_id: s for s in secs}
            edges = [
                e
                for e in edges
                if not cites_another_document(e, by_id[e.src_section_id or ""])
                and not protocol_definition(e, by_id[e.src_section_id or ""])
                and not example_date(e, by_id[e.src_section_id or ""])
            ]
            edges.extend(standard_edges(secs))
        edges.extend(quoted_heading_citations(secs))
        section_level.extend(edges)
        out.parked.extend(parked)
        out.topics.update(topics)
    ok = [s for s in sections if s.doc_id not in out.errors]
    # an index entry pointing at the real definition ('"Net Sales" has the meaning set forth
    # in Section 4.2') is a citation (a references edge), not a definition
    section_level = [
        e
        for e in section_level
        if e.edge_type != "defines" or not _points_inside(e, _definition_body(e, corpus), corpus)
    ]
    section_level = _first_borrowed(section_level, corpus)
    out.edges = dedupe([*doc_level, *section_level, *step_sequences(ok)])
    out.terms = borne_out(terms_of_art(out.edges, corpus), out.edges, ok)
    annexes = _named_annexes(out.edges, corpus)
    named = [(t, annexes[(t.doc_id, t.key)]) for t in out.terms if (t.doc_id, t.key) in annexes]
    out.edges = dedupe([*out.edges, *annex_name_citations(ok, named)])
    return out


def _annex_names(edges: Sequence[Edge], corpus: Corpus) -> dict[tuple[str, str], str]:
    """(document, term key) -> the annex the definition names ('the Statement of Work
    ("SOW") that is attached hereto as Appendix A' -> "Appendix A"; references.ANNEX_NAME)."""
    out: dict[tuple[str, str], str] = {}
    for e in edges:
        if e.edge_type != "defines" or e.src_section_id is None:
            continue
        text = definition_text(_source(e, corpus))
        end = e.position + len(e.matched_text)
        if e.matched_text.startswith("("):  # '(the "SOW")': the phrase may follow it
            end = text.find(")", e.position) + 1 or end
        elif e.term and (at := text.find(e.term, e.position)) >= 0:  # '"SOW" means ...'
            end = at + len(e.term) + 1  # past its closing quote
        label = annex_named(text[max(0, e.position - 150) : e.position], text[end : end + 150])
        if label:
            out.setdefault((e.src_doc_id, e.normalized_target), label)
    return out


def _named_annexes(edges: Sequence[Edge], corpus: Corpus) -> dict[tuple[str, str], SectionInfo]:
    """The annexes present in their documents that a definition names (_annex_names)."""
    out = {}
    for (doc_id, key), label in _annex_names(edges, corpus).items():
        if (annex := corpus.labels.get(doc_id, {}).get(label.casefold())) is not None:
            out[(doc_id, key)] = annex
    return out


def _first_borrowed(edges: list[Edge], corpus: Corpus) -> list[Edge]:
    """A term borrowed from another document ('the Common Stock (as defined in the Purchase
    Agreement)') is defined where the document first borrows it, and only when the document
    does not define it itself: its later mentions, and a borrowing of a term of its own, are
    uses of the term."""
    own = {  # in either number: 'Affiliates (as defined in ...)' where "Affiliate" is defined
        (e.src_doc_id, _singular(e.normalized_target))
        for e in edges
        if e.edge_type == "defines" and e.rule != DEFINED_ELSEWHERE.id
    }
    borrowed = sorted(
        (e for e in edges if e.rule == DEFINED_ELSEWHERE.id),
        key=lambda e: (_source(e, corpus).ordinal, e.position),
    )
    first: dict[tuple[str, str], Edge] = {}
    for e in borrowed:
        first.setdefault((e.src_doc_id, e.normalized_target), e)
    keep = {id(e) for (doc, key), e in first.items() if (doc, _singular(key)) not in own}
    return [e for e in edges if e.rule != DEFINED_ELSEWHERE.id or id(e) in keep]


def _singular(key: str) -> str:
    return key[:-1] if key.endswith("s") and not key.endswith("ss") else key


def borne_out(
    terms: Sequence[Term], edges: Sequence[Edge], sections: Sequence[SectionInfo]
) -> list[Term]:
    """The candidate terms of art that the documents' own use bears out (terms.used_terms):
    judged with the same documents cited, versions superseded and definitions as term uses."""
    cited: dict[str, set[str]] = {}
    for e in edges:
        if e.edge_type == "references" and e.dst_doc_id and e.dst_doc_id != e.src_doc_id:
            cited.setdefault(e.src_doc_id, set()).add(e.dst_doc_id)
    superseded = {e.dst_doc_id or "" for e in edges if e.edge_type == "supersedes"}
    defined_at = [
        (e.src_section_id or "", e.normalized_target) for e in edges if e.edge_type == "defines"
    ]
    return used_terms(sections, terms, cited, superseded - {""}, defined_at)


def _points_inside(e: Edge, body: str, corpus: Corpus) -> bool:
    """A pointer to a part present in the corpus ('has the meaning set forth in Section 2.01').
    A pointer to a schedule the filing leaves out is the only place that fixes the term for
    this document, so it stays a definition (NOTES-review convention 1)."""
    if not is_pointer(body):
        return False
    section = _source(e, corpus)
    mentions = [m for m in find_mentions(body[:160]) if m.kind == "labels"]
    return not mentions or bool(resolve(mentions[0], section, corpus)[0])


def titled(docs: Sequence[DocInfo], sections: Sequence[SectionInfo]) -> list[DocInfo]:
    by_doc: dict[str, list[SectionInfo]] = {}
    for s in sections:
        by_doc.setdefault(s.doc_id, []).append(s)
    return [with_title(d, by_doc.get(d.doc_id, [])) for d in docs]


def with_title(doc: DocInfo, sections: Sequence[SectionInfo]) -> DocInfo:
    """A document without a title in its metadata is named by its opening heading, so "the GNU
    GPL" can find a licence file that has no metadata."""
    if doc.title or not sections or sections[0].level != 1:
        return doc
    first = sections[0]
    if first.label in (FRONT_LABEL, first.heading):
        return replace(doc, title=first.heading)
    return doc


def _parse_all(
    sections: Sequence[SectionInfo], parts: dict[str, list[tuple[int, int]]], parse: Parse
) -> dict[str, list[tuple[int, object]]] | None:
    """Every section's parts parsed in one call (spaCy batches across documents); None when
    some text cannot be parsed, so the caller parses document by document and only the bad
    one fails."""
    try:
        return _parse_parts(sections, parts, parse)
    except Exception:  # noqa: BLE001 - retried per document, where the error is recorded
        return None


def _parse_parts(
    sections: Sequence[SectionInfo], parts: dict[str, list[tuple[int, int]]], parse: Parse
) -> dict[str, list[tuple[int, object]]]:
    """The parts of the sections' texts Layer 2 reads (`parts`: offsets per section), parsed:
    (offset, Doc) per section, in text order."""
    wanted = [(s, span) for s in sections for span in parts[s.section_id]]
    docs = parse([s.text[a:b] for s, (a, b) in wanted])
    out: dict[str, list[tuple[int, object]]] = {s.section_id: [] for s in sections}
    for (s, (a, _)), doc in zip(wanted, docs, strict=True):
        out[s.section_id].append((a, doc))
    return out


def layer1(
    section: SectionInfo, corpus: Corpus, quoted: bool = True
) -> tuple[list[Edge], list[Unresolved], list[tuple[int, int, Mention]]]:
    """Layer 1 for one section, by family: citations and their cues, definitions, dates,
    scopes, step mentions. Also returns each mention with its sentence span, for Layer 2.
    `quoted`: whether its document marks names with quotation marks (`quotes_names`)."""
    if is_contents(section):
        return definitions(section, quoted), [], []  # a table of contents cites nothing
    edges, parked, mentions = section_edges(section, corpus)
    edges.extend(definitions(section, quoted))
    edges.extend(type_definitions(section))
    edges.extend(date_edges(section, term_anchors(corpus.docs.get(section.doc_id))))
    edges.extend(scope_edges(section))
    edges.extend(step_mentions(section, corpus))
    return edges, parked, mentions


def _document(
    sections: Sequence[SectionInfo],
    first: Sequence[Layer1],
    parsed: dict[str, list[tuple[int, object]]],
    corpus: Corpus,
) -> tuple[list[Edge], list[Unresolved], dict[str, list[str]]]:
    edges: list[Edge] = []
    parked: list[Unresolved] = []
    topics: dict[str, list[str]] = {}
    for section, (l1, unresolved, mentions) in zip(sections, first, strict=True):
        edges.extend(l1)
        edges.extend(layer2.layer2(section, parsed[section.section_id], corpus, mentions, l1))
        parked.extend(unresolved)
        heading = [] if section.heading == section.label else heading_topics(section.heading)
        topics[section.section_id] = list(dict.fromkeys([*heading, *text_topics(section.text)]))
    return edges, parked, topics


_DOC_ALIAS = re.compile(
    rf"\s*(?:refers\s+to|(?:shall\s+)?means?)\s+(?:version\s+[\d.]+\s+of\s+)?the\s+"
    rf"(?P<name>{DOC_NAME})",
    re.IGNORECASE,
)


def _source(e: Edge, corpus: Corpus) -> SectionInfo:
    """The section a section-level edge (a definition, a citation) comes from."""
    if e.src_section_id is None:
        raise ValueError(f"a {e.edge_type} edge of {e.src_doc_id} has no source section")
    return corpus.by_id[e.src_section_id]


def _definition_body(e: Edge, corpus: Corpus) -> str:
    """What a `defines` edge's term is said to mean: the text after the quoted term."""
    term = e.term or ""
    text = definition_text(_source(e, corpus))  # where the edge's position counts
    at = text.find(term, e.position)
    body = text[at + len(term) :][:500].lstrip("”\"’').:; ") if at >= 0 else ""
    body = re.sub(r"^or\s+[^.;:]{1,40}[.:]\s*", "", body)  # "Commission or SEC. The ..."
    # the other terms of a list given one meaning ('"Authority" and "Authorities" means')
    # (joined by "and" / "or" / a comma: a bare quoted term next is the next definition)
    alias = r"[“\"][^“”\"\n]{1,60}[”\"]"
    return re.sub(rf"^(?:\s*,?\s*(?:and|or)\s+{alias}|\s*,\s*{alias})+\s*", "", body)


# A numbered section's label: a number, or a keyword and a number ("Section 2"); not a name
# that holds a number ("Amendment No. 3 to the Supply Agreement", a title heading the preamble).
_NUMBERED = re.compile(r"(?:(?:Article|Section|Clause|Part)\s+)?\d")
_FIRST_NUMBER = re.compile(r"(?:Article\s+|Section\s+)?(?:1|I)(?:\.1)?$")


def _front_end(secs: Sequence[SectionInfo]) -> int:
    """Where a document's front matter ends: at its first numbered section (_NUMBERED); but where a
    table of contents' last entry became a section before the body's "1" ("9 Miscellaneous 13"
    heading the preamble that follows the contents), at the first of the sections numbered 1
    among the first four."""
    numbered = next((i for i, s in enumerate(secs) if _NUMBERED.match(s.label)), None)
    if numbered is None:
        return len(secs)
    first = next((i for i, s in enumerate(secs[:4]) if _FIRST_NUMBER.match(s.label)), None)
    return first if first is not None and first > numbered else numbered


_ANNEX_LABEL = re.compile(r"(?:Exhibit|Schedule|Annex|Appendix|Attachment)\b", re.IGNORECASE)
_OWN_PREAMBLE = re.compile(
    r"\b(?i:this)\s+(?:[A-Z][\w&'’-]*\s+){1,6}\(?[^.]{0,400}?\b(?:by\s+and\s+)?between\b"
)


def terms_of_art(edges: Sequence[Edge], corpus: Corpus) -> list[Term]:
    """The first definition of each term per document, kept when the term is distinctive
    (terms.distinctive): only those are looked for in use."""
    parties: dict[str, set[str]] = {}
    for doc_id, secs in corpus.by_doc.items():
        # the parties are introduced before the first numbered section (title, preamble,
        # recitals, a table of contents between them)
        front = [s.text[:20000] for s in secs[: _front_end(secs)]]
        front_text = "\n\n".join(front or [secs[0].text[:20000]])
        parties[doc_id] = party_names(front_text) | introduced_names(front_text)
        if not parties[doc_id] and _front_end(secs) < len(secs):
            # none there: a contents entry that opened the first numbered section swallowed
            # the preamble ('1. Power of Attorney 17 ... THIS AGREEMENT is made ... BETWEEN')
            parties[doc_id] = party_names(secs[_front_end(secs)].text[:3000])
        # an attached instrument with a preamble of its own ('EXHIBIT B ... This PATENT
        # ASSIGNMENT is made by and between Acme LLC ("Assignor") and ...') names its parties
        for s in secs:
            if _ANNEX_LABEL.match(s.label) and _OWN_PREAMBLE.search(s.text[:1500]):
                parties[doc_id] |= party_names(s.text[:3000])
    defines = sorted(
        (e for e in edges if e.edge_type == "defines"),
        key=lambda e: (e.src_doc_id, _source(e, corpus).ordinal, e.position),
    )
    standards = {d for d, secs in corpus.by_doc.items() if is_standard(secs)}
    sites: dict[tuple[str, str], list[tuple[Edge, str, str]]] = {}  # (edge, body, evidence)
    for e in defines:
        text = definition_text(_source(e, corpus))
        body = _definition_body(e, corpus)
        evidence = text[max(0, e.position - 4) : e.position + len(e.matched_text) + 40]
        sites.setdefault((e.src_doc_id, e.normalized_target), []).append((e, body, evidence))
    # A party's short name may be defined through another ("Grantee" means either Entrust or
    # Nortel; "Entrust" means ETI and its Subsidiaries): grow each document's parties to a
    # fixed point.
    changed = True
    while changed:
        changed = False
        for (doc_id, _), defs in sites.items():
            e, body, _ = defs[0]
            doc_parties = parties.setdefault(doc_id, set())
            term = e.term or ""
            single = len(term.split()) == 1
            if single and term not in doc_parties and names_a_party(body, doc_parties):
                doc_parties.add(term)
                changed = True
    texts = {d: "\n\n".join(s.text for s in secs) for d, secs in corpus.by_doc.items()}
    annexes = _annex_names(edges, corpus)
    out = []
    for (doc_id, key), defs in sites.items():
        # the term's home is its substantive definition, not an index entry pointing at it
        # ('"Confidential Information" has the meaning specified in Section 8.02')
        # Where a word is defined both in lower case and capitalised ('A "library" means a
        # collection of functions ... The "Library" refers to any such library ... under
        # these terms'), the capitalised one is the term of art: single words match by case
        # Where a term is both labelled in passing ('the course "Academy" ("Course")') and
        # defined in full ('"Course" means the course developed ...'), the full definition is
        # its home and what it is judged by.
        substantive = [d for d in defs if not is_pointer(d[1])] or defs[:1]
        e, body, evidence = min(
            substantive,
            key=lambda d: ((d[0].term or "").islower(), d[0].matched_text.startswith("(")),
        )
        in_passing = e.matched_text.startswith("(")
        term = e.term or ""
        doc_terms = [d[0][0].term or "" for (d_id, _), d in sites.items() if d_id == doc_id]
        alias = _DOC_ALIAS.match(body)
        if alias and corpus.find_doc(alias.group("name"))[0] not in (None, doc_id):
            continue  # '"GNU GPL" refers to the GNU General Public License': a document's name
        text = definition_text(_source(e, corpus))
        before = text[max(0, e.position - 300) : e.position] if in_passing else ""
        # a standard's terms of art are judged by its own forms (standards.standard_term)
        doc_parties = parties.get(doc_id, set())
        # a type a protocol's Types section lists is a term of art by its form ("DAMAGE  32-bit
        # value" is the type, no acronym naming a body): protocol.TYPE_ENTRY
        # a name the document gives one of its annexes points at a part of it, whatever its
        # form (an acronym, "the Confidentiality Agreement"): a term of art (ANNEX_NAME)
        if (
            e.rule == TYPE_ENTRY.id
            or (doc_id, key) in annexes
            or (
                standard_term(term, e.matched_text)
                if doc_id in standards
                else distinctive(
                    term, evidence, doc_parties, body, doc_terms, in_passing, before, texts[doc_id]
                )
            )
        ):
            out.append(Term(key, e.term or "", doc_id, e.src_section_id or ""))
    return out
