"""Relationship-aware enrichment of retrieval candidates, as pure functions: graph expansion,
graph-aware scoring with an explanation for every factor, and conflict detection.

`search.py` feeds these with rows from the store; nothing here touches the database.
"""

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from raag_assets.graph.keys import normalize_scope

# Expansion follows hard edges first; soft edges only one hop from a primary hit.
HARD_EDGES = ("overrides", "references", "depends_on", "uses_term", "precedes", "amends")
SOFT_EDGES = ("topically_related",)
# Sections that act on a hit are brought in too: what overrides or amends it.
INCOMING_EDGES = ("overrides", "amends")
DECAY = {"hard": 0.8, "soft": 0.5}  # an expanded section starts at its source's score x this
MAX_HOPS = 2
MAX_VERSION_STEPS = 5  # versions followed forward from a superseded hit (rev A -> B -> C)

BOOST = {
    "referenced_by_high_scorer": 1.15,
    "overrides_candidate": 1.2,
    "date_overlap": 1.15,
    "higher_authority": 1.1,
    "scope_match": 1.2,
    "uses_defined_term": 1.1,
    "named_document": 1.3,
}
PENALTY = {"superseded": 0.7, "scope_mismatch": 0.8}
YIELD_MARGIN = 0.95  # a conflict's loser ends at most this fraction of its winner's score
HIGH_SCORERS = 3  # "a high scorer" is one of the top primary hits
REFERENCED_BY = ("references", "depends_on", "precedes")


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
class Candidate:
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


@dataclass(frozen=True)
class Conflict:
    section_ids: tuple[str, str]
    kind: str  # "override" | "amendment" | "version"
    winner: str
    loser: str
    rule: str
    reason: str
    edge_id: str | None


# --- expansion --------------------------------------------------------------------------


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
    source: Candidate
    base: float


def expand(
    frontier: Sequence[Candidate],
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
    frontier: Sequence[Candidate],
    edges: Sequence[GraphEdge],
    known: set[str],
    as_of: dt.date | None,
) -> list[Step]:
    """For each superseded candidate, the section of the next version that replaces it
    (a section-level supersedes edge into it), at the candidate's own score: the version in
    force answers the same question. Not when `as_of` falls in the candidate's own period,
    where the earlier version is the one in force. Adds the chosen sections to `known`."""
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
                chosen.append(Step(e.src_section_id or "", e, source, source.base))
    return chosen


# --- scoring ----------------------------------------------------------------------------


def scope_matches(scope: str, context: str) -> bool:
    """'full-time employee' matches the context 'full-time' (and the reverse)."""
    a, b = set(normalize_scope(scope).split()), set(normalize_scope(context).split())
    return bool(a) and bool(b) and (a <= b or b <= a)


def score(
    candidates: Sequence[Candidate],
    edges: Sequence[GraphEdge],
    as_of: dt.date | None,
    scope_context: str | None,
) -> None:
    """Attach every boost and penalty, each naming its cause, to the candidates in place."""
    by_id = {c.section.section_id: c for c in candidates}
    primaries = sorted((c for c in candidates if c.hit), key=lambda c: -c.base)
    high = {c.section.section_id for c in primaries[:HIGH_SCORERS]}
    primary_ids = {c.section.section_id for c in primaries}
    authorities = {
        c.section.authority_level for c in candidates if c.section.authority_level is not None
    }
    top_authority = max(authorities) if len(authorities) > 1 else None
    for c in candidates:
        sid = c.section.section_id
        adj = _edge_boosts(sid, edges, by_id, high, primary_ids)
        valid = c.section.valid_on(as_of) if as_of else None
        if valid:
            adj.append(
                _boost("date_overlap", f"in force on {as_of.isoformat()} ({_range(c.section)})")
            )
        if top_authority is not None and c.section.authority_level == top_authority:
            adj.append(
                _boost(
                    "higher_authority", f"authority_level {top_authority}, highest among results"
                )
            )
        if scope_context and c.section.scopes:
            matching = [s for s in c.section.scopes if scope_matches(s, scope_context)]
            if matching:
                adj.append(_boost("scope_match", f"applies to {matching[0]!r}"))
            else:
                adj.append(
                    Adjustment(
                        "scope_mismatch",
                        PENALTY["scope_mismatch"],
                        f"applies to {', '.join(c.section.scopes)}, not {scope_context!r}",
                    )
                )
        if c.section.superseded and not valid:
            adj.append(
                Adjustment("superseded", PENALTY["superseded"], f"{c.section.doc_id} is superseded")
            )
        c.adjustments = adj


