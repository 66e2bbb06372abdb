"""The whole rule table, for the ways it is shown and scored (`raag rules`, `make graph-eval`,
the tests): the extraction rules of graph/, the heading rules of ingest/ and the items a
retrieval passage may span, each registered in `graph.rules.RULES` when its module is
imported."""

from raag_assets.graph import build  # noqa: F401  (imports every extraction module)
from raag_assets.graph.rules import RULES, RuleTable
from raag_assets.ingest import sectioning  # noqa: F401  (the heading rules)
from raag_assets.retrieval import passages  # noqa: F401  (the items a passage may span)


def all_rules() -> RuleTable:
    return RULES
