"""Document-level edges: supersedes (metadata, file names, text), amends (metadata, titles,
text) and effective dates from metadata."""

import re
import weakref
from collections.abc import Sequence

from raag_assets.core.model import DocInfo, Edge, SectionInfo
from raag_assets.graph.references import DOC_NAME, Corpus, clean_name, is_doc_name
from raag_assets.graph.rules import Rule, rule

# Relations a document's metadata states (ingest's version chain, front matter).
NEW_VERSION = rule(
    "supersedes.new_version",
    "document",
    "a new version of the same source file supersedes the version it replaced (ingest)",
    edge_type="supersedes",
    confidence=1.0,
)
SUPERSEDES_METADATA = rule(
    "supersedes.metadata",
    "document",
    "'supersedes: <doc_id>' in a document's metadata",
    edge_type="supersedes",
    confidence=1.0,
)
AMENDS_METADATA = rule(
    "amends.metadata",
    "document",
    "'amends: <doc_id>' in a document's metadata",
    edge_type="amends",
    confidence=1.0,
)
EFFECTIVE_METADATA = rule(
    "effective_on.metadata",
    "date",
    "a document's effective period, from its metadata or the effective-date line ingest read",
    edge_type="effective_on",
    confidence=1.0,
)

# "policy-rev-a", "Handbook Rev.B", "terms_v2", "GPL-3", "guide-2024"
VERSIONED_NAME = rule(
    "version_of.versioned_name",
    "document",
    "a family and a revision, version or number at the end of a name ('policy-rev-b', "
    "'terms_v2', 'GPL-3')",
    pattern=r"^(?P<base>.+?)[\s._-]*(?:(?:rev(?:ision)?|version|ver|v)[\s._-]*"
    r"(?P<rev>[a-z]|\d+(?:\.\d+)*)|(?P<num>\d+(?:\.\d+)*))$",
    flags=re.IGNORECASE,
    examples=("travel-policy-rev-b", "terms_v2", "Handbook Version 3.1", "GPL-3"),
    counter=("expenses", "travel policy"),
)
# "policy_2021-03-03", "Terms 20220601", "report-2024-06": a family dated in its names
DATED_NAME = rule(
    "version_of.dated_name",
    "document",
    "a family and a date at the end of a name ('handbook_2023-01-15', 'report-2024-06')",
    pattern=r"^(?P<base>.+?)[\s._-]+(?P<date>(?:19|20)\d{2}(?:[-_.]?\d{2}){0,2})$",
    examples=("handbook_2023-01-15", "report-2024-06", "Terms 20230115"),
    counter=("handbook", "report-v2"),
)
FILE_NAME_VERSION = rule(
    "supersedes.file_name_version",
    "document",
    "within a family of versioned or dated names (version_of.*), each version supersedes the "
    "one before it; an unversioned name equal to the family is its newest member",
    edge_type="supersedes",
    confidence=0.8,
)
SUPERSEDES_TEXT = rule(
    "supersedes.text_verb",
    "document",
    "a named document said to be superseded or replaced ('replaces the X Policy (Rev. A)', 'is "
    "superseded by the X', 'is the successor of the X')",
    edge_type="supersedes",
    confidence=0.9,
    pattern=r"\b(?P<verb>supersedes|replaces|is\s+superseded\s+by|is\s+replaced\s+by"
    r"|is\s+the\s+successor\s+(?:of|to))\s+the\s+"
    rf"(?P<name>{DOC_NAME})",
    examples=(
        "This policy replaces the Travel Policy (Rev. A).",
        "This code is the successor of the Ethics Charter.",
    ),
    counter=("This policy replaces all earlier travel rules.",),
)
# Header relations of a standard: "Obsoletes: 1730, 2060", "Updates: 2822" (RFC style).
_RFC_NUMBERS = r"(?P<numbers>(?:RFCs?\s*)?\d{1,5}(?:\s*(?:,|and|&)\s*(?:RFC\s*)?\d{1,5})*)"
OBSOLETES_HEADER = rule(
    "supersedes.obsoletes_header",
    "document",
    "a standard's header 'Obsoletes: 1234, 2345': it supersedes each standard numbered so",
    edge_type="supersedes",
    confidence=1.0,
    pattern=rf"\bObsoletes\s*:\s*{_RFC_NUMBERS}",
    flags=re.IGNORECASE,
    examples=("Obsoletes: 1234, 2345", "Obsoletes: RFC 1234"),
    counter=("Updates: 1234",),
)
UPDATES_HEADER = rule(
    "amends.updates_header",
    "document",
    "a standard's header 'Updates: 1234': it amends each standard numbered so",
    edge_type="amends",
    confidence=1.0,
    pattern=rf"\bUpdates\s*:\s*{_RFC_NUMBERS}",
    flags=re.IGNORECASE,
    examples=("Updates: 1234 and 2345",),
    counter=("Obsoletes: 1234",),
)
OWN_NUMBER = rule(
    "document.own_number",
    "document",
    "a standard's own number in its opening ('Request for Comments: 1234'): the number its "
    "successors' header relations cite",
    pattern=r"\b(?:Request\s+for\s+Comments|RFC)\s*:?\s*(\d{1,5})\b",
    flags=re.IGNORECASE,
    examples=("Request for Comments: 1234", "RFC 1234"),
    counter=("Comments: 1234",),
)
NUMBERED_ID = rule(
    "document.numbered_id",
    "document",
    "a standard's number in its doc_id ('rfc1234')",
    pattern=r"^rfc[\s_-]?(\d{1,5})$",
    flags=re.IGNORECASE,
    examples=("rfc1234", "RFC-1234"),
    counter=("rfc-notes",),
)
# "Second Amendment to the Supply Agreement", "AMENDMENT NO. 2 TO MANUFACTURING AGREEMENT"
AMENDMENT_TITLE = rule(
    "amends.amendment_title",
    "document",
    "an amendment's title naming the agreement it amends ('Second Amendment to the Supply "
    "Agreement')",
    edge_type="amends",
    confidence=0.9,
    pattern=r"\b(?i:amendment)(?:\s+(?i:no)\.?\s*\d+)?\s+(?i:to)\s+"
    r"(?:(?i:the|that\s+certain)\s+)?"
    rf"(?P<name>{DOC_NAME})",
    examples=("First Amendment to the Lease Agreement", "AMENDMENT NO. 3 TO SERVICES AGREEMENT"),
    counter=("This amendment takes effect today.",),
)
# "Section 4.3 of the Services Agreement is hereby amended and restated ..."
SECTION_AMENDED = rule(
    "amends.section_amended",
    "document",
    "a section of a named agreement declared amended ('Section 4.3 of the Lease Agreement is "
    "hereby amended')",
    edge_type="amends",
    confidence=0.9,
    pattern=r"\b(?:Section|Article|Clause|Paragraph)\s+(?P<label>\d{1,3}(?:\.\d{1,3})*|[IVXLC]+)"
    rf"(?:\([a-z0-9]+\))*\s+of\s+the\s+(?P<name>{DOC_NAME})\s*,?\s+(?:is|are|shall\s+be)\s+"
    r"(?:hereby\s+)?(?:amended|deleted|replaced|modified|restated|supplemented)",
    examples=("Section 2.1 of the Lease Agreement is hereby amended as follows.",),
    counter=("Section 2.1 of the Lease Agreement sets the rent.",),
)
# "This Agreement supersedes all prior agreements ..." (the prior one is found by its title)
SUPERSEDES_PRIOR = rule(
    "supersedes.all_prior",
    "document",
    "'supersedes all prior agreements': a live document of the same title that took effect "
    "earlier is superseded",
    edge_type="supersedes",
    confidence=0.7,
    pattern=r"\b(?:supersedes?|replaces?)\s+(?:any\s+and\s+)?all\s+(?:prior|previous|earlier)\s+"
    r"(?:agreements|versions|understandings|contracts|editions)",
    flags=re.IGNORECASE,
    examples=("This Agreement supersedes all prior agreements between the parties.",),
    counter=("This Agreement supersedes the Letter of Intent.",),
)
_TITLE_SCAN = 600  # the title block's opening characters name what a document amends
AMENDS_TEXT = rule(
    "amends.text_verb",
    "document",
    "a named document said to be amended, supplemented or modified ('amends the X Policy')",
    edge_type="amends",
    confidence=0.9,
    pattern=rf"\b(?:amends|supplements|modifies)\s+the\s+(?P<name>{DOC_NAME})",
    examples=("This notice amends the Travel Policy (Rev. B).",),
    counter=("This notice amends nothing.",),
)