def boost_named(
    candidates: Sequence[Candidate], doc_ids: Sequence[str], words: Sequence[str]
) -> None:
    """Sections of the document the query names rank first among equals."""
    for c in candidates:
        if c.section.doc_id in doc_ids:
            c.adjustments.append(
                _boost("named_document", f"in {c.section.doc_id}, named by {' '.join(words)!r}")
            )


def _edge_boosts(
    sid: str,
    edges: Sequence[GraphEdge],
    by_id: dict[str, Candidate],
    high: set[str],
    primary_ids: set[str],
) -> list[Adjustment]:
    """Boosts an edge causes: referenced by a top hit, overriding another result, using a
    term a hit defines. Each kind once, from the first edge (edges come in id order)."""
    found: dict[str, Adjustment] = {}
    for e in edges:
        incoming = e.dst_section_id == sid and e.src_section_id != sid
        outgoing = e.src_section_id == sid and e.dst_section_id in by_id and e.dst_section_id != sid
        # What a top hit cites or depends on, and the step that follows a top hit's step, is
        # what its reader turns to next.
        if incoming and e.src_section_id in high and e.edge_type in REFERENCED_BY:
            found.setdefault(
                "referenced_by_high_scorer",
                _boost(
                    "referenced_by_high_scorer",
                    f"{e.edge_type} from a top hit: {e.matched_text!r}",
                    e,
                ),
            )
        if outgoing and e.edge_type == "overrides":
            target = by_id[e.dst_section_id or ""].section
            found.setdefault(
                "overrides_candidate",
                _boost("overrides_candidate", f"overrides {target.doc_id} § {target.label}", e),
            )
        if outgoing and e.edge_type == "uses_term" and e.dst_section_id in primary_ids:
            found.setdefault(
                "uses_defined_term",
                _boost("uses_defined_term", f"uses {e.term!r}, defined by a hit", e),
            )
    return [found[k] for k in BOOST if k in found]


def _boost(kind: str, detail: str, edge: GraphEdge | None = None) -> Adjustment:
    return Adjustment(kind, BOOST[kind], detail, edge.edge_id if edge else None)


def _range(s: SectionView) -> str:
    start = s.effective_from.isoformat() if s.effective_from else "…"
    end = s.effective_to.isoformat() if s.effective_to else "…"
    return f"{start} to {end}"


def ranked(candidates: Iterable[Candidate]) -> list[Candidate]:
    return sorted(
        candidates, key=lambda c: (-round(c.score, 12), c.section.doc_id, c.section.ordinal)
    )


# --- conflicts --------------------------------------------------------------------------

RULES = (
    "exact date/event match",
    "non-superseded over superseded",
    "higher authority_level",
    "explicit override edge",
    "scope match",
    "higher retrieval score",
)


