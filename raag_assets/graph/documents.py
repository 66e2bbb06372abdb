"""Document-level edges: supersedes (metadata, file names, text), amends (metadata, titles,
text) and effective dates from metadata."""

import re
import weakref
from collections.abc import Sequence

from raag_assets.core.model import DocInfo, Edge, SectionInfo
from raag_assets.graph.references import DOC_NAME, Corpus, clean_name, is_doc_name

# "policy-rev-a", "Handbook Rev.B", "terms_v2", "GPL-3", "guide-2024"
_VERSIONED = re.compile(
    r"^(?P<base>.+?)[\s._-]*(?:(?:rev(?:ision)?|version|ver|v)[\s._-]*(?P<rev>[a-z]|\d+(?:\.\d+)*)"
    r"|(?P<num>\d+(?:\.\d+)*))$",
    re.IGNORECASE,
)
_SUPERSEDES_TEXT = re.compile(
    r"\b(?P<verb>supersedes|replaces|is\s+superseded\s+by|is\s+replaced\s+by"
    r"|is\s+the\s+successor\s+(?:of|to))\s+the\s+"
    rf"(?P<name>{DOC_NAME})"
)
# "policy_2021-03-03", "Terms 20220601", "report-2024-06": a family dated in its names
_DATED = re.compile(r"^(?P<base>.+?)[\s._-]+(?P<date>(?:19|20)\d{2}(?:[-_.]?\d{2}){0,2})$")
# Header relations of a standard: "Obsoletes: 1730, 2060", "Updates: 2822" (RFC style).
_HEADER_RELATION = re.compile(
    r"\b(?P<kind>Obsoletes|Updates)\s*:\s*(?P<numbers>(?:RFCs?\s*)?\d{1,5}"
    r"(?:\s*(?:,|and|&)\s*(?:RFC\s*)?\d{1,5})*)",
    re.IGNORECASE,
)
_OWN_NUMBER = re.compile(r"\b(?:Request\s+for\s+Comments|RFC)\s*:?\s*(\d{1,5})\b", re.I)
_NUMBERED_ID = re.compile(r"^rfc[\s_-]?(\d{1,5})$", re.IGNORECASE)
# "Second Amendment to the Supply Agreement", "AMENDMENT NO. 2 TO MANUFACTURING AGREEMENT"
_AMENDMENT_TITLE = re.compile(
    r"\b(?i:amendment)(?:\s+(?i:no)\.?\s*\d+)?\s+(?i:to)\s+(?:(?i:the|that\s+certain)\s+)?"
    rf"(?P<name>{DOC_NAME})"
)
# "Section 4.3 of the Services Agreement is hereby amended and restated ..."
_SECTION_AMENDED = re.compile(
    r"\b(?:Section|Article|Clause|Paragraph)\s+(?P<label>\d{1,3}(?:\.\d{1,3})*|[IVXLC]+)"
    rf"(?:\([a-z0-9]+\))*\s+of\s+the\s+(?P<name>{DOC_NAME})\s*,?\s+(?:is|are|shall\s+be)\s+"
    r"(?:hereby\s+)?(?:amended|deleted|replaced|modified|restated|supplemented)"
)
# "This Agreement supersedes all prior agreements ..." (the prior one is found by its title)
_SUPERSEDES_PRIOR = re.compile(
    r"\b(?:supersedes?|replaces?)\s+(?:any\s+and\s+)?all\s+(?:prior|previous|earlier)\s+"
    r"(?:agreements|versions|understandings|contracts|editions)",
    re.IGNORECASE,
)
_TITLE_SCAN = 600  # the title block's opening characters name what a document amends
_AMENDS_TEXT = re.compile(rf"\b(?:amends|supplements|modifies)\s+the\s+(?P<name>{DOC_NAME})")


def _version_key(value: str) -> tuple[int, ...]:
    if value.isalpha():
        return (ord(value.lower()) - ord("a") + 1,)
    return tuple(int(p) for p in value.split("."))