def _scaled(r: Rule, *certainties: float) -> float:
    """The rule's confidence times the certainty of each thing it resolved (a name, a label)."""
    if r.confidence is None:
        raise TypeError(f"rule {r.id} makes no edge")
    confidence = r.confidence
    for c in certainties:
        confidence = confidence * c
    return confidence


def _version_key(value: str) -> tuple[int, ...]:
    if value.isalpha():
        return (ord(value.lower()) - ord("a") + 1,)
    return tuple(int(p) for p in value.split("."))


def version_of(name: str) -> tuple[str, tuple[int, ...]] | None:
    """(family, version) from a doc_id or file name: 'policy-rev-a' -> ('policy', (1,)),
    'terms-v10' -> ('terms', (10,)), 'policy_2021-03-03' -> ('policy', (2021, 3, 3))."""
    dated = DATED_NAME.regex.match(name)
    if dated and re.search(r"[^\W\d_]", dated.group("base")):
        base = re.sub(r"[\s._-]+", "-", dated.group("base").lower()).strip("-")
        parts = re.fullmatch(r"(\d{4})[-_.]?(\d{2})?[-_.]?(\d{2})?", dated.group("date"))
        return base, tuple(int(p) for p in parts.groups() if p)  # type: ignore[union-attr]
    m = VERSIONED_NAME.regex.match(name)
    if not m or not re.search(r"[^\W\d_]", m.group("base")):
        return None  # '6157837' is an id, not version 157837 of '6'
    base = re.sub(r"[\s._-]+", "-", m.group("base").lower()).strip("-")
    value = m.group("rev") or m.group("num")
    return base, _version_key(value)


