"""Scoring and conflicts, as pure functions over the result pool: graph-aware boosts and
penalties, each explained (an edge that causes one is named with its rule), then conflicts
between results, each resolved by the first rule that tells the two apart, its winner made
to outrank its loser. Nothing here touches the database.
"""

import datetime as dt
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from raag_assets.graph.keys import normalize_scope
from raag_assets.retrieval.model import Adjustment, GraphEdge, Pool, ScoredSection, SectionView
from raag_assets.retrieval.query import DocumentResolution
from raag_assets.retrieval.weights import WEIGHTS

BOOST = WEIGHTS.boost  # the fitted factors (weights.json); a caller may pass others
PENALTY = WEIGHTS.penalty
RELEVANCE = WEIGHTS.relevance
YIELD_MARGIN = 0.95  # a conflict's loser ends at most this fraction of its winner's score
HIGH_SCORERS = 3  # "a high scorer" is one of the top primary hits
REFERENCED_BY = ("references", "depends_on", "precedes")


@dataclass(frozen=True)
class Conflict:
    section_ids: tuple[str, str]
    kind: str  # "override" | "amendment" | "version"
    winner: str
    loser: str
    rule: str
    reason: str
    edge_id: str | None


def score_and_resolve(
    pool: Pool,
    as_of: dt.date | None,
    scope_context: str | None,
    named: DocumentResolution | None = None,
    asked: Sequence[str] = (),
    k: int | None = None,
) -> tuple[list[ScoredSection], list[Conflict]]:
    """The pool's sections best first, every boost and penalty attached, and the conflicts
    among them, each winner outranking its loser. A document the query asks for by name
    (`named`, or "in document X": `asked`) answers as in force, even an earlier version.
    With `k` (the results asked), a section expansion brought in takes one of the first `k`
    places from a primary hit only on evidence as strong (`hold_back`)."""
    wanted = {*asked, *(named.doc_ids if named else ())}
    for c in pool.sections:
        if c.section.superseded and c.section.doc_id in wanted:
            c.section = replace(c.section, superseded=False)
    calibrate(pool.sections, RELEVANCE["exponent"])
    score(pool.sections, pool.edges, as_of, scope_context)
    if named:
        boost_named(pool.sections, named.doc_ids, named.words)
    else:
        prefer_later(pool.sections, pool.doc_edges)
    after_sources(pool.sections, RELEVANCE["source_cap"])
    ordered = ranked(pool.sections)
    found = conflicts(ordered, pool.edges, pool.doc_edges, as_of, scope_context)
    if k is not None:
        hold_back(ordered, k, RELEVANCE.get("displace_margin", 1.0), {f.winner for f in found})
    order_conflicts(ordered, found)
    return ranked(ordered), found


# --- scoring ----------------------------------------------------------------------------


def calibrate(sections: Sequence[ScoredSection], exponent: float) -> None:
    """Relevance on one scale before the graph factors apply: a section's base over the best
    hit's (1.0 for the best), to the fitted power, so a boost's size means the same against
    any query's spread of retrieval scores."""
    top = max((c.base for c in sections if c.hit), default=0.0)
    if top <= 0:
        return
    for c in sections:
        c.base = (c.base / top) ** exponent


# A scope the rule leaves out, as the graph writes it ("does not apply to contractors", "not
# hardware maintenance"): it excludes what it names, never matches it.
_NEGATED = re.compile(r"^(?:does\s+)?not\s+(?:apply\s+to\s+)?", re.IGNORECASE)


def scope_matches(scope: str, context: str) -> bool:
    """'full-time employee' matches the context 'full-time' (and the reverse); a scope the
    rule leaves out matches nothing."""
    if _NEGATED.match(scope):
        return False
    a, b = set(normalize_scope(scope).split()), set(normalize_scope(context).split())
    return bool(a) and bool(b) and (a <= b or b <= a)


_SCOPE_WORD = re.compile(r"[a-z0-9]+")
_SCOPE_STOP = {"who", "is", "are", "in", "of", "the", "a", "an", "to", "for", "and", "or", "with"}


