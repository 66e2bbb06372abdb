"""The result of search(), assembled from the ranked pool: each result with its score
breakdown, the reason it is there, its provenance (the edge that brought it in, with the rule
that made that edge), its conflict and its passage; the subgraph among the results; and a
summary. With granularity "passage" the results are the passages, ranked on their own.
"""

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from raag_assets.retrieval.model import GraphEdge, Hit, Pool, ScoredSection, SectionView
from raag_assets.retrieval.passages import Span
from raag_assets.retrieval.query import QueryAnalysis
from raag_assets.retrieval.scoring import Conflict
from raag_assets.retrieval.vocabulary import document_words

Names = dict[str, dict[str, str]]  # section_id -> {"doc_id", "label"}


@dataclass
class EnrichedResults:
    query: str
    tenant: str
    results: list[dict[str, Any]]
    result_graph: list[dict[str, Any]]
    retrieval_summary: dict[str, Any]
    timings_ms: dict[str, float] = field(default_factory=dict)  # not part of the JSON

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "tenant": self.tenant,
            "results": self.results,
            "result_graph": self.result_graph,
            "retrieval_summary": self.retrieval_summary,
        }

    def to_json(self, indent: int | None = 2) -> str:
        """Canonical JSON: the same store and query give the same bytes."""
        return json.dumps(
            _rounded(self.to_dict()), indent=indent, sort_keys=True, ensure_ascii=False, default=str
        )


@dataclass(frozen=True)
class Request:
    """What was asked, as the result reports it."""

    query: str
    tenant: str
    analysis: QueryAnalysis
    as_of: dt.date | None
    scope_context: str | None
    granularity: str = "section"


def assemble(
    request: Request,
    ordered: Sequence[ScoredSection],
    pool: Pool,
    found: Sequence[Conflict],
    passages: Sequence[Sequence[Span]],
) -> EnrichedResults:
    """The result of a search: `ordered` best first, `found` its conflicts, `passages` each
    section's passages (passages.section_passages)."""
    names = {
        c.section.section_id: {"doc_id": c.section.doc_id, "label": c.section.label}
        for c in ordered
    }
    graph = result_graph(ordered, pool.edges, pool.doc_edges)
    losers = {f.loser: f for f in found}
    results = [
        {
            **_result(rank, c, names, graph, losers.get(c.section.section_id)),
            **_passage_fields(c.section, spans),
        }
        for rank, (c, spans) in enumerate(zip(ordered, passages, strict=True), start=1)
    ]
    if request.granularity == "passage":
        results = passage_results(results, ordered, passages)
    return EnrichedResults(
        request.query,
        request.tenant,
        results,
        [_edge_json(e, names) for e in graph],
        _summary(request, ordered, found, names),
    )


def result_graph(
    ordered: Sequence[ScoredSection], edges: Sequence[GraphEdge], doc_edges: Sequence[GraphEdge]
) -> list[GraphEdge]:
    """The edges between two results, then the versions and amendments of their documents."""
    ids = {c.section.section_id for c in ordered}
    docs_in = {c.section.doc_id for c in ordered}
    graph = [
        e
        for e in edges
        if e.src_section_id in ids
        and e.dst_section_id in ids
        and e.src_section_id != e.dst_section_id
    ]
    return graph + [
        e for e in doc_edges if e.dst_doc_id in docs_in and e.edge_type in ("supersedes", "amends")
    ]


# --- one result ---------------------------------------------------------------------------


def _result(
    rank: int,
    c: ScoredSection,
    names: Names,
    graph: Sequence[GraphEdge],
    lost: Conflict | None,
) -> dict[str, Any]:
    s = c.section
    return {
        "rank": rank,
        "section_id": s.section_id,
        "doc_id": s.doc_id,
        "label": s.label,
        "heading": s.heading,
        "text": s.text,
        "page_start": s.page_start,
        "page_end": s.page_end,
        "score": c.score,
        "retrieval_reason": _reason(c, names),
        "score_breakdown": _breakdown(c),
        "expansion_depth": c.depth,
        "chunk_index": c.hit.chunk_index if c.hit else None,
        "related_results": _related(s.section_id, graph, names),
        "scope": list(s.scopes),
        "topics": list(s.topics),
        "authority_level": s.authority_level,
        "effective_from": s.effective_from,
        "effective_to": s.effective_to,
        "superseded": s.superseded,
        "provenance": _provenance(c, names),
        "conflict": {"lost_to": names[lost.winner], "rule": lost.rule} if lost else None,
    }


def _breakdown(c: ScoredSection) -> dict[str, Any]:
    return {
        "vector_rank": c.hit.vector_rank if c.hit else None,
        "fulltext_rank": c.hit.fulltext_rank if c.hit else None,
        "rrf": c.hit.score if c.hit else None,
        "base": c.base,
        "adjustments": [
            {"kind": a.kind, "factor": a.factor, "detail": a.detail, "edge_id": a.edge_id}
            for a in c.adjustments
        ],
        "final": c.score,
    }


def _related(sid: str, graph: Sequence[GraphEdge], names: Names) -> list[dict[str, Any]]:
    """The results a result has an edge with, by edge type and direction."""
    related = [
        {
            **names[(e.dst_section_id if e.src_section_id == sid else e.src_section_id) or ""],
            "edge_type": e.edge_type,
            "direction": "out" if e.src_section_id == sid else "in",
            "edge_id": e.edge_id,
        }
        for e in graph
        if e.src_section_id and sid in (e.src_section_id, e.dst_section_id)
    ]
    return sorted(related, key=lambda r: (r["edge_type"], r["direction"], r["doc_id"], r["label"]))


