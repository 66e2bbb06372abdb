"""Step forms as rules: sections headed "Step N" and "after / before Step N" in a text make
`precedes` edges that carry their rule's id."""

from pathlib import Path

from raag_assets.graph.steps import step_mentions, step_sequences
from tests.graph._texts import corpus, policy, rule_ids


def test_steps_of_a_procedure_name_their_rule(tmp_path: Path) -> None:
    sections = policy(tmp_path)
    steps = corpus(sections)
    sequence = step_sequences(sections)
    mentions = [e for s in sections for e in step_mentions(s, steps)]
    assert rule_ids(sequence) == {"precedes.step_sequence"}
    assert rule_ids(mentions) == {"precedes.step_mention"}
    label = {s.section_id: s.label for s in sections}
    pairs = lambda edges: [(label[e.src_section_id], label[e.dst_section_id]) for e in edges]  # noqa: E731
    assert pairs(sequence) == [("Step 1", "Step 2"), ("Step 2", "Step 3"), ("Step 3", "Step 4")]
    assert pairs(mentions) == [("Step 1", "Step 2"), ("Step 3", "Step 4")]
