"""search(): relationship-aware retrieval over a tenant's graph.

Candidates come from retrieve() or from the caller's own search (`query_results`); they are
expanded along the graph, scored with graph-aware boosts and penalties (each explained),
checked for conflicts, and returned as EnrichedResults: results, the edges among them, and a
summary. Filters narrow the primary candidates; expansion may bring in any section of the
same tenant, never another tenant's.
"""

import datetime as dt
import functools
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import psycopg

from raag_assets.core.errors import InvalidFilter
from raag_assets.ingest.embedding import DEFAULT_MODEL, Embedder
from raag_assets.retrieval import scoring as enrich
from raag_assets.retrieval.candidates import (
    Mode,
    RetrievalPlan,
    cached_queries,
    can_run_beside,
    check_text,
    retrieve_as_reader,
)
from raag_assets.retrieval.passages import best_passages
from raag_assets.retrieval.query import DocDescriptor, analyze
from raag_assets.retrieval.scoring import Candidate, GraphEdge, Hit, SectionView
from raag_assets.store import db
from raag_assets.store import graph as graph_store

EmbedFn = Callable[[list[str]], np.ndarray]
Granularity = Literal["section", "passage"]
DEFAULT_K = 8
MAX_EXPANDED = 10
PER_SECTION = 3
OPENING_CHARS = 600  # of a document's text, where its title block names parties and date


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


