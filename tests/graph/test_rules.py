"""The rule table: every rule is well formed, and its examples are its tests: each example
matches its pattern and each counter-example does not."""

import pytest

from raag_assets.core.model import EDGE_TYPES
from raag_assets.graph.overlaps import inside, longest_first, overlaps
from raag_assets.graph.rules import KINDS, Rule, RuleTable
from raag_assets.quality.rules import all_rules

TABLE = list(all_rules())


def test_the_table_holds_the_extraction_rules() -> None:
    assert len(TABLE) == len({r.id for r in TABLE})
    for r in TABLE:
        assert r.kind in KINDS, r.id
        assert r.edge_type is None or r.edge_type in EDGE_TYPES, r.id
        assert r.confidence is None or 0 < r.confidence <= 1, r.id
        assert r.doc, f"{r.id} says nothing of what it recognises"


@pytest.mark.parametrize("r", [r for r in TABLE if r.pattern is not None], ids=lambda r: r.id)
def test_pattern_rules_match_their_examples(r: Rule) -> None:
    assert r.examples, f"{r.id} has a pattern but no example"
    for text in r.examples:
        assert r.search(text), f"{r.id} misses its example {text!r}"
    for text in r.counter:
        assert not r.search(text), f"{r.id} matches its counter-example {text!r}"


def test_a_rule_stamps_its_edges() -> None:
    probe = Rule("references.probe", "citation", "a probe", edge_type="references", confidence=0.9)
    e = probe.edge(src_doc_id="d", src_section_id="s", matched_text="x", normalized_target="x")
    assert (e.rule, e.edge_type, e.layer, e.confidence) == (
        "references.probe",
        "references",
        1,
        0.9,
    )
    with pytest.raises(ValueError, match="registered twice"):
        RuleTable().add(probe, probe)
    with pytest.raises(ValueError, match="not an edge type"):
        RuleTable().add(Rule("x.y", "cue", "bad", edge_type="likes"))


def test_longest_match_wins_an_overlap() -> None:
    spans = [(0, 5), (3, 12), (12, 14), (20, 22), (20, 22)]
    assert longest_first(spans, lambda s: s) == [(3, 12), (12, 14), (20, 22)]
    assert overlaps(4, 6, [(5, 9)]) and not overlaps(4, 5, [(5, 9)])
    assert inside(5, [(5, 9)]) and not inside(9, [(5, 9)])