def version_of(name: str) -> tuple[str, tuple[int, ...]] | None:
    """(family, version) from a doc_id or file name: 'policy-rev-a' -> ('policy', (1,)),
    'terms-v10' -> ('terms', (10,)), 'policy_2021-03-03' -> ('policy', (2021, 3, 3))."""
    dated = _DATED.match(name)
    if dated and re.search(r"[^\W\d_]", dated.group("base")):
        base = re.sub(r"[\s._-]+", "-", dated.group("base").lower()).strip("-")
        parts = re.fullmatch(r"(\d{4})[-_.]?(\d{2})?[-_.]?(\d{2})?", dated.group("date"))
        return base, tuple(int(p) for p in parts.groups() if p)  # type: ignore[union-attr]
    m = _VERSIONED.match(name)
    if not m or not re.search(r"[^\W\d_]", m.group("base")):
        return None  # '6157837' is an id, not version 157837 of '6'
    base = re.sub(r"[\s._-]+", "-", m.group("base").lower()).strip("-")
    value = m.group("rev") or m.group("num")
    return base, _version_key(value)


def document_edges(docs: Sequence[DocInfo], corpus: Corpus) -> list[Edge]:
    edges: list[Edge] = []
    ids = {d.doc_id for d in docs}
    for d in docs:
        if d.superseded_by and d.superseded_by in ids:
            edges.append(
                _doc_edge(
                    "supersedes",
                    d.superseded_by,
                    d.doc_id,
                    f"new version of {d.source_name}: {d.superseded_by} > {d.doc_id}",
                    1.0,
                )
            )
        # an earlier version's supersedes/amends metadata is the live version's to assert
        if d.supersedes and d.supersedes in ids and not d.superseded_by:
            edges.append(
                _doc_edge("supersedes", d.doc_id, d.supersedes, f"supersedes: {d.supersedes}", 1.0)
            )
        amends = d.metadata.get("amends")
        if isinstance(amends, str) and amends in ids and not d.superseded_by:
            edges.append(_doc_edge("amends", d.doc_id, amends, f"amends: {amends}", 1.0))
        if d.effective_from:
            edges.append(
                Edge(
                    "effective_on",
                    layer=1,
                    src_doc_id=d.doc_id,
                    src_section_id=None,
                    matched_text=d.effective_evidence
                    or f"effective_from: {d.effective_from.isoformat()}",
                    normalized_target=d.effective_from.isoformat()
                    + (f"/{d.effective_to.isoformat()}" if d.effective_to else ""),
                    confidence=1.0,
                    date_from=d.effective_from,
                    date_to=d.effective_to,
                )
            )
    edges.extend(file_name_versions(docs))
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
            edges.append(
                _doc_edge(
                    "supersedes",
                    new.doc_id,
                    old.doc_id,
                    f"{new.source_name} > {old.source_name}",
                    0.8,
                )
            )
    return edges