def _scope_words(scope: str) -> set[str]:
    return set(_SCOPE_WORD.findall(normalize_scope(scope))) - _SCOPE_STOP


def scope_excludes(scope: str, context: str) -> bool:
    """'part-time employee' excludes the context 'full-time': the two speak of one thing
    (a word in common, "time") and neither contains the other. 'employee who is pregnant'
    speaks of something else and neither matches nor excludes 'full-time'. 'does not apply
    to contractors' excludes what 'contractors' would match."""
    if negated := _NEGATED.match(scope):
        return scope_matches(scope[negated.end() :], context)
    a, b = _scope_words(scope), _scope_words(context)
    return bool(a & b) and not (a <= b or b <= a)


def score(
    sections: Sequence[ScoredSection],
    edges: Sequence[GraphEdge],
    as_of: dt.date | None,
    scope_context: str | None,
) -> None:
    """Attach every boost and penalty, each naming its cause, to the sections in place."""
    by_id = {c.section.section_id: c for c in sections}
    primaries = sorted((c for c in sections if c.hit), key=lambda c: -c.base)
    high = {c.section.section_id for c in primaries[:HIGH_SCORERS]}
    primary_ids = {c.section.section_id for c in primaries}
    authorities = {
        c.section.authority_level for c in sections if c.section.authority_level is not None
    }
    top_authority = max(authorities) if len(authorities) > 1 else None
    for c in sections:
        sid = c.section.section_id
        adj = _edge_boosts(sid, edges, by_id, high, primary_ids)
        valid = c.section.valid_on(as_of) if as_of else None
        if valid and as_of is not None:
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
            elif any(scope_excludes(s, scope_context) for s in c.section.scopes):
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
    sections: Sequence[ScoredSection], doc_ids: Sequence[str], words: Sequence[str]
) -> None:
    """Sections of the document the query names rank first among equals."""
    for c in sections:
        if c.section.doc_id in doc_ids:
            c.adjustments.append(
                _boost("named_document", f"in {c.section.doc_id}, named by {' '.join(words)!r}")
            )


def after_sources(sections: Sequence[ScoredSection], cap: float) -> None:
    """A section expansion brought in scores at most `cap` times the section it was reached
    from (fitted; below 1 it ranks after it): context follows the hit that led to it, so
    expansion adds answers without pushing the hits out."""
    by_id = {c.section.section_id: c for c in sections}
    for c in sorted(sections, key=lambda c: c.depth):
        source = by_id.get(c.via_from or "")
        if c.depth == 0 or source is None or c.score <= cap * source.score or c.score <= 0:
            continue
        s = source.section
        c.adjustments.append(
            Adjustment(
                "after_source",
                round(cap * source.score / c.score, 6),
                f"placed after {s.doc_id} § {s.label}, which it was reached from",
            )
        )


def hold_back(
    sections: Sequence[ScoredSection], k: int, margin: float, winners: Collection[str] = ()
) -> None:
    """A section expansion brought in (a hop away: not a hit, nor a version in force standing
    in for one) ranks after the primary hits that fill the first `k` places unless it scores
    at least `margin` (fitted) times the last of them: its score comes from its source's, so
    without that much more it would push out a hit the query itself found, for a guess. A
    conflict's winner (`winners`: it overrides or amends a result) keeps its place."""
    primary = sorted((c.score for c in sections if c.depth == 0), reverse=True)
    if len(primary) < k:
        return  # free places: what expansion brings takes them
    last = primary[k - 1]
    for c in sections:
        sid = c.section.section_id
        if c.depth == 0 or sid in winners or c.score <= 0 or c.score < last:
            continue
        if c.score >= margin * last:
            continue
        c.adjustments.append(
            Adjustment(
                "held_back",
                round(YIELD_MARGIN * last / c.score, 6),
                f"brought in by expansion, below {margin} x the primary hit it would displace",
            )
        )


