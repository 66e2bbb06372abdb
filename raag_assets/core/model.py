"""The records every layer shares: a parsed document and its lines, sections and documents as
extraction sees them, edges, terms, parked references. Plain frozen dataclasses, no logic
beyond identity and order."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from raag_assets.core.identity import sha256_hex

# The label of everything before a document's first heading (GRAPH_GOLD.md).
FRONT_LABEL = "Title"

EdgeType = Literal[
    "references",
    "overrides",
    "supersedes",
    "amends",
    "defines",
    "uses_term",
    "depends_on",
    "precedes",
    "applies_to",
    "effective_on",
    "topically_related",
    "applies_to_scope",
]
EDGE_TYPES: tuple[EdgeType, ...] = get_args(EdgeType)


@dataclass(frozen=True)
class SectionInfo:
    section_id: str
    doc_id: str
    ordinal: int
    label: str
    heading: str
    level: int
    parent_id: str | None
    text: str


@dataclass(frozen=True)
class DocInfo:
    doc_id: str
    source_name: str
    title: str | None = None
    doc_type: str | None = None
    authority_level: int | None = None
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    supersedes: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    superseded_by: str | None = None  # set on an earlier version of a changed document
    effective_evidence: str | None = None  # the phrase that states effective_from


@dataclass(frozen=True)
class Edge:
    """One typed relationship with its provenance.

    The source is a section, or a whole document when `src_section_id` is None. The target is
    one of: a section (`dst_section_id`), a document (`dst_doc_id` only), a term, a date range
    or a scope.
    """

    edge_type: str
    layer: int
    src_doc_id: str
    src_section_id: str | None
    matched_text: str
    normalized_target: str
    confidence: float
    dst_doc_id: str | None = None
    dst_section_id: str | None = None
    term: str | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    scope: str | None = None
    raw_target: str | None = None  # as written, when the stored target was corrected
    condition: str | None = None
    position: int = 0  # character offset of the evidence in the source section
    rule: str = ""  # the id of the extraction rule that made it (graph/rules.py)

    def target_key(self) -> tuple[str, ...]:
        return (
            self.dst_doc_id or "",
            self.dst_section_id or "",
            self.term or "",
            self.date_from.isoformat() if self.date_from else "",
            self.date_to.isoformat() if self.date_to else "",
            self.scope or "",
        )


@dataclass(frozen=True)
class Unresolved:
    """A reference that no layer could resolve yet, parked with its reason."""

    src_doc_id: str
    src_section_id: str
    matched_text: str
    normalized_target: str  # "4.2", "HR Handbook", "4.2 of the HR Handbook"
    target_doc: str | None  # the document named, if any
    target_label: str | None  # the section label named, if any
    reason: str
    position: int = 0
    kind: str = "labels"  # what was cited: "labels" | "document" | "named_section"
    candidates: tuple[tuple[str, float], ...] = ()  # Layer 3: (section_id, similarity), best first


def dedupe(edges: Iterable[Edge]) -> list[Edge]:
    """One edge per (type, source, target): the lowest layer, then highest confidence, wins;
    earlier evidence breaks ties."""
    best: dict[tuple, Edge] = {}
    for e in edges:
        key = (e.edge_type, e.src_doc_id, e.src_section_id or "", *e.target_key())
        kept = best.get(key)
        if kept is None or (e.layer, -e.confidence, e.position) < (
            kept.layer,
            -kept.confidence,
            kept.position,
        ):
            best[key] = e
    return list(best.values())


def ordered(edges: Iterable[Edge], section_order: dict[str, int]) -> list[Edge]:
    """Deterministic order: by source (documents before their sections, in document order),
    then evidence position, edge type, target."""
    type_rank: dict[str, int] = {t: i for i, t in enumerate(EDGE_TYPES)}
    return sorted(
        edges,
        key=lambda e: (
            e.src_doc_id,
            section_order.get(e.src_section_id, -1) if e.src_section_id else -1,
            e.position,
            type_rank[e.edge_type],
            e.target_key(),
            e.matched_text,
        ),
    )


def edge_id(e: Edge) -> str:
    return sha256_hex(
        e.edge_type, e.src_doc_id, e.src_section_id or "", *e.target_key(), e.normalized_target
    )[:24]


@dataclass(frozen=True)
class EffectiveDate:
    """A date a document states for itself, the phrase that states it, and how much of the
    date the text gives: "day", "month" (the 1st is stored) or "year" (1 January is stored).
    `kind` is what the date is (CUAD's two categories): "effective", the date it takes effect
    ("effective as of", a defined Effective Date, metadata's effective_from), or "agreement",
    the date it is dated, made or entered into ("dated as of", a date line)."""

    date: dt.date
    evidence: str
    precision: str
    kind: str = "effective"


@dataclass(frozen=True)
class Line:
    """One line of a document as laid out: normalised text, and for PDFs page and font.

    `start`/`end` locate the line's text (without surrounding whitespace) in the document's
    raw text: for text and Markdown the file as `open(path).read()` gives it (front matter
    and BOM included, newlines universal), for PDFs the extracted text (pages joined by form
    feeds). Lines made up by parsing (paragraph breaks) have none. `indent` is the columns of
    whitespace before a plain-text line (tabs to 8; None where unknown: PDFs, split lines):
    a plain-text standard sets its headings flush left and indents the blocks inside them."""

    text: str
    page: int | None = None
    size: float | None = None
    bold: bool = False
    start: int | None = None
    end: int | None = None
    indent: int | None = None
    # exactly where each character lies in [start, end): normalize.Shifts; None: proportional
    shifts: tuple[tuple[int, int], ...] | None = None


@dataclass(frozen=True)
class DocMeta:
    doc_id: str
    title: str | None = None
    doc_type: str | None = None
    authority_level: int | None = None
    tags: tuple[str, ...] = ()
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    supersedes: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # the parties as the text introduces them ("Birch First Global Investments Inc."), when
    # its metadata names none
    parties: tuple[str, ...] = ()

    def metadata(self) -> dict[str, Any]:
        """Top-level metadata that retrieval filters match by equality."""
        out: dict[str, Any] = dict(self.extra)
        if self.parties:
            out["parties"] = list(self.parties)
        for key in ("doc_type", "authority_level", "supersedes"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        for key in ("effective_from", "effective_to"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key).isoformat()
        return out


@dataclass(frozen=True)
class ParsedDocument:
    source_name: str
    format: str  # "pdf" | "markdown" | "text"
    meta: DocMeta
    raw_text: str
    lines: tuple[Line, ...]
    page_count: int | None
    content_hash: str
    effective: EffectiveDate | None = None  # declared in metadata, else stated in the text
    # the date it is dated, made or entered into, when the text states one ("dated as of")
    agreement: EffectiveDate | None = None

    @property
    def effective_from(self) -> dt.date | None:
        return self.effective.date if self.effective else None

    @property
    def doc_id(self) -> str:
        return self.meta.doc_id

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass(frozen=True)
class Term:
    key: str  # term_key(): case-folded, no article
    term: str  # as defined
    doc_id: str
    section_id: str