def conflicts(
    candidates: Sequence[Candidate],
    edges: Sequence[GraphEdge],
    doc_edges: Sequence[GraphEdge],
    as_of: dt.date | None,
    scope_context: str | None,
) -> list[Conflict]:
    """Pairs of results that answer the same point differently, each resolved by the first
    rule that tells them apart, in the order of RULES."""
    by_id = {c.section.section_id: c for c in candidates}
    versions = {
        frozenset((e.src_doc_id, e.dst_doc_id))
        for e in doc_edges
        if e.edge_type == "supersedes" and e.dst_doc_id
    }
    pairs: dict[frozenset[str], tuple[str, GraphEdge | None]] = {}
    for e in edges:
        if (
            e.src_section_id in by_id
            and e.dst_section_id in by_id
            and e.src_section_id != e.dst_section_id
        ) and e.edge_type in ("overrides", "amends"):
            kind = "override" if e.edge_type == "overrides" else "amendment"
            pairs.setdefault(frozenset((e.src_section_id, e.dst_section_id)), (kind, e))
    for e in edges:  # section-level version links: the new clause and the one it replaced
        if (
            e.edge_type == "supersedes"
            and e.src_section_id in by_id
            and e.dst_section_id in by_id
            and e.src_section_id != e.dst_section_id
        ):
            pairs.setdefault(frozenset((e.src_section_id, e.dst_section_id)), ("version", e))
    ids = sorted(by_id)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            sa, sb = by_id[a].section, by_id[b].section
            same_point = sa.label == sb.label or sa.heading.casefold() == sb.heading.casefold()
            if frozenset((sa.doc_id, sb.doc_id)) in versions and same_point:
                pairs.setdefault(frozenset((a, b)), ("version", None))
    out = []
    for pair, (kind, edge) in sorted(pairs.items(), key=lambda p: sorted(p[0])):
        a, b = sorted(pair)
        winner, rule, reason = resolve(by_id[a], by_id[b], edges, as_of, scope_context)
        loser = b if winner == a else a
        out.append(
            Conflict((a, b), kind, winner, loser, rule, reason, edge.edge_id if edge else None)
        )
    return out


def resolve(
    a: Candidate,
    b: Candidate,
    edges: Sequence[GraphEdge],
    as_of: dt.date | None,
    scope_context: str | None,
) -> tuple[str, str, str]:
    """(winner section_id, rule, reason) for two conflicting results."""
    sa, sb = a.section, b.section
    name = {sa.section_id: f"{sa.doc_id} § {sa.label}", sb.section_id: f"{sb.doc_id} § {sb.label}"}
    if as_of:
        va, vb = sa.valid_on(as_of), sb.valid_on(as_of)
        if {va, vb} == {True, False}:  # one in force, the other stated out of force
            w = sa if va else sb
            return (
                w.section_id,
                RULES[0],
                f"only {name[w.section_id]} is in force on {as_of.isoformat()}",
            )
    if sa.superseded != sb.superseded:
        w = sb if sa.superseded else sa
        return w.section_id, RULES[1], f"{name[w.section_id]} is the current version"
    if (sa.authority_level or 0) != (sb.authority_level or 0):
        w = sa if (sa.authority_level or 0) > (sb.authority_level or 0) else sb
        return (
            w.section_id,
            RULES[2],
            f"{name[w.section_id]} has authority_level {w.authority_level}",
        )
    for e in edges:
        if e.edge_type == "overrides" and {e.src_section_id, e.dst_section_id} == {
            sa.section_id,
            sb.section_id,
        }:
            return (
                e.src_section_id or "",
                RULES[3],
                f"{name[e.src_section_id or '']} says {e.matched_text!r}",
            )
    if scope_context:
        ma = any(scope_matches(s, scope_context) for s in sa.scopes)
        mb = any(scope_matches(s, scope_context) for s in sb.scopes)
        if ma != mb:
            w = sa if ma else sb
            return w.section_id, RULES[4], f"{name[w.section_id]} applies to {scope_context!r}"
    w = (
        a
        if (round(a.score, 12), b.section.section_id) >= (round(b.score, 12), a.section.section_id)
        else b
    )
    return (
        w.section.section_id,
        RULES[5],
        f"{name[w.section.section_id]} scored higher ({w.score:.4f})",
    )


def order_conflicts(candidates: Sequence[Candidate], found: Sequence[Conflict]) -> None:
    """Make every conflict's winner outrank its loser: a loser scoring at least its winner
    gets a `yields` factor bringing it just below (chains settle in a few passes)."""
    by_id = {c.section.section_id: c for c in candidates}
    for _ in range(len(found) + 1):
        changed = False
        for f in found:
            winner, loser = by_id[f.winner], by_id[f.loser]
            if loser.score < winner.score or loser.score <= 0:
                continue
            factor = round(YIELD_MARGIN * winner.score / loser.score, 6)
            w = winner.section
            loser.adjustments.append(
                Adjustment(
                    "yields", factor, f"yields to {w.doc_id} § {w.label} ({f.rule})", f.edge_id
                )
            )
            changed = True
        if not changed:
            return
