"""Layer 2 relations as structural rules: every edge the parse makes over a policy and a
licence carries the id of its rule (layer 2, the rule's confidence)."""

from pathlib import Path

from raag_assets.graph import nlp
from raag_assets.graph.build import layer1
from resources.nlp import load_pipeline
from tests.graph._texts import corpus, licence, policy, rule_ids


def test_every_parse_relation_names_its_rule(tmp_path: Path) -> None:
    parse = load_pipeline("en_core_web_sm")
    sections = [*policy(tmp_path), *licence("MPL-2.0")]
    both = corpus(sections)
    edges = []
    for section, doc in zip(sections, parse.pipe(s.text for s in sections), strict=True):
        made, _, mentions = layer1(section, both)
        edges += nlp.layer2(section, doc, both, mentions, made)
    assert rule_ids(edges) == {
        "references.parse_positional",
        "depends_on.parse_condition",
        "applies_to_scope.parse_subject",
    }
    assert {e.layer for e in edges} == {2}
