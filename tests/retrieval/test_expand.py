"""Graph expansion's choices as pure functions: hard edges before soft, budgets, versions in
force."""

import datetime as dt

import pytest

from raag_assets.retrieval import expand
from raag_assets.retrieval.model import ScoredSection
from tests.retrieval.builders import edge, hit, section

D = dt.date


def test_expansion_follows_hard_edges_before_soft_and_respects_limits():
    a = hit(section("a"), 0.03)
    edges = [
        edge("e1", "topically_related", "a", "t", 0.9),
        edge("e2", "references", "a", "r"),
        edge("e3", "uses_term", "a", "d"),
        edge("e4", "overrides", "o", "a"),  # incoming: a section overriding a hit comes in
    ]
    chosen = expand.hop([a], edges, {"a"}, budget=10, per_section=10)
    assert [step.section_id for step in chosen] == ["o", "r", "d", "t"]
    assert chosen[0].edge.edge_id == "e4" and chosen[0].base == pytest.approx(
        0.03 * expand.DECAY["hard"]
    )
    # soft edges decay more
    assert chosen[-1].base == pytest.approx(0.03 * expand.DECAY["soft"] * 0.9)
    assert [s.section_id for s in expand.hop([a], edges, {"a"}, budget=2, per_section=10)] == [
        "o",
        "r",
    ]
    assert len(expand.hop([a], edges, {"a"}, budget=10, per_section=1)) == 1


def test_soft_edges_only_one_hop_from_a_primary():
    expanded = ScoredSection(section("x"), 1, 0.02)
    edges = [edge("e1", "topically_related", "x", "t"), edge("e2", "references", "x", "r")]
    assert [s.section_id for s in expand.hop([expanded], edges, {"x"}, 10, 10)] == ["r"]


def test_a_superseded_section_is_followed_to_its_version_in_force():
    old = hit(section("old", superseded=True, start=D(2021, 1, 1), end=D(2023, 12, 31)), 0.03)
    edges = [edge("s", "supersedes", "new", "old", 0.9)]
    [step] = expand.successors([old], edges, {"old"}, None)
    assert (step.section_id, step.edge.edge_id, step.base) == ("new", "s", 0.03)
    # not when the date asked falls in the old version's own period
    assert expand.successors([old], edges, {"old"}, D(2022, 6, 1)) == []
