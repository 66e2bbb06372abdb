"""Graph expansion: from the hits to the result pool. A superseded hit brings in the version in
force that replaced it; then each hop follows the graph from the last sections brought in
(hard edges first, soft edges only from a hit), within a budget. The pool leaves with the
edges touching its sections and the document-level edges of its documents, for scoring.

`hop` and `successors` choose, as pure functions; `expand` reads what they need through
`Reads`. Expansion may bring in any section of the same tenant, never another tenant's.
"""

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple

from raag_assets.retrieval.model import GraphEdge, Hit, Pool, ScoredSection
from raag_assets.retrieval.reads import Reads
from raag_assets.retrieval.weights import WEIGHTS

# Expansion follows hard edges first; soft edges only one hop from a primary hit.
HARD_EDGES = ("overrides", "references", "depends_on", "uses_term", "precedes", "amends")
SOFT_EDGES = ("topically_related",)
# Sections that act on a hit are brought in too: what overrides or amends it.
INCOMING_EDGES = ("overrides", "amends")
DECAY = WEIGHTS.decay  # an expanded section starts at its source's score x this (fitted)
MAX_HOPS = 2
MAX_VERSION_STEPS = 5  # versions followed forward from a superseded hit (rev A -> B -> C)
MAX_EXPANDED = 10  # sections expansion may add (versions in force included)
PER_SECTION = 3  # ... from any one section per hop


def expand(
    reads: Reads,
    hits: Sequence[Hit],
    asked_docs: Sequence[str],
    as_of: dt.date | None,
    max_hops: int,
    max_expanded: int = MAX_EXPANDED,
) -> Pool:
    """The hits (those whose section is readable), the versions in force of superseded hits
    (not of a document the query asks about by name: `asked_docs`), and up to `max_hops`
    hops of the graph, at most `max_expanded` sections added in all. A query that names a
    document expands from that document's hits only: the other documents' hits stay as
    candidates, but what they cite or define is not what was asked about (their
    definitions sections would take the places of the named document's hits)."""
    loaded = reads.sections([h.section_id for h in hits])
    pool = [
        ScoredSection(loaded[h.section_id], 0, h.score, hit=h)
        for h in hits
        if h.section_id in loaded
    ]
    known = {s.section.section_id for s in pool}
    stand_ins = [s for s in pool if s.section.doc_id not in asked_docs]
    pool.extend(in_force(reads, stand_ins, known, as_of))
    if max_hops > 0:  # an earlier version asked for by name: what replaced it, one hop on
        asked = [s for s in pool if s.section.doc_id in asked_docs]
        pool.extend(in_force(reads, asked, known, as_of, depth=1, decay=DECAY["hard"]))
    sources = [s for s in pool if s.section.doc_id in asked_docs] if asked_docs else pool
    pool.extend(hops(reads, sources, known, max_hops, max_expanded))
    edges = reads.edges(s.section.section_id for s in pool)
    pool = [with_scopes_and_dates(s, edges) for s in pool]
    doc_edges = reads.document_edges(sorted({s.section.doc_id for s in pool}))
    return Pool(pool, edges, doc_edges)


def in_force(
    reads: Reads,
    hits: Sequence[ScoredSection],
    known: set[str],
    as_of: dt.date | None,
    depth: int = 0,
    decay: float = DECAY["version"],
) -> list[ScoredSection]:
    """The sections that replaced superseded hits, following the versions forward until one
    is current (or in force on `as_of`). They stand in for the hit at depth 0; at depth 1
    (with a hop's decay) they follow it: for the hits of an earlier version the query names
    ("what did revision A say"), the named version answers and what replaced it comes next."""
    out: list[ScoredSection] = []
    frontier = [h for h in hits if h.section.superseded]
    for step in range(MAX_VERSION_STEPS):
        if not frontier:
            break
        edges = reads.edges(f.section.section_id for f in frontier)
        step_decay = decay if step == 0 else DECAY["version"]  # one hop, then versions
        frontier = _brought_in(reads, successors(frontier, edges, known, as_of, step_decay), depth)
        out.extend(frontier)
    return out


def hops(
    reads: Reads, pool: Sequence[ScoredSection], known: set[str], max_hops: int, max_expanded: int
) -> list[ScoredSection]:
    """Up to `max_hops` hops from the pool, each from the sections the last one brought in,
    while fewer than `max_expanded` sections of the pool are not hits."""
    out: list[ScoredSection] = []
    frontier = list(pool)
    for depth in range(1, max_hops + 1):
        budget = max_expanded - sum(1 for s in [*pool, *out] if not s.hit)
        if budget <= 0 or not frontier:
            break
        edges = reads.edges(f.section.section_id for f in frontier)
        frontier = _brought_in(reads, hop(frontier, edges, known, budget, PER_SECTION), depth)
        out.extend(frontier)
    return out


