"""Scoring and conflict rules as pure functions: each boost, each penalty, each conflict rule
in its order."""

import datetime as dt

import pytest

from raag_assets.retrieval import scoring
from raag_assets.retrieval.model import ScoredSection
from tests.retrieval.builders import edge, hit, section

D = dt.date


def kinds(c: ScoredSection) -> list[str]:
    return [a.kind for a in c.adjustments]


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
    scoring.score([top, x], edges, D(2025, 1, 1), "full-time")
    [adj] = [a for a in x.adjustments if a.kind == kind]
    assert adj.factor == scoring.BOOST[kind] > 1
    assert adj.detail
    if edges:
        assert adj.edge_id == "e"
    assert x.score == pytest.approx(0.02 * adj.factor)


def test_penalties_superseded_and_scope_mismatch():
    old = hit(section("old", superseded=True, scopes=("part-time employee",)), 0.03)
    scoring.score([old], [], None, "full-time")
    assert kinds(old) == ["scope_mismatch", "superseded"]
    assert old.score == pytest.approx(
        0.03 * scoring.PENALTY["scope_mismatch"] * scoring.PENALTY["superseded"]
    )


def test_superseded_version_is_not_penalised_when_in_force_on_the_date_asked():
    old = hit(section("old", superseded=True, start=D(2021, 1, 1), end=D(2023, 12, 31)), 0.03)
    scoring.score([old], [], D(2022, 6, 1), None)
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
    assert scoring.resolve(a, b, over, D(2024, 6, 1), None)[:2] == ("a", scoring.RULES[0])
    # 2. both in force: the one not superseded
    a.section = section("a", doc="policy", label="4.1", superseded=True)
    assert scoring.resolve(a, b, over, D(2025, 6, 1), None)[:2] == ("b", scoring.RULES[1])
    # 3. higher authority
    a, b = _pair(authority=60)
    assert scoring.resolve(a, b, over, None, None)[:2] == ("b", scoring.RULES[2])
    # 4. explicit override edge
    a, b = _pair()
    assert scoring.resolve(a, b, over, None, None)[:2] == ("b", scoring.RULES[3])
    # 5. scope match
    a, b = _pair(scopes=("part-time employee",))
    assert scoring.resolve(a, b, [], None, "part-time")[:2] == ("b", scoring.RULES[4])
    # 6. retrieval score
    a, b = _pair()
    assert scoring.resolve(a, b, [], None, None)[:2] == ("a", scoring.RULES[5])


def test_conflicts_are_found_between_overrides_amendments_and_versions():
    a = hit(section("a", doc="policy", label="4.1"), 0.03)
    b = hit(section("b", doc="amendment", label="2"), 0.02)
    old = hit(section("c", doc="policy-rev-a", label="4.1", superseded=True), 0.025)
    unrelated = hit(section("d", doc="other", label="4.1"), 0.01)
    edges = [edge("o", "overrides", "b", "a")]
    doc_edges = [edge("s", "supersedes", None, None, src_doc="policy", dst_doc="policy-rev-a")]
    found = scoring.conflicts([a, b, old, unrelated], edges, doc_edges, None, None)
    assert [(f.section_ids, f.kind, f.winner) for f in found] == [
        (("a", "b"), "override", "b"),
        (("a", "c"), "version", "a"),
    ]


def test_a_scope_the_rule_leaves_out_excludes_the_context_it_names():
    assert not scoring.scope_matches("does not apply to contractors", "contractor")
    assert scoring.scope_excludes("does not apply to contractors", "contractor")
    assert scoring.scope_excludes("not hardware maintenance", "hardware maintenance")
    assert not scoring.scope_excludes("not hardware maintenance", "software updates")
    left_out = hit(section("n", scopes=("does not apply to contractors",)), 0.03)
    scoring.score([left_out], [], None, "contractor")
    assert kinds(left_out) == ["scope_mismatch"]


def test_a_scope_of_another_kind_neither_matches_nor_excludes_the_context():
    assert scoring.scope_excludes("part-time employee", "full-time")
    assert not scoring.scope_excludes("employee who is pregnant", "full-time")
    assert not scoring.scope_excludes("full-time employee", "full-time")
    pregnant = hit(section("m", scopes=("employee who is pregnant",)), 0.03)
    scoring.score([pregnant], [], None, "full-time")
    assert kinds(pregnant) == []


def expanded(s, score: float, source: str = "h0") -> ScoredSection:
    return ScoredSection(s, 1, score, via_from=source)


def test_an_expanded_section_takes_a_hit_s_place_only_on_evidence_as_strong():
    hits = [hit(section(f"h{n}"), 1.0 - n / 10) for n in range(3)]  # 1.0, 0.9, 0.8
    weak = expanded(section("weak"), 0.85)  # above the last hit of k=3, within the margin
    strong = expanded(section("strong"), 1.7)  # 0.8 x 2 = 1.6: beats it by the margin
    pool = [*hits, weak, strong]
    scoring.hold_back(pool, 3, 2.0)
    assert "held_back" in kinds(weak) and weak.score < 0.8
    assert kinds(strong) == [] and strong.score == pytest.approx(1.7)
    top3 = [c.section.section_id for c in scoring.ranked(pool)[:3]]
    assert top3 == ["strong", "h0", "h1"]  # the hit h2 leaves for evidence, not for 'weak'


def test_hold_back_leaves_free_places_and_conflict_winners_alone():
    hits = [hit(section("h0"), 1.0), hit(section("h1"), 0.9)]
    extra = expanded(section("extra"), 0.95)
    scoring.hold_back([*hits, extra], 3, 2.0)  # two hits for three places: one is free
    assert kinds(extra) == []
    winner = expanded(section("winner"), 0.95)
    scoring.hold_back([*hits, winner], 2, 2.0, {"winner"})  # it overrides a result
    assert kinds(winner) == []
    scoring.hold_back([*hits, winner], 2, 2.0)
    assert kinds(winner) == ["held_back"]
