"""Document-level edges: supersedes (metadata, file names, text), amends (metadata, titles,
text) and effective dates from metadata."""

import re
from collections.abc import Sequence

from raag_assets.graph.model import DocInfo, Edge, SectionInfo
from raag_assets.graph.references import DOC_NAME, Corpus, clean_name, is_doc_name

# "policy-rev-a", "Handbook Rev.B", "terms_v2", "GPL-3", "guide-2024"
_VERSIONED = re.compile(
    r"^(?P<base>.+?)[\s._-]*(?:(?:rev(?:ision)?|version|ver|v)[\s._-]*(?P<rev>[a-z]|\d+(?:\.\d+)*)"
    r"|(?P<num>\d+(?:\.\d+)*))$",
    re.IGNORECASE,
)
_SUPERSEDES_TEXT = re.compile(
    r"\b(?P<verb>supersedes|replaces|is\s+superseded\s+by|is\s+replaced\s+by)\s+the\s+"
    rf"(?P<name>{DOC_NAME})"
)
_AMENDS_TEXT = re.compile(rf"\b(?:amends|supplements|modifies)\s+the\s+(?P<name>{DOC_NAME})")


def _version_key(value: str) -> tuple[int, ...]:
    if value.isalpha():
        return (ord(value.lower()) - ord("a") + 1,)
    return tuple(int(p) for p in value.split("."))


def version_of(name: str) -> tuple[str, tuple[int, ...]] | None:
    """(family, version) from a doc_id or file name: 'policy-rev-a' -> ('policy', (1,))."""
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
    """'replaces the Leave Policy (Rev. A)', 'is superseded by the X', 'Amendment 1 amends
    the Leave Policy (Rev. B)' in a section's text."""
    edges = []
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