def _brought_in(reads: Reads, steps: Sequence["Step"], depth: int) -> list[ScoredSection]:
    """The sections steps reach (those readable), each with the edge it came in over."""
    loaded = reads.sections([step.section_id for step in steps])
    return [
        ScoredSection(
            loaded[step.section_id],
            depth,
            step.base,
            via=step.edge,
            via_from=step.source.section.section_id,
        )
        for step in steps
        if step.section_id in loaded
    ]


def with_scopes_and_dates(s: ScoredSection, edges: Sequence[GraphEdge]) -> ScoredSection:
    """A section's scopes are its applies_to_scope edges; a section's own effective date
    (an effective_on edge) narrows its document's."""
    sid = s.section.section_id
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
    start = max([d for d in [s.section.effective_from, *starts] if d], default=None)
    s.section = replace(s.section, scopes=tuple(scopes), effective_from=start)
    return s


# --- choosing what to follow (pure) ------------------------------------------------------


def neighbours(
    section_id: str, edges: Iterable[GraphEdge], soft: bool
) -> list[tuple[GraphEdge, str]]:
    """(edge, other section) pairs expansion may follow from a section."""
    kinds = HARD_EDGES + (SOFT_EDGES if soft else ())
    out = []
    for e in edges:
        if e.src_section_id == section_id and e.dst_section_id and e.edge_type in kinds:
            out.append((e, e.dst_section_id))
        elif e.dst_section_id == section_id and e.src_section_id and e.edge_type in INCOMING_EDGES:
            out.append((e, e.src_section_id))
    return out


class Step(NamedTuple):
    """A section expansion brings in: reached over `edge` from `source`, starting at `base`."""

    section_id: str
    edge: GraphEdge
    source: ScoredSection
    base: float


def hop(
    frontier: Sequence[ScoredSection],
    edges: Sequence[GraphEdge],
    known: set[str],
    budget: int,
    per_section: int,
) -> list[Step]:
    """One hop, best first: hard edges before soft (soft only from a primary hit), then the
    source's score, the edge's confidence, and ids. Adds the chosen sections to `known`."""
    rank = {t: i for i, t in enumerate(HARD_EDGES + SOFT_EDGES)}
    options = [
        (e, other, source)
        for source in frontier
        for e, other in neighbours(source.section.section_id, edges, soft=source.depth == 0)
        if other not in known
    ]
    options.sort(
        key=lambda o: (
            o[0].edge_type in SOFT_EDGES,
            rank[o[0].edge_type],
            -o[2].score,
            -o[0].confidence,
            o[1],
            o[0].edge_id,
        )
    )
    chosen: list[Step] = []
    taken_from: dict[str, int] = {}
    for e, other, source in options:
        if len(chosen) >= budget:
            break
        sid = source.section.section_id
        if other in known or taken_from.get(sid, 0) >= per_section:
            continue
        known.add(other)
        taken_from[sid] = taken_from.get(sid, 0) + 1
        decay = DECAY["soft" if e.edge_type in SOFT_EDGES else "hard"]
        chosen.append(Step(other, e, source, source.score * decay * e.confidence))
    return chosen


def successors(
    frontier: Sequence[ScoredSection],
    edges: Sequence[GraphEdge],
    known: set[str],
    as_of: dt.date | None,
    decay: float = DECAY["version"],
) -> list[Step]:
    """For each superseded section, the section of the next version that replaces it
    (a section-level supersedes edge into it), at the section's own score times `decay` (for
    a stand-in the fitted "version" decay: the version in force answers the same question,
    reworded). Not when `as_of` falls in the section's own period, where the earlier version
    is the one in force. Adds the chosen sections to `known`."""
    chosen: list[Step] = []
    for source in frontier:
        s = source.section
        if not s.superseded or (as_of is not None and s.valid_on(as_of)):
            continue
        replacing = sorted(
            (
                e
                for e in edges
                if e.edge_type == "supersedes"
                and e.dst_section_id == s.section_id
                and e.src_section_id
                and e.src_section_id != s.section_id
            ),
            key=lambda e: (-e.confidence, e.edge_id),
        )
        for e in replacing[:1]:
            if e.src_section_id not in known:
                known.add(e.src_section_id or "")
                base = source.base * decay
                chosen.append(Step(e.src_section_id or "", e, source, base))
    return chosen
