"""Graph expansion, scoring and conflict rules as pure functions: each boost, each penalty,
each conflict rule in its order."""

import datetime as dt

import pytest

from raag_assets.retrieval import scoring as enrich
from raag_assets.retrieval.scoring import Candidate, GraphEdge, Hit, SectionView

D = dt.date


def section(sid: str, doc: str = "doc", **kw) -> SectionView:
    fields = {
        "section_id": sid,
        "doc_id": doc,
        "ordinal": int(kw.pop("ordinal", 0)),
        "label": kw.pop("label", sid),
        "heading": kw.pop("heading", f"Heading {sid}"),
        "text": "text",
        "page_start": None,
        "page_end": None,
        "parent_id": None,
        "title": None,
        "authority_level": kw.pop("authority", None),
        "effective_from": kw.pop("start", None),
        "effective_to": kw.pop("end", None),
    }
    return SectionView(**fields, **kw)


def edge(
    eid: str, kind: str, src: str | None, dst: str | None, conf: float = 1.0, **kw
) -> GraphEdge:
    return GraphEdge(
        eid,
        kind,
        1,
        kw.pop("src_doc", "doc"),
        src,
        kw.pop("dst_doc", "doc"),
        dst,
        kw.pop("term", None),
        None,
        None,
        None,
        kw.pop("text", kind),
        "",
        conf,
        None,
    )


def hit(s: SectionView, score: float) -> Candidate:
    return Candidate(s, 0, score, hit=Hit(s.section_id, score, 1, 1, 0))


def kinds(c: Candidate) -> list[str]:
    return [a.kind for a in c.adjustments]


def test_expansion_follows_hard_edges_before_soft_and_respects_limits():
    a = hit(section("a"), 0.03)
    edges = [
        edge("e1", "topically_related", "a", "t", 0.9),
        edge("e2", "references", "a", "r"),
        edge("e3", "uses_term", "a", "d"),
        edge("e4", "overrides", "o", "a"),  # incoming: a section overriding a hit comes in
    ]
    chosen = enrich.expand([a], edges, {"a"}, budget=10, per_section=10)
    assert [step.section_id for step in chosen] == ["o", "r", "d", "t"]
    assert chosen[0].edge.edge_id == "e4" and chosen[0].base == pytest.approx(0.03 * 0.8)
    assert chosen[-1].base == pytest.approx(0.03 * 0.5 * 0.9)  # soft edges decay more
    assert [s.section_id for s in enrich.expand([a], edges, {"a"}, budget=2, per_section=10)] == [
        "o",
        "r",
    ]
    assert len(enrich.expand([a], edges, {"a"}, budget=10, per_section=1)) == 1


def test_soft_edges_only_one_hop_from_a_primary():
    expanded = Candidate(section("x"), 1, 0.02)
    edges = [edge("e1", "topically_related", "x", "t"), edge("e2", "references", "x", "r")]
    assert [s.section_id for s in enrich.expand([expanded], edges, {"x"}, 10, 10)] == ["r"]


@pytest.mark.parametrize(
    ("kind", "setup"),
    [
        ("referenced_by_high_scorer", lambda: ([edge("e", "references", "top", "x")], {})),
        ("overrides_candidate", lambda: ([edge("e", "overrides", "x", "top")], {})),
        (
            "uses_defined_term",
            lambda: ([edge("e", "uses_term", "x", "top", term="Leave Year")], {}),
        ),
        ("date_overlap", lambda: ([], {"start": D(2024, 1, 1)})),
        ("higher_authority", lambda: ([], {"authority": 60})),
        ("scope_match", lambda: ([], {"scopes": ("full-time employee",)})),
    ],
)
def test_each_boost_names_its_cause(kind, setup):
    edges, extra = setup()
    top = hit(section("top", authority=50), 0.03)
    x = hit(section("x", **extra), 0.02)
    enrich.score([top, x], edges, D(2025, 1, 1), "full-time")
    [adj] = [a for a in x.adjustments if a.kind == kind]
    assert adj.factor == enrich.BOOST[kind] > 1
    assert adj.detail
    if edges:
        assert adj.edge_id == "e"
    assert x.score == pytest.approx(0.02 * adj.factor)


def test_penalties_superseded_and_scope_mismatch():
    old = hit(section("old", superseded=True, scopes=("part-time employee",)), 0.03)
    enrich.score([old], [], None, "full-time")
    assert kinds(old) == ["scope_mismatch", "superseded"]
    assert old.score == pytest.approx(0.03 * 0.8 * 0.7)


def test_superseded_version_is_not_penalised_when_in_force_on_the_date_asked():
    old = hit(section("old", superseded=True, start=D(2021, 1, 1), end=D(2023, 12, 31)), 0.03)
    enrich.score([old], [], D(2022, 6, 1), None)
    assert kinds(old) == ["date_overlap"]


def _pair(**b_kw):
    a = hit(section("a", doc="policy", label="4.1"), 0.03)
    b = hit(section("b", doc="amendment", label="2", **b_kw), 0.02)
    return a, b


def test_conflict_rules_apply_in_order():
    over = [edge("o", "overrides", "b", "a")]
    # 1. exact date: only a is in force on the date asked, though b overrides it
    a, b = _pair(start=D(2025, 3, 1), authority=60)
    a.section = section("a", doc="policy", label="4.1", start=D(2024, 1, 1))
    assert enrich.resolve(a, b, over, D(2024, 6, 1), None)[:2] == ("a", enrich.RULES[0])
    # 2. both in force: the one not superseded
    a.section = section("a", doc="policy", label="4.1", superseded=True)
    assert enrich.resolve(a, b, over, D(2025, 6, 1), None)[:2] == ("b", enrich.RULES[1])
    # 3. higher authority
    a, b = _pair(authority=60)
    assert enrich.resolve(a, b, over, None, None)[:2] == ("b", enrich.RULES[2])
    # 4. explicit override edge
    a, b = _pair()
    assert enrich.resolve(a, b, over, None, None)[:2] == ("b", enrich.RULES[3])
    # 5. scope match
    a, b = _pair(scopes=("part-time employee",))
    assert enrich.resolve(a, b, [], None, "part-time")[:2] == ("b", enrich.RULES[4])
    # 6. retrieval score
    a, b = _pair()
    assert enrich.resolve(a, b, [], None, None)[:2] == ("a", enrich.RULES[5])


def test_conflicts_are_found_between_overrides_amendments_and_versions():
    a = hit(section("a", doc="policy", label="4.1"), 0.03)
    b = hit(section("b", doc="amendment", label="2"), 0.02)
    old = hit(section("c", doc="policy-rev-a", label="4.1", superseded=True), 0.025)
    unrelated = hit(section("d", doc="other", label="4.1"), 0.01)
    edges = [edge("o", "overrides", "b", "a")]
    doc_edges = [edge("s", "supersedes", None, None, src_doc="policy", dst_doc="policy-rev-a")]
    found = enrich.conflicts([a, b, old, unrelated], edges, doc_edges, None, None)
    assert [(f.section_ids, f.kind, f.winner) for f in found] == [
        (("a", "b"), "override", "b"),
        (("a", "c"), "version", "a"),
    ]
