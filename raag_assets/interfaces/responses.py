"""The REST service's success responses as typed models, for its OpenAPI schema.

The service functions return plain dicts (the CLI and MCP print the same ones); the routes
declare these models as their response models and serialise with `exclude_unset`, so a
response carries exactly the keys the library gave, typed in the schema. Every model allows
extra keys: a field the library adds later reaches clients before it is described here,
instead of failing the response. A field the library leaves out in some answers (a passage
score, say) has a default, so it is optional in the schema.
"""

import datetime as dt
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# Dates are ISO strings in the library's JSON, date objects where a row comes from Postgres;
# a stated date may be partial ("2020"), so a string stays a string.
DateText = dt.date | str | None


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Health(Open):
    status: str = Field(examples=["ok"])


class SkippedFile(Open):
    file: str
    reason: str


class TenantStatus(Open):
    tenant: str
    documents: int
    earlier_versions: int | None = None
    sections: int
    chunks: int
    embedded: int | None = None
    skipped_files: list[SkippedFile] = []


class Candidate(Open):
    """One chunk of `retrieve()`: hybrid candidates, no graph."""

    doc_id: str
    chunk_index: int
    section_id: str | None = None
    label: str | None = None
    heading: str | None = None
    content: str | None = None
    score: float
    vector_rank: int | None = None
    fulltext_rank: int | None = None
    page_start: int | None = None
    page_end: int | None = None
    char_start: int | None = None
    char_end: int | None = None
    tags: list[str] = []
    metadata: dict[str, Any] = {}


class RetrieveResponse(Open):
    query: str
    tenant: str
    results: list[Candidate]


class SectionRef(Open):
    doc_id: str | None = None
    label: str | None = None


class ResultEdge(Open):
    """An edge among the returned sections, or the one that brought a section in."""

    type: str | None = None
    edge_id: str | None = None
    src: SectionRef | None = None
    dst: SectionRef | None = None
    rule: str | None = None
    layer: int | None = None
    confidence: float | None = None
    matched_text: str | None = None
    term: str | None = None
    condition: str | None = None


class SearchHit(Open):
    """A result of `search()`: a section (or a passage of one) with why it is there."""

    rank: int
    doc_id: str
    section_id: str
    label: str | None = None
    heading: str | None = None
    text: str
    passage: str | None = None
    passage_score: float | None = None
    score: float
    retrieval_reason: str
    score_breakdown: dict[str, Any] = {}
    expansion_depth: int = 0
    related_results: list[dict[str, Any]] = []
    chunk_index: int | None = None
    page_start: int | None = None
    page_end: int | None = None
    char_start: int | None = None
    char_end: int | None = None
    section_char_start: int | None = None
    section_char_end: int | None = None
    effective_from: DateText = None
    effective_to: DateText = None
    authority_level: int | float | None = None
    superseded: bool | None = None
    scope: list[Any] = []
    topics: list[str] = []
    provenance: dict[str, Any] | None = None
    conflict: dict[str, Any] | None = None


class SearchResponse(Open):
    """EnrichedResults: the ranked hits, how the search went, the graph among the hits."""

    query: str
    tenant: str
    results: list[SearchHit]
    retrieval_summary: dict[str, Any]
    result_graph: list[ResultEdge] = []


class Citation(Open):
    n: int
    doc_id: str
    label: str | None = None
    heading: str | None = None
    section_id: str | None = None
    page_start: int | None = None
    page_end: int | None = None


class Dropped(Open):
    doc_id: str
    label: str | None = None
    tokens: int


class ContextResponse(Open):
    query: str
    tenant: str
    text: str
    tokens: int
    citations: list[Citation]
    dropped: list[Dropped] = []
    redactions: dict[str, int] = {}


class Document(Open):
    doc_id: str
    source: str | None = None
    title: str | None = None
    format: str | None = None
    pages: int | None = None
    effective_from: DateText = None
    in_force_to: DateText = None
    effective_evidence: str | None = None
    version: int | None = None
    version_of: str | None = None
    supersedes: list[str] = []
    superseded_by: list[str] = []
    amends: list[str] = []
    amended_by: list[str] = []
    tags: list[str] = []
    metadata: dict[str, Any] = {}


class Section(Open):
    section_id: str
    doc_id: str
    label: str | None = None
    heading: str | None = None
    level: int | None = None
    ordinal: int | None = None
    parent_id: str | None = None
    page_start: int | None = None
    page_end: int | None = None
    char_start: int | None = None
    char_end: int | None = None


class Edge(Open):
    """A stored edge with its evidence and the rule that made it."""

    edge_id: str
    edge_type: str
    layer: int | None = None
    src_doc_id: str | None = None
    src_label: str | None = None
    src_section_id: str | None = None
    dst_doc_id: str | None = None
    dst_label: str | None = None
    dst_section_id: str | None = None
    term: str | None = None
    date_from: DateText = None
    date_to: DateText = None
    scope: str | None = None
    condition: str | None = None
    matched_text: str | None = None
    normalized_target: str | None = None
    raw_target: str | None = None
    confidence: float | None = None
    stage: str | None = None
    rule: str | None = None


class SectionText(Section):
    """One section's text and every edge that touches it."""

    title: str | None = None
    text: str
    earlier_version: bool | None = None
    edges: list[Edge] = []


class DocumentText(Open):
    doc_id: str
    format: str | None = None
    source_name: str | None = None
    page_count: int | None = None
    length: int
    text: str
    char_start: int
    char_end: int


class Candidates(Open):
    section_id: str
    similarity: float


class Unresolved(Open):
    src: SectionRef
    kind: str | None = None
    matched_text: str | None = None
    normalized_target: str | None = None
    target_doc: str | None = None
    target_label: str | None = None
    status: str
    reason: str | None = None
    candidates: list[Candidates] = []