def document_edges(docs: Sequence[DocInfo], corpus: Corpus) -> list[Edge]:
    """The relations documents' metadata states, then the version families of their names."""
    edges: list[Edge] = []
    ids = {d.doc_id for d in docs}
    for d in docs:
        edges.extend(_metadata_edges(d, ids))
    edges.extend(file_name_versions(docs))
    return edges


def _metadata_edges(d: DocInfo, ids: set[str]) -> list[Edge]:
    edges = []
    if d.superseded_by and d.superseded_by in ids:
        evidence = f"new version of {d.source_name}: {d.superseded_by} > {d.doc_id}"
        edges.append(_doc_edge(NEW_VERSION, d.superseded_by, d.doc_id, evidence))
    # an earlier version's supersedes/amends metadata is the live version's to assert
    if d.supersedes and d.supersedes in ids and not d.superseded_by:
        evidence = f"supersedes: {d.supersedes}"
        edges.append(_doc_edge(SUPERSEDES_METADATA, d.doc_id, d.supersedes, evidence))
    amends = d.metadata.get("amends")
    if isinstance(amends, str) and amends in ids and not d.superseded_by:
        edges.append(_doc_edge(AMENDS_METADATA, d.doc_id, amends, f"amends: {amends}"))
    if d.effective_from:
        edges.append(
            EFFECTIVE_METADATA.edge(
                src_doc_id=d.doc_id,
                src_section_id=None,
                matched_text=d.effective_evidence
                or f"effective_from: {d.effective_from.isoformat()}",
                normalized_target=d.effective_from.isoformat()
                + (f"/{d.effective_to.isoformat()}" if d.effective_to else ""),
                date_from=d.effective_from,
                date_to=d.effective_to,
            )
        )
    return edges


