"""search(): relationship-aware retrieval over a tenant's graph, as its stages, each a module
the data passes once:

    analyse the query (query) -> candidates (candidates: hybrid vector + full text, RRF)
    -> expand along the graph (expand) -> score and resolve conflicts (scoring)
    -> passages (passages) -> assemble the result (assemble)

Candidates come from retrieval or from the caller's own search (`query_results`); filters
narrow them; expansion may bring in any section of the same tenant, never another tenant's.
Every store read runs inside the tenant's reader transaction (reads.Reads). This module
validates the arguments and runs the stages.
"""

import datetime as dt
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from typing import Any, Literal

import numpy as np
import psycopg

from raag_assets.core.errors import InvalidFilter
from raag_assets.retrieval.assemble import EnrichedResults, Request, assemble
from raag_assets.retrieval.candidates import (
    Mode,
    RetrievalPlan,
    can_run_beside,
    check_text,
    default_embed,
    default_embedder,
    primary_hits,
)
from raag_assets.retrieval.expand import MAX_EXPANDED, MAX_HOPS, expand
from raag_assets.retrieval.model import ScoredSection
from raag_assets.retrieval.passages import MULTI_CHUNK_CHARS, section_passages
from raag_assets.retrieval.query import QueryAnalysis, analyze
from raag_assets.retrieval.reads import Reads
from raag_assets.retrieval.scoring import score_and_resolve
from raag_assets.store import db

__all__ = [
    "DEFAULT_K",
    "MAX_EXPANDED",
    "EnrichedResults",
    "default_embed",
    "default_embedder",
    "search",
]

EmbedFn = Callable[[list[str]], np.ndarray]
Granularity = Literal["section", "passage"]
DEFAULT_K = 8


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
    _check(query, scope_context, k, max_expansion_hops, granularity)
    as_of = _date(as_of_date)
    history = as_of is not None  # earlier versions of changed documents answer as-of queries
    clock = _Clock()
    with ExitStack() as stack:
        c = conn if conn is not None else stack.enter_context(db.connect())
        concurrent = can_run_beside(c)  # before the reader's transaction begins
        stack.enter_context(db.tenant_reader(c, tenant))  # every read below: this tenant only
        reads = Reads(c, tenant, history=history)
        analysis = analyze(query, reads.corpus, reads.names)
        clock.lap("query_analysis")
        plan = _plan(analysis, k, mode, tags_any, tags_all, metadata, history)
        embed_fn = embed or default_embed()
        hits = primary_hits(reads, analysis, plan, embed_fn, k, query_results, concurrent)
        clock.lap("candidates")
        asked = (*analysis.doc_ids, *(analysis.named.doc_ids if analysis.named else ()))
        pool = expand(reads, hits, asked, as_of, max_expansion_hops, max_expanded)
        clock.lap("expansion")
        ordered, found = score_and_resolve(pool, as_of, scope_context, analysis.named, asked, k)
        clock.lap("scoring")
        # the query's embedding is the one retrieval made (remembered): no model call
        near = mode != "fulltext" and query_results is None
        meaning = _meaning(reads, ordered, analysis.asked, embed_fn) if near else {}
    passages = section_passages(ordered, analysis.asked, granularity, meaning)
    clock.lap("passages")
    request = Request(query, tenant, analysis, as_of, scope_context, granularity)
    result = assemble(request, ordered, pool, found, passages)
    clock.lap("assemble")
    result.timings_ms = clock.laps
    return result


def _meaning(
    reads: Reads, ordered: Sequence[ScoredSection], asked: str, embed: EmbedFn
) -> dict[str, list[tuple[int, int, float]]]:
    """How near each chunk of the sections long enough to hold more than one chunk lies to
    the query (passages.section_passages)."""
    long = [c.section for c in ordered if len(c.section.body_raw or "") > MULTI_CHUNK_CHARS]
    if not long:
        return {}
    return reads.chunk_similarities(long, embed([" ".join(asked.split())])[0])


def _check(
    query: str, scope_context: str | None, k: int, max_expansion_hops: int, granularity: str
) -> None:
    if granularity not in ("section", "passage"):
        raise InvalidFilter(f"granularity must be section or passage, got {granularity!r}")
    if not 0 <= max_expansion_hops <= MAX_HOPS:
        raise InvalidFilter(f"max_expansion_hops must be 0, 1 or 2, got {max_expansion_hops}")
    if not 1 <= k <= 100:
        raise InvalidFilter(f"k must be between 1 and 100, got {k}")
    check_text(query, "query")
    check_text(scope_context, "scope_context")


def _date(value: dt.date | str | None) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(value)
    except ValueError as exc:
        raise InvalidFilter(f"as_of_date must be a date like 2025-01-31, got {value!r}") from exc


def _plan(
    analysis: QueryAnalysis,
    k: int,
    mode: Mode,
    tags_any: Sequence[str],
    tags_all: Sequence[str],
    metadata: Mapping[str, Any] | None,
    history: bool,
) -> RetrievalPlan:
    """Retrieval for search(): twice the results asked (at least 12), the query's #tags and
    "in document" filters added to the caller's."""
    return RetrievalPlan(
        k=min(1000, max(12, 2 * k)),
        mode=mode,
        tags_any=tuple(tags_any) + analysis.tags,
        tags_all=tuple(tags_all),
        metadata=dict(metadata or {}),
        doc_ids=analysis.doc_ids,
        history=history,
    )


class _Clock:
    """Milliseconds per stage, for `EnrichedResults.timings_ms`."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.laps: dict[str, float] = {}

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        elapsed, self.last = now - self.last, now
        self.laps[stage] = round(elapsed * 1000, 2)