def search(
    query: str,
    tenant: str,
    *,
    query_results: Sequence[Mapping[str, Any]] | None = None,
    as_of_date: dt.date | str | None = None,
    max_expansion_hops: int = 1,
    scope_context: str | None = None,
    k: int = DEFAULT_K,
    tags_any: Sequence[str] = (),
    tags_all: Sequence[str] = (),
    metadata: Mapping[str, Any] | None = None,
    mode: Mode = "hybrid",
    max_expanded: int = MAX_EXPANDED,
    conn: psycopg.Connection | None = None,
    embed: EmbedFn | None = None,
    granularity: Granularity = "section",
) -> EnrichedResults:
    """Relationship-aware search. See the module docstring; every score is explained.

    Every result carries its section and the passage inside it that answers the query
    (`char_start`/`char_end` into the document's raw text, see `raag show`); with
    granularity "passage" a result's `text` is that passage rather than the whole section."""
    if granularity not in ("section", "passage"):
        raise InvalidFilter(f"granularity must be section or passage, got {granularity!r}")
    if not 0 <= max_expansion_hops <= enrich.MAX_HOPS:
        raise InvalidFilter(f"max_expansion_hops must be 0, 1 or 2, got {max_expansion_hops}")
    if not 1 <= k <= 100:
        raise InvalidFilter(f"k must be between 1 and 100, got {k}")
    check_text(query, "query")
    check_text(scope_context, "scope_context")
    as_of = _date(as_of_date)
    history = as_of is not None  # earlier versions of changed documents answer as-of queries
    timings: dict[str, float] = {}
    clock = _Clock()
    with ExitStack() as stack:
        c = conn if conn is not None else stack.enter_context(db.connect())
        concurrent = can_run_beside(c)  # before the reader's transaction begins
        stack.enter_context(db.tenant_reader(c, tenant))  # every read below: this tenant only
        analysis = analyze(
            query, lambda: graph_store.documents(c, tenant), lambda: _descriptors(c, tenant)
        )
        timings["query_analysis"] = clock.lap()
        plan = RetrievalPlan(
            k=min(1000, max(12, 2 * k)),
            mode=mode,
            tags_any=tuple(tags_any) + analysis.tags,
            tags_all=tuple(tags_all),
            metadata=dict(metadata or {}),
            doc_ids=analysis.doc_ids,
            history=history,
        )
        embed_fn = embed or default_embed()
        if query_results is not None:
            hits = _caller_hits(c, tenant, query_results)[:k]
        else:
            # A named document is a filter now: its name words are not what is asked.
            asked = analysis.named.rest if analysis.named else analysis.query
            hits = _retrieved_hits(c, asked, tenant, embed_fn, plan, concurrent)[:k]
        if analysis.named and query_results is None:
            # The named document answers first; the best of the others stay, fewer, so a
            # question that also needs another document can still reach it.
            named = _retrieved_hits(
                c,
                asked,
                tenant,
                embed_fn,
                replace(plan, doc_ids=analysis.named.doc_ids),
                concurrent,
            )[:k]
            seen = {h.section_id for h in named}
            others = [h for h in hits if h.section_id not in seen][: max(1, k // 2)]
            hits = named + others
        timings["candidates"] = clock.lap()
        superseded = graph_store.superseded_documents(c, tenant)
        sections = _sections(c, tenant, [h.section_id for h in hits], superseded, history)
        candidates = [
            Candidate(sections[h.section_id], 0, h.score, hit=h)
            for h in hits
            if h.section_id in sections
        ]
        known = {cand.section.section_id for cand in candidates}
        # A document the query names is the one asked about, even if superseded.
        stand_ins = [cand for cand in candidates if cand.section.doc_id not in analysis.doc_ids]
        candidates.extend(_in_force(c, tenant, stand_ins, known, superseded, history, as_of))
        frontier = list(candidates)
        for depth in range(1, max_expansion_hops + 1):
            budget = max_expanded - sum(1 for cand in candidates if not cand.hit)
            if budget <= 0 or not frontier:
                break
            edges = _edges(c, tenant, [f.section.section_id for f in frontier])
            steps = enrich.expand(frontier, edges, known, budget, PER_SECTION)
            loaded = _sections(c, tenant, [step.section_id for step in steps], superseded, history)
            frontier = [
                Candidate(
                    loaded[step.section_id],
                    depth,
                    step.base,
                    via=step.edge,
                    via_from=step.source.section.section_id,
                )
                for step in steps
                if step.section_id in loaded
            ]
            candidates.extend(frontier)
        timings["expansion"] = clock.lap()
        ids = [cand.section.section_id for cand in candidates]
        edges = _edges(c, tenant, ids)
        _attach_scopes_and_dates(candidates, edges)
        doc_edges = _doc_edges(c, tenant, sorted({cand.section.doc_id for cand in candidates}))
    enrich.score(candidates, edges, as_of, scope_context)
    if analysis.named:
        enrich.boost_named(candidates, analysis.named.doc_ids, analysis.named.words)
    ordered = enrich.ranked(candidates)
    found = enrich.conflicts(ordered, edges, doc_edges, as_of, scope_context)
    enrich.order_conflicts(ordered, found)
    ordered = enrich.ranked(ordered)
    timings["scoring"] = clock.lap()
    result = _assemble(
        query, tenant, analysis, ordered, edges, doc_edges, found, as_of, scope_context
    )
    asked = analysis.named.rest if analysis.named else analysis.query
    _attach_passages(result.results, ordered, asked, granularity)
    timings["passages"] = clock.lap()
    result.timings_ms = timings
    return result


# --- candidates -------------------------------------------------------------------------


def _retrieved_hits(
    conn: psycopg.Connection,
    query: str,
    tenant: str,
    embed: EmbedFn,
    plan: RetrievalPlan,
    concurrent: bool = False,
) -> list[Hit]:
    hits: dict[str, Hit] = {}
    for cand in retrieve_as_reader(conn, query, tenant, embed, plan, concurrent=concurrent):
        if cand.section_id not in hits:  # the section's best chunk speaks for it
            span = None if cand.char_start is None else (cand.char_start, cand.char_end or 0)
            hits[cand.section_id] = Hit(
                cand.section_id,
                cand.score,
                cand.vector_rank,
                cand.fulltext_rank,
                cand.chunk_index,
                span,
            )
    return list(hits.values())


def _caller_hits(
    conn: psycopg.Connection, tenant: str, query_results: Sequence[Mapping[str, Any]]
) -> list[Hit]:
    """The caller's own candidates: {"section_id", "score"} or {"doc_id", "chunk_index",
    "score"}, best first."""
    chunk_keys = [
        (r["doc_id"], int(r["chunk_index"])) for r in query_results if "section_id" not in r
    ]
    by_chunk = {}
    if chunk_keys:
        rows = conn.execute(
            db.load_sql("select_chunk_sections"),
            {
                "tenant": tenant,
                "doc_ids": [d for d, _ in chunk_keys],
                "chunk_indexes": [i for _, i in chunk_keys],
            },
        ).fetchall()
        by_chunk = {(r[0], r[1]): r[2] for r in rows}
    hits: dict[str, Hit] = {}
    for r in query_results:
        try:
            score = float(r["score"])
            section_id = r.get("section_id") or by_chunk.get((r["doc_id"], int(r["chunk_index"])))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidFilter(
                "query_results items need a score and either section_id or doc_id + chunk_index"
            ) from exc
        if section_id and section_id not in hits:
            hits[section_id] = Hit(section_id, score, chunk_index=r.get("chunk_index"))
    return list(hits.values())


def _in_force(
    conn: psycopg.Connection,
    tenant: str,
    hits: list[Candidate],
    known: set[str],
    superseded: set[str],
    history: bool,
    as_of: dt.date | None,
) -> list[Candidate]:
    """The sections that replaced superseded hits, following the versions forward until one
    is current (or in force on `as_of`). They stand in for the hit at depth 0."""
    out: list[Candidate] = []
    frontier = [h for h in hits if h.section.superseded]
    for _ in range(enrich.MAX_VERSION_STEPS):
        if not frontier:
            break
        edges = _edges(conn, tenant, [f.section.section_id for f in frontier])
        steps = enrich.successors(frontier, edges, known, as_of)
        loaded = _sections(conn, tenant, [st.section_id for st in steps], superseded, history)
        frontier = [
            Candidate(
                loaded[st.section_id],
                0,
                st.base,
                via=st.edge,
                via_from=st.source.section.section_id,
            )
            for st in steps
            if st.section_id in loaded
        ]
        out.extend(frontier)
    return out


# --- loading ----------------------------------------------------------------------------


def _descriptors(conn: psycopg.Connection, tenant: str) -> list[DocDescriptor]:
    rows = conn.execute(
        db.load_sql("select_document_descriptors"), {"tenant": tenant, "opening": OPENING_CHARS}
    )
    return [DocDescriptor(*r) for r in rows]


def _sections(
    conn: psycopg.Connection,
    tenant: str,
    ids: Sequence[str],
    superseded: set[str],
    history: bool,
) -> dict[str, SectionView]:
    if not ids:
        return {}
    rows = conn.execute(
        db.load_sql("select_search_sections"),
        {"tenant": tenant, "ids": list(ids), "history": history},
    )
    out = {}
    for r in rows:
        out[r[0]] = SectionView(
            *r[:13],
            topics=tuple(r[13]),
            superseded=r[1] in superseded,
            char_start=r[14],
            char_end=r[15],
            text_start=r[16],
            body_raw=r[17],
        )
    return out


def _edges(conn: psycopg.Connection, tenant: str, ids: Sequence[str]) -> list[GraphEdge]:
    rows = conn.execute(db.load_sql("select_edges_touching"), {"tenant": tenant, "ids": list(ids)})
    return [GraphEdge(*r) for r in rows]


def _doc_edges(conn: psycopg.Connection, tenant: str, doc_ids: Sequence[str]) -> list[GraphEdge]:
    rows = conn.execute(
        db.load_sql("select_document_edges"), {"tenant": tenant, "doc_ids": list(doc_ids)}
    )
    return [GraphEdge(*r) for r in rows]


def _attach_scopes_and_dates(candidates: list[Candidate], edges: Sequence[GraphEdge]) -> None:
    """A section's scopes are its applies_to_scope edges; a section's own effective date
    (an effective_on edge) narrows its document's."""
    for cand in candidates:
        sid = cand.section.section_id
        scopes = sorted(
            {
                e.scope
                for e in edges
                if e.src_section_id == sid and e.edge_type == "applies_to_scope" and e.scope
            }
        )
        starts = [
            e.date_from
            for e in edges
            if e.src_section_id == sid and e.edge_type == "effective_on" and e.date_from
        ]
        section = cand.section
        start = max([d for d in [section.effective_from, *starts] if d], default=None)
        cand.section = replace(section, scopes=tuple(scopes), effective_from=start)


# --- output -----------------------------------------------------------------------------


def _assemble(
    query: str,
    tenant: str,
    analysis: Any,
    ordered: list[Candidate],
    edges: Sequence[GraphEdge],
    doc_edges: Sequence[GraphEdge],
    found: Sequence[enrich.Conflict],
    as_of: dt.date | None,
    scope_context: str | None,
) -> EnrichedResults:
    ids = {c.section.section_id for c in ordered}
    names = {
        c.section.section_id: {"doc_id": c.section.doc_id, "label": c.section.label}
        for c in ordered
    }
    docs_in = {c.section.doc_id for c in ordered}
    graph = [
        e
        for e in edges
        if e.src_section_id in ids
        and e.dst_section_id in ids
        and e.src_section_id != e.dst_section_id
    ]
    graph += [
        e for e in doc_edges if e.dst_doc_id in docs_in and e.edge_type in ("supersedes", "amends")
    ]
    losers = {c.loser: c for c in found}
    results = []
    for rank, c in enumerate(ordered, start=1):
        s = c.section
        related = sorted(
            (
                {
                    **names[
                        e.dst_section_id if e.src_section_id == s.section_id else e.src_section_id
                    ],
                    "edge_type": e.edge_type,
                    "direction": "out" if e.src_section_id == s.section_id else "in",
                    "edge_id": e.edge_id,
                }
                for e in graph
                if e.src_section_id and s.section_id in (e.src_section_id, e.dst_section_id)
            ),
            key=lambda r: (r["edge_type"], r["direction"], r["doc_id"], r["label"]),
        )
        results.append(
            {
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
                "score_breakdown": {
                    "vector_rank": c.hit.vector_rank if c.hit else None,
                    "fulltext_rank": c.hit.fulltext_rank if c.hit else None,
                    "rrf": c.hit.score if c.hit else None,
                    "base": c.base,
                    "adjustments": [
                        {
                            "kind": a.kind,
                            "factor": a.factor,
                            "detail": a.detail,
                            "edge_id": a.edge_id,
                        }
                        for a in c.adjustments
                    ],
                    "final": c.score,
                },
                "expansion_depth": c.depth,
                "chunk_index": c.hit.chunk_index if c.hit else None,
                "related_results": related,
                "scope": list(s.scopes),
                "topics": list(s.topics),
                "authority_level": s.authority_level,
                "effective_from": s.effective_from,
                "effective_to": s.effective_to,
                "superseded": s.superseded,
                "provenance": _provenance(c, names),
                "conflict": (
                    {
                        "lost_to": names[losers[s.section_id].winner],
                        "rule": losers[s.section_id].rule,
                    }
                    if s.section_id in losers
                    else None
                ),
            }
        )
    summary = {
        "primary_hits": sum(1 for c in ordered if c.hit),
        "expanded": sum(1 for c in ordered if not c.hit),
        "documents_involved": sorted(docs_in),
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
        },
        "as_of_date": as_of,
        "scope_context": scope_context,
    }
    return EnrichedResults(query, tenant, results, [_edge_json(e, names) for e in graph], summary)


def _reason(c: Candidate, names: dict[str, dict[str, str]]) -> str:
    if c.hit:
        ranks = ", ".join(
            f"{side} #{rank}"
            for side, rank in (("vector", c.hit.vector_rank), ("full-text", c.hit.fulltext_rank))
            if rank
        )
        head = f"direct hit ({ranks or 'caller candidate'}, score {c.hit.score:.4f})"
    elif c.via and c.via.edge_type == "supersedes":
        src = names.get(c.via_from or "", {})
        head = (
            f"version in force: replaces the hit {src.get('doc_id')} § {src.get('label')} "
            f"({c.via.matched_text})"
        )
    else:
        src = names.get(c.via_from or "", {})
        head = (
            f"expanded at depth {c.depth} via {c.via.edge_type} from {src.get('doc_id')} § "
            f"{src.get('label')}: {c.via.matched_text!r}"
            if c.via
            else f"expanded at depth {c.depth}"
        )
    extras = "; ".join(f"{a.kind} x{a.factor}: {a.detail}" for a in c.adjustments)
    return f"{head}; {extras}" if extras else head


def _provenance(c: Candidate, names: dict[str, dict[str, str]]) -> dict[str, Any] | None:
    if c.via is None:
        return None
    return {
        "edge_id": c.via.edge_id,
        "edge_type": c.via.edge_type,
        "layer": c.via.layer,
        "from": names.get(c.via_from or ""),
        "matched_text": c.via.matched_text,
        "confidence": c.via.confidence,
    }


def _edge_json(e: GraphEdge, names: dict[str, dict[str, str]]) -> dict[str, Any]:
    return {
        "edge_id": e.edge_id,
        "type": e.edge_type,
        "layer": e.layer,
        "src": names.get(e.src_section_id or "", {"doc_id": e.src_doc_id, "label": None}),
        "dst": names.get(e.dst_section_id or "", {"doc_id": e.dst_doc_id, "label": None}),
        "term": e.term,
        "matched_text": e.matched_text,
        "confidence": e.confidence,
        "condition": e.condition,
    }


# With granularity "passage", a section gives up to this many passages, each a result of its
# own, when they answer separately (see context.best_passages).
PASSAGES_PER_SECTION = 3


def _attach_passages(
    results: list[dict[str, Any]], ordered: list[Candidate], query: str, granularity: str
) -> None:
    """Each result's passage: the sentences of its section that answer the query, as a span
    of the raw text (the retrieved chunk breaks ties), and its section's span. With
    granularity "passage" the results become passages, ranked by their own score (see
    `_passage_results`)."""
    limit = PASSAGES_PER_SECTION if granularity == "passage" else 1
    found_all: list[list[tuple[int, int, float]]] = []
    for r, c in zip(results, ordered, strict=True):
        s = c.section
        r["section_char_start"], r["section_char_end"] = s.char_start, s.char_end
        spans: list[tuple[int, int, float]] = []
        if s.body_raw is not None and s.text_start is not None:
            prefer = c.hit.chunk_span if c.hit else None
            local = (prefer[0] - s.text_start, prefer[1] - s.text_start) if prefer else None
            spans = [
                (s.text_start + a, s.text_start + b, share)
                for a, b, share in best_passages(s.body_raw, query, local, s.heading, limit)
            ]
        found_all.append(spans)
        _set_passage(r, s, spans[0] if spans else None)
    if granularity == "passage":
        results[:] = _passage_results(results, ordered, found_all)


def _set_passage(r: dict[str, Any], s: SectionView, span: tuple[int, int, float] | None) -> None:
    r["char_start"], r["char_end"] = (span[0], span[1]) if span else (None, None)
    r["passage"] = (
        s.body_raw[span[0] - s.text_start : span[1] - s.text_start]
        if span and s.body_raw is not None and s.text_start is not None
        else None
    )


def _passage_results(
    results: list[dict[str, Any]],
    ordered: list[Candidate],
    found_all: list[list[tuple[int, int, float]]],
) -> list[dict[str, Any]]:
    """Passages ranked on their own: a passage's score is its section's final score scaled by
    how well it answers next to the section's best passage (1.0 for that one), so a second
    clause that answers as well as the first ranks beside its section, and a weaker one
    below sections that answer better. As many results as sections, so a caller gets the
    same count in either granularity; each passage's text is the passage itself."""
    scored: list[tuple[float, int, int, dict[str, Any]]] = []
    for n, (r, c, spans) in enumerate(zip(results, ordered, found_all, strict=True)):
        for m, span in enumerate(spans or [None]):
            out = r if m == 0 else dict(r)
            if m:
                _set_passage(out, c.section, span)
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


# --- helpers ----------------------------------------------------------------------------


def _date(value: dt.date | str | None) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(value)
    except ValueError as exc:
        raise InvalidFilter(f"as_of_date must be a date like 2025-01-31, got {value!r}") from exc


def default_embedder() -> Embedder:
    """The configured embedding model (RAAG_EMBED_MODEL), loaded once per process."""
    from raag_assets.ingest.embedding import shared_embedder

    return shared_embedder(os.environ.get("RAAG_EMBED_MODEL", DEFAULT_MODEL), 32)


def default_embed() -> EmbedFn:
    """The configured model's embed(), remembering the last QUERY_CACHE single-text calls:
    a repeated query skips the model (about a third of a warm search's time)."""
    return _cached_embed(os.environ.get("RAAG_EMBED_MODEL", DEFAULT_MODEL))


@functools.lru_cache(maxsize=4)
def _cached_embed(model: str) -> EmbedFn:
    return cached_queries(default_embedder().embed)


class _Clock:
    """Milliseconds per stage, for `EnrichedResults.timings_ms`."""

    def __init__(self) -> None:
        self.last = time.perf_counter()

    def lap(self) -> float:
        now = time.perf_counter()
        elapsed, self.last = now - self.last, now
        return round(elapsed * 1000, 2)


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value