def file_name_versions(docs: Sequence[DocInfo]) -> list[Edge]:
    """Within a family of names ('leave-policy-rev-a', 'leave-policy-rev-b'; 'GPL-2',
    'GPL-3'), each version supersedes the one before it."""
    families: dict[str, list[tuple[tuple[int, ...], DocInfo]]] = {}
    docs = [d for d in docs if d.superseded_by is None]  # earlier versions: see above
    for d in docs:
        found = version_of(d.doc_id)
        if found:
            families.setdefault(found[0], []).append((found[1], d))
    # an unversioned doc_id equal to a family's base is that family's newest member
    for d in docs:
        if version_of(d.doc_id) is None and d.doc_id.lower() in families:
            families[d.doc_id.lower()].append(((10**6,), d))
    edges = []
    for members in families.values():
        members.sort(key=lambda x: (x[0], x[1].doc_id))
        for (_, old), (_, new) in zip(members, members[1:], strict=False):
            evidence = f"{new.source_name} > {old.source_name}"
            edges.append(_doc_edge(FILE_NAME_VERSION, new.doc_id, old.doc_id, evidence))
    return edges


def text_document_edges(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'replaces the Leave Policy (Rev. A)', 'is superseded by the X', 'is the successor of
    the X', 'Amendment 1 amends the Leave Policy (Rev. B)', 'Section 4.3 of the Services
    Agreement is hereby amended', header relations of a standard ('Obsoletes: 1730, 2060') and
    an amendment's title ('Second Amendment to the Supply Agreement') in a section's text."""
    edges = [*_header_relations(section, corpus), *_amended_sections(section, corpus)]
    if section.ordinal == 0:
        amended = amended_document(section.doc_id, corpus)
        if amended:
            target, evidence, confidence = amended
            edges.append(_doc_edge(AMENDMENT_TITLE, section.doc_id, target, evidence, confidence))
    edges.extend(_prior_agreements(section, corpus))
    edges.extend(_named_supersessions(section, corpus))
    for m in AMENDS_TEXT.finditer(section.text):
        name = clean_name(m.group("name"))
        found, conf = corpus.find_doc(name) if is_doc_name(name) else (None, 0)
        if found and found != section.doc_id:
            evidence = m.group(0)[: m.start("name") - m.start() + len(name)]
            confidence = _scaled(AMENDS_TEXT, conf)
            edges.append(
                _doc_edge(AMENDS_TEXT, section.doc_id, found, evidence, confidence, m.start())
            )
    return edges


def _named_supersessions(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'replaces the X', 'is superseded by the X': the active voice supersedes X, the passive
    is superseded by it."""
    edges = []
    for m in SUPERSEDES_TEXT.finditer(section.text):
        name = clean_name(m.group("name"))
        target, conf = corpus.find_doc(name) if is_doc_name(name) else (None, 0)
        if not target or target == section.doc_id:
            continue
        passive = "by" in m.group("verb")
        src, dst = (target, section.doc_id) if passive else (section.doc_id, target)
        evidence = m.group(0)[: m.start("name") - m.start() + len(name)]
        confidence = _scaled(SUPERSEDES_TEXT, conf)
        edges.append(_doc_edge(SUPERSEDES_TEXT, src, dst, evidence, confidence, m.start()))
    return edges


def _doc_edge(
    r: Rule,
    src: str,
    dst: str,
    evidence: str,
    confidence: float | None = None,
    position: int = 0,
) -> Edge:
    """A document-level edge of rule `r`; `confidence` where the rule's is scaled."""
    return r.edge(
        src_doc_id=src,
        src_section_id=None,
        matched_text=evidence,
        normalized_target=dst,
        confidence=round(_scaled(r) if confidence is None else confidence, 3),
        dst_doc_id=dst,
        position=position,
    )


_NUMBERS: "weakref.WeakKeyDictionary[Corpus, dict[str, str]]" = weakref.WeakKeyDictionary()
_AMENDED: "weakref.WeakKeyDictionary[Corpus, dict[str, tuple[str, str, float] | None]]" = (
    weakref.WeakKeyDictionary()
)


def standard_numbers(corpus: Corpus) -> dict[str, str]:
    """Each standard's own number ("Request for Comments: 3501", doc_id "rfc3501") -> doc_id;
    the numbers a document obsoletes or updates are cited by these."""
    if corpus not in _NUMBERS:
        numbers: dict[str, str] = {}
        for doc_id in sorted(corpus.docs):
            own = NUMBERED_ID.regex.match(doc_id)
            opening = corpus.by_doc.get(doc_id, [])[:1]
            found = own or (OWN_NUMBER.search(opening[0].text[:_TITLE_SCAN]) if opening else None)
            if found:
                numbers.setdefault(str(int(found.group(1))), doc_id)
        _NUMBERS[corpus] = numbers
    return _NUMBERS[corpus]


def _header_relations(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'Obsoletes: 1730, 2060' -> supersedes each; 'Updates: 2822' -> amends each."""
    if section.ordinal != 0:
        return []  # header relations stand in a standard's title block
    numbers = standard_numbers(corpus)
    head = section.text[: _TITLE_SCAN * 2]
    found = [(m, r) for r in (OBSOLETES_HEADER, UPDATES_HEADER) for m in r.finditer(head)]
    edges = []
    for m, r in sorted(found, key=lambda mr: mr[0].start()):  # in the header's order
        for number in re.findall(r"\d{1,5}", m.group("numbers")):
            target = numbers.get(str(int(number)))
            if target and target != section.doc_id:
                edges.append(_doc_edge(r, section.doc_id, target, m.group(0), position=m.start()))
    return edges


def amended_document(doc_id: str, corpus: Corpus) -> tuple[str, str, float] | None:
    """The agreement an amendment names in its title: (doc_id, evidence, confidence)."""
    cache = _AMENDED.setdefault(corpus, {})
    if doc_id not in cache:
        cache[doc_id] = None
        doc = corpus.docs.get(doc_id)
        opening = corpus.by_doc.get(doc_id, [])[:1]
        texts = [(doc.title or "") if doc else ""]
        texts += [f"{opening[0].heading} {opening[0].text[:_TITLE_SCAN]}"] if opening else []
        for text in texts:
            m = AMENDMENT_TITLE.search(text)
            name = clean_name(m.group("name")) if m else ""
            target, conf = corpus.find_doc(name) if name and is_doc_name(name) else (None, 0)
            if m and target and target != doc_id:
                evidence = m.group(0)[: m.start("name") - m.start() + len(name)]
                cache[doc_id] = (target, evidence, round(_scaled(AMENDMENT_TITLE, conf), 3))
                break
    return cache[doc_id]


def _amended_sections(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'Section 4.3 of the Services Agreement is hereby amended': amends that section. "the
    Agreement" in an amendment is the agreement its title names."""
    edges = []
    for m in SECTION_AMENDED.finditer(section.text):
        name = clean_name(m.group("name"))
        target, conf = corpus.find_doc(name) if is_doc_name(name) else (None, 0.0)
        if target is None and (amended := amended_document(section.doc_id, corpus)):
            target, conf = amended[0], amended[2]
        if not target or target == section.doc_id:
            continue
        label = m.group("label")
        if not label[0].isdigit():
            label = f"Article {label}"
        found, label_conf = corpus.find_label(target, label)
        if found is None:
            continue
        edges.append(
            SECTION_AMENDED.edge(
                src_doc_id=section.doc_id,
                src_section_id=section.section_id,
                matched_text=m.group(0),
                normalized_target=f"{target} § {found.label}",
                confidence=round(_scaled(SECTION_AMENDED, conf, label_conf), 3),
                dst_doc_id=target,
                dst_section_id=found.section_id,
                position=m.start(),
            )
        )
    return edges


def _prior_agreements(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'supersedes all prior agreements': the prior one, when present, is a live document of
    the same title that took effect earlier."""
    m = SUPERSEDES_PRIOR.search(section.text)
    doc = corpus.docs.get(section.doc_id)
    if not m or doc is None or not doc.title or not doc.effective_from:
        return []
    title = re.sub(r"\W+", " ", doc.title).strip().lower()
    edges = []
    for other in corpus.docs.values():
        if (
            other.doc_id != doc.doc_id
            and other.title
            and re.sub(r"\W+", " ", other.title).strip().lower() == title
            and other.effective_from
            and other.effective_from < doc.effective_from
        ):
            edges.append(
                _doc_edge(
                    SUPERSEDES_PRIOR, doc.doc_id, other.doc_id, m.group(0), position=m.start()
                )
            )
    return edges