def text_document_edges(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'replaces the Leave Policy (Rev. A)', 'is superseded by the X', 'is the successor of
    the X', 'Amendment 1 amends the Leave Policy (Rev. B)', 'Section 4.3 of the Services
    Agreement is hereby amended', header relations of a standard ('Obsoletes: 1730, 2060') and
    an amendment's title ('Second Amendment to the Supply Agreement') in a section's text."""
    edges = [*_header_relations(section, corpus), *_amended_sections(section, corpus)]
    if section.ordinal == 0:
        target = amended_document(section.doc_id, corpus)
        if target:
            edges.append(_doc_edge("amends", section.doc_id, target[0], target[1], target[2]))
    edges.extend(_prior_agreements(section, corpus))
    for m in _SUPERSEDES_TEXT.finditer(section.text):
        name = clean_name(m.group("name"))
        target, conf = corpus.find_doc(name) if is_doc_name(name) else (None, 0)
        if not target or target == section.doc_id:
            continue
        passive = "by" in m.group("verb")
        src, dst = (target, section.doc_id) if passive else (section.doc_id, target)
        edges.append(
            _doc_edge(
                "supersedes",
                src,
                dst,
                m.group(0)[: m.start("name") - m.start() + len(name)],
                0.9 * conf,
                m.start(),
            )
        )
    for m in _AMENDS_TEXT.finditer(section.text):
        name = clean_name(m.group("name"))
        target, conf = corpus.find_doc(name) if is_doc_name(name) else (None, 0)
        if target and target != section.doc_id:
            edges.append(
                _doc_edge(
                    "amends",
                    section.doc_id,
                    target,
                    m.group(0)[: m.start("name") - m.start() + len(name)],
                    0.9 * conf,
                    m.start(),
                )
            )
    return edges


def _doc_edge(
    kind: str, src: str, dst: str, evidence: str, confidence: float, position: int = 0
) -> Edge:
    return Edge(
        kind,
        layer=1,
        src_doc_id=src,
        src_section_id=None,
        matched_text=evidence,
        normalized_target=dst,
        confidence=round(confidence, 3),
        dst_doc_id=dst,
        position=position,
    )


_NUMBERS: "weakref.WeakKeyDictionary[Corpus, dict[str, str]]" = weakref.WeakKeyDictionary()
_AMENDED: "weakref.WeakKeyDictionary[Corpus, dict[str, tuple | None]]" = weakref.WeakKeyDictionary()


def standard_numbers(corpus: Corpus) -> dict[str, str]:
    """Each standard's own number ("Request for Comments: 3501", doc_id "rfc3501") -> doc_id;
    the numbers a document obsoletes or updates are cited by these."""
    if corpus not in _NUMBERS:
        numbers: dict[str, str] = {}
        for doc_id in sorted(corpus.docs):
            own = _NUMBERED_ID.match(doc_id)
            opening = corpus.by_doc.get(doc_id, [])[:1]
            found = own or (_OWN_NUMBER.search(opening[0].text[:_TITLE_SCAN]) if opening else None)
            if found:
                numbers.setdefault(str(int(found.group(1))), doc_id)
        _NUMBERS[corpus] = numbers
    return _NUMBERS[corpus]


def _header_relations(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'Obsoletes: 1730, 2060' -> supersedes each; 'Updates: 2822' -> amends each."""
    if section.ordinal != 0:
        return []  # header relations stand in a standard's title block
    numbers = standard_numbers(corpus)
    edges = []
    for m in _HEADER_RELATION.finditer(section.text[: _TITLE_SCAN * 2]):
        kind = "supersedes" if m.group("kind").lower() == "obsoletes" else "amends"
        for number in re.findall(r"\d{1,5}", m.group("numbers")):
            target = numbers.get(str(int(number)))
            if target and target != section.doc_id:
                edges.append(_doc_edge(kind, section.doc_id, target, m.group(0), 1.0, m.start()))
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
            m = _AMENDMENT_TITLE.search(text)
            name = clean_name(m.group("name")) if m else ""
            target, conf = corpus.find_doc(name) if name and is_doc_name(name) else (None, 0)
            if m and target and target != doc_id:
                evidence = m.group(0)[: m.start("name") - m.start() + len(name)]
                cache[doc_id] = (target, evidence, round(0.9 * conf, 3))
                break
    return cache[doc_id]


def _amended_sections(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'Section 4.3 of the Services Agreement is hereby amended': amends that section. "the
    Agreement" in an amendment is the agreement its title names."""
    edges = []
    for m in _SECTION_AMENDED.finditer(section.text):
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
            Edge(
                "amends",
                layer=1,
                src_doc_id=section.doc_id,
                src_section_id=section.section_id,
                matched_text=m.group(0),
                normalized_target=f"{target} § {found.label}",
                confidence=round(0.9 * conf * label_conf, 3),
                dst_doc_id=target,
                dst_section_id=found.section_id,
                position=m.start(),
            )
        )
    return edges


def _prior_agreements(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'supersedes all prior agreements': the prior one, when present, is a live document of
    the same title that took effect earlier."""
    m = _SUPERSEDES_PRIOR.search(section.text)
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
                _doc_edge("supersedes", doc.doc_id, other.doc_id, m.group(0), 0.7, m.start())
            )
    return edges
