"""The whole rule table, for the ways it is shown and scored (`raag rules`, `make graph-eval`,
the tests): the extraction rules of graph/ and the heading rules of ingest/, each registered in
`graph.rules.RULES` when its module is imported."""

from raag_assets.graph import build  # noqa: F401  (imports every extraction module)
from raag_assets.graph.rules import RULES, RuleTable
from raag_assets.ingest import sectioning  # noqa: F401  (the heading rules)


def all_rules() -> RuleTable:
    return RULES
