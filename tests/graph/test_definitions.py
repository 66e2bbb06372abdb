"""Definition forms as rules: every `defines` edge over real licences and a policy carries the
id of its form, and the split definitions() keeps each form's terms in the old order."""

from pathlib import Path

import pytest

from raag_assets.core.model import SectionInfo
from raag_assets.graph.definitions import definitions, states_definition
from tests.graph._texts import licence, policy, rule_ids


def _defined(sections: list[SectionInfo]) -> set[str]:
    return rule_ids(e for s in sections for e in definitions(s))


@pytest.mark.parametrize(
    ("name", "forms"),
    [
        ("GPL-3", {"defines.quoted_means", "defines.called", "defines.verbal"}),
        ("Apache-2.0", {"defines.quoted_means", "defines.parenthetical"}),
        ("MPL-2.0", {"defines.quoted_means", "defines.parenthetical"}),
    ],
)
def test_every_definition_in_a_licence_names_its_form(name: str, forms: set[str]) -> None:
    assert _defined(licence(name)) == forms


def test_every_definition_in_a_policy_names_its_form(tmp_path: Path) -> None:
    assert _defined(policy(tmp_path)) == {
        "defines.term_list",
        "defines.referred_to_as",
        "defines.parenthetical",
        "defines.each_such",
        "defines.headed_entry",
        "defines.heading_term",
    }


def test_terms_come_in_form_order_with_their_rule() -> None:
    text = (
        'Acme Ltd (the "Seller") sells. "Goods" means the items ordered. A copy with changes is '
        'called a "Variant". "Fee" and "Fees" mean the price.'
    )
    section = SectionInfo("s-1", "s", 0, "1", "Sale", 1, None, text)
    assert [(e.rule, e.term) for e in definitions(section)] == [
        ("defines.quoted_means", "Goods"),
        ("defines.called", "Variant"),
        ("defines.term_list", "Fee"),
        ("defines.term_list", "Fees"),
        ("defines.parenthetical", "Seller"),
    ]
    assert states_definition('"Goods" means the items ordered.')
    assert not states_definition("The goods are the items ordered.")
