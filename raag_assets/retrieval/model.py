"""The records search() passes from stage to stage: a retrieved `Hit`, the `SectionView` and
`GraphEdge` rows read from the store, and the `ScoredSection` that expansion brings into the
result `Pool` and scoring adjusts, one `Adjustment` per boost or penalty."""

import datetime as dt
from dataclasses import dataclass, field


@dataclass(frozen=True)
class GraphEdge:
    edge_id: str
    edge_type: str
    layer: int
    src_doc_id: str
    src_section_id: str | None
    dst_doc_id: str | None
    dst_section_id: str | None
    term: str | None
    scope: str | None
    date_from: dt.date | None
    date_to: dt.date | None
    matched_text: str
    normalized_target: str
    confidence: float
    condition: str | None
    rule: str | None = None  # the extraction rule that made it (graph/rules.py)

    @property
    def named(self) -> str:
        """Its type and the rule that made it, for explanations: "references
        (references.section_label)"; the type alone for an edge no rule names."""
        return f"{self.edge_type} ({self.rule})" if self.rule else self.edge_type

    @property
    def by_rule(self) -> str:
        """The rule that made it, in brackets after a space, to follow a phrase about the
        edge; empty when no rule names it."""
        return f" ({self.rule})" if self.rule else ""


@dataclass(frozen=True)
class SectionView:
    section_id: str
    doc_id: str
    ordinal: int
    label: str
    heading: str
    text: str
    page_start: int | None
    page_end: int | None
    parent_id: str | None
    title: str | None
    authority_level: int | None
    effective_from: dt.date | None
    effective_to: dt.date | None
    topics: tuple[str, ...] = ()
    superseded: bool = False
    scopes: tuple[str, ...] = ()
    char_start: int | None = None  # the section (heading included) in the raw text
    char_end: int | None = None
    text_start: int | None = None  # where its body begins in the raw text
    body_raw: str | None = None  # the raw text of its body, for passages

    def valid_on(self, day: dt.date) -> bool | None:
        """Whether the section is in force on `day`; None when it states no dates."""
        if self.effective_from is None and self.effective_to is None:
            return None
        return (self.effective_from or dt.date.min) <= day <= (self.effective_to or dt.date.max)


@dataclass(frozen=True)
class Hit:
    """A primary candidate: a section reached by retrieval (or the caller's own search)."""

    section_id: str
    score: float
    vector_rank: int | None = None
    fulltext_rank: int | None = None
    chunk_index: int | None = None
    chunk_span: tuple[int, int] | None = None  # the retrieved chunk in the raw text


@dataclass(frozen=True)
class Adjustment:
    kind: str
    factor: float
    detail: str
    edge_id: str | None = None


@dataclass
class ScoredSection:
    """A section in the result pool: a hit (depth 0) or a section expansion brought in over
    `via` from `via_from`; its score is `base` times each adjustment's factor."""

    section: SectionView
    depth: int
    base: float
    hit: Hit | None = None
    via: GraphEdge | None = None  # the edge that brought an expanded section in
    via_from: str | None = None  # ... from this section
    adjustments: list[Adjustment] = field(default_factory=list)

    @property
    def score(self) -> float:
        value = self.base
        for a in self.adjustments:
            value *= a.factor
        return value


@dataclass
class Pool:
    """The sections search() scores (expand.py), and the edges it scores them by."""

    sections: list[ScoredSection]
    edges: list[GraphEdge]  # every edge touching a section of the pool, in id order
    doc_edges: list[GraphEdge]  # document-level edges from the pool's documents