def prefer_later(sections: Sequence[ScoredSection], doc_edges: Sequence[GraphEdge]) -> None:
    """Of two versions that both stay in force (GPL-2 and GPL-3), the later one's sections
    rank first among equals when the query names neither."""
    present = {c.section.doc_id for c in sections}
    later = {
        e.src_doc_id: e.dst_doc_id
        for e in doc_edges
        if e.edge_type == "supersedes"
        and e.dst_section_id is None
        and e.dst_doc_id in present
        and e.src_doc_id in present
    }
    for c in sections:
        earlier = later.get(c.section.doc_id)
        if earlier and not c.section.superseded:
            c.adjustments.append(_boost("later_version", f"a later version of {earlier}"))


def _edge_boosts(
    sid: str,
    edges: Sequence[GraphEdge],
    by_id: dict[str, ScoredSection],
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
                    f"{e.named} from a top hit: {e.matched_text!r}",
                    e,
                ),
            )
        if outgoing and e.edge_type == "overrides":
            target = by_id[e.dst_section_id or ""].section
            found.setdefault(
                "overrides_candidate",
                _boost(
                    "overrides_candidate",
                    f"overrides {target.doc_id} § {target.label}{e.by_rule}",
                    e,
                ),
            )
        if outgoing and e.edge_type == "uses_term" and e.dst_section_id in primary_ids:
            found.setdefault(
                "uses_defined_term",
                _boost("uses_defined_term", f"uses {e.term!r}{e.by_rule}, defined by a hit", e),
            )
    return [found[k] for k in BOOST if k in found]


def _boost(kind: str, detail: str, edge: GraphEdge | None = None) -> Adjustment:
    return Adjustment(kind, BOOST[kind], detail, edge.edge_id if edge else None)


def _range(s: SectionView) -> str:
    start = s.effective_from.isoformat() if s.effective_from else "…"
    end = s.effective_to.isoformat() if s.effective_to else "…"
    return f"{start} to {end}"


def ranked(sections: Iterable[ScoredSection]) -> list[ScoredSection]:
    return sorted(
        sections, key=lambda c: (-round(c.score, 12), c.section.doc_id, c.section.ordinal)
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
    sections: Sequence[ScoredSection],
    edges: Sequence[GraphEdge],
    doc_edges: Sequence[GraphEdge],
    as_of: dt.date | None,
    scope_context: str | None,
) -> list[Conflict]:
    """Pairs of results that answer the same point differently, each resolved by the first
    rule that tells them apart, in the order of RULES."""
    by_id = {c.section.section_id: c for c in sections}
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
            and by_id[e.dst_section_id].section.superseded
        ):
            pairs.setdefault(frozenset((e.src_section_id, e.dst_section_id)), ("version", e))
    ids = sorted(by_id)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            sa, sb = by_id[a].section, by_id[b].section
            same_point = sa.label == sb.label or sa.heading.casefold() == sb.heading.casefold()
            replaced = sa.superseded or sb.superseded  # not two versions both in force
            if frozenset((sa.doc_id, sb.doc_id)) in versions and same_point and replaced:
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
    a: ScoredSection,
    b: ScoredSection,
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
                f"{name[e.src_section_id or '']} says {e.matched_text!r}{e.by_rule}",
            )
    if scope_context:
        ma = any(scope_matches(s, scope_context) for s in sa.scopes)
        mb = any(scope_matches(s, scope_context) for s in sb.scopes)
        if ma != mb:
            w = sa if ma else sb
            return w.section_id, RULES[4], f"{name[w.section_id]} applies to {scope_context!r}"
    best = (
        a
        if (round(a.score, 12), b.section.section_id) >= (round(b.score, 12), a.section.section_id)
        else b
    )
    return (
        best.section.section_id,
        RULES[5],
        f"{name[best.section.section_id]} scored higher ({best.score:.4f})",
    )


def order_conflicts(sections: Sequence[ScoredSection], found: Sequence[Conflict]) -> None:
    """Make every conflict's winner outrank its loser: a loser scoring at least its winner
    gets a `yields` factor bringing it just below (chains settle in a few passes)."""
    by_id = {c.section.section_id: c for c in sections}
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