def _reason(c: ScoredSection, names: Names) -> str:
    """Why the result is there, then each adjustment of its score."""
    head = _hit_reason(c.hit) if c.hit else _expansion_reason(c, names)
    extras = "; ".join(f"{a.kind} x{a.factor}: {a.detail}" for a in c.adjustments)
    return f"{head}; {extras}" if extras else head


def _hit_reason(hit: Hit) -> str:
    ranks = ", ".join(
        f"{side} #{rank}"
        for side, rank in (("vector", hit.vector_rank), ("full-text", hit.fulltext_rank))
        if rank
    )
    return f"direct hit ({ranks or 'caller candidate'}, score {hit.score:.4f})"


def _expansion_reason(c: ScoredSection, names: Names) -> str:
    """The edge that brought the section in, with the rule that made it."""
    if c.via is None:
        return f"expanded at depth {c.depth}"
    src = names.get(c.via_from or "", {})
    if c.via.edge_type == "supersedes":
        return (
            f"version in force{c.via.by_rule}: replaces the hit {src.get('doc_id')} § "
            f"{src.get('label')} ({c.via.matched_text})"
        )
    return (
        f"expanded at depth {c.depth} via {c.via.named} from {src.get('doc_id')} § "
        f"{src.get('label')}: {c.via.matched_text!r}"
    )


def _provenance(c: ScoredSection, names: Names) -> dict[str, Any] | None:
    if c.via is None:
        return None
    return {
        "edge_id": c.via.edge_id,
        "edge_type": c.via.edge_type,
        "rule": c.via.rule,
        "layer": c.via.layer,
        "from": names.get(c.via_from or ""),
        "matched_text": c.via.matched_text,
        "confidence": c.via.confidence,
    }


def _edge_json(e: GraphEdge, names: Names) -> dict[str, Any]:
    return {
        "edge_id": e.edge_id,
        "type": e.edge_type,
        "rule": e.rule,
        "layer": e.layer,
        "src": names.get(e.src_section_id or "", {"doc_id": e.src_doc_id, "label": None}),
        "dst": names.get(e.dst_section_id or "", {"doc_id": e.dst_doc_id, "label": None}),
        "term": e.term,
        "matched_text": e.matched_text,
        "confidence": e.confidence,
        "condition": e.condition,
    }


# --- passages -----------------------------------------------------------------------------


def _passage_fields(s: SectionView, spans: Sequence[Span]) -> dict[str, Any]:
    """The section's span in the raw text, and its best passage's."""
    return {
        "section_char_start": s.char_start,
        "section_char_end": s.char_end,
        **_passage(s, spans[0] if spans else None),
    }


def _passage(s: SectionView, span: Span | None) -> dict[str, Any]:
    start, end = (span[0], span[1]) if span else (None, None)
    text = (
        s.body_raw[span[0] - s.text_start : span[1] - s.text_start]
        if span and s.body_raw is not None and s.text_start is not None
        else None
    )
    return {"char_start": start, "char_end": end, "passage": text}


def passage_results(
    results: list[dict[str, Any]],
    ordered: Sequence[ScoredSection],
    passages: Sequence[Sequence[Span]],
) -> list[dict[str, Any]]:
    """Passages ranked on their own: a passage's score is its section's final score scaled by
    how well it answers next to the section's best passage (1.0 for that one), so a second
    clause that answers as well as the first ranks beside its section, and a weaker one
    below sections that answer better. As many results as sections, so a caller gets the
    same count in either granularity; each passage's text is the passage itself."""
    scored: list[tuple[float, int, int, dict[str, Any]]] = []
    for n, (r, c, spans) in enumerate(zip(results, ordered, passages, strict=True)):
        for m, span in enumerate(spans or [None]):
            out = r if m == 0 else {**r, **_passage(c.section, span)}
            share = span[2] if span else 1.0
            out["passage_score"] = r["score"] * share
            if out["passage"] is not None:
                out["text"] = out["passage"]
            scored.append((-out["passage_score"], n, m, out))
    scored.sort(key=lambda x: x[:3])
    kept = [x[3] for x in scored[: len(results)]]
    for rank, out in enumerate(kept, start=1):
        out["rank"] = rank
    return kept


# --- the summary --------------------------------------------------------------------------


def _summary(
    request: Request, ordered: Sequence[ScoredSection], found: Sequence[Conflict], names: Names
) -> dict[str, Any]:
    analysis = request.analysis
    return {
        "primary_hits": sum(1 for c in ordered if c.hit),
        "expanded": sum(1 for c in ordered if not c.hit),
        "documents_involved": sorted({c.section.doc_id for c in ordered}),
        "conflicts_detected": len(found),
        "conflicts": [
            {
                "between": [names[a] for a in f.section_ids],
                "kind": f.kind,
                "winner": names[f.winner],
                "rule": f.rule,
                "reason": f.reason,
                "edge_id": f.edge_id,
            }
            for f in found
        ],
        "query_analysis": {
            "query": analysis.query,
            "tags": list(analysis.tags),
            "doc_ids": list(analysis.doc_ids),
            "named_document": analysis.named.as_dict() if analysis.named else None,
            # the words full text and passages also matched, each for the query word it stands for
            "document_words": document_words(analysis.asked),
        },
        "as_of_date": request.as_of,
        "scope_context": request.scope_context,
    }


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value
