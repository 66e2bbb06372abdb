"""Scope forms as rules: every `applies_to_scope` edge over real licences and a policy carries
the id of its form; a later form does not read text an earlier one took."""

from pathlib import Path

from raag_assets.core.model import SectionInfo
from raag_assets.graph import scopes
from raag_assets.graph.scopes import scope_edges
from tests.graph._texts import licence, policy, rule_ids


def test_every_scope_in_licences_and_a_policy_names_its_form(tmp_path: Path) -> None:
    found = {
        name: rule_ids(e for s in sections for e in scope_edges(s))
        for name, sections in [
            ("GPL-3", licence("GPL-3")),
            ("MPL-2.0", licence("MPL-2.0")),
            ("policy", policy(tmp_path)),
        ]
    }
    assert found == {
        "GPL-3": {
            "applies_to_scope.applies_to",
            "applies_to_scope.license_for",
            "applies_to_scope.covered_by",
            "applies_to_scope.does_not_apply_if",
        },
        "MPL-2.0": {
            "applies_to_scope.no_grant",
            "applies_to_scope.license_for",
            "applies_to_scope.applies_to",
        },
        "policy": {
            "applies_to_scope.applies_to_people",
            "applies_to_scope.does_not_apply_if",
            "applies_to_scope.for_scope",
        },
    }


def test_a_scope_of_people_takes_its_text_from_the_general_forms() -> None:
    text = "This Policy applies to all employees. The warranty applies to goods sold in 2021."
    edges = scope_edges(SectionInfo("p-1", "p", 0, "1", "Scope", 1, None, text))
    # the general form does not read "applies to all employees" again, and a period is no scope
    assert [(e.rule, e.scope) for e in edges] == [
        ("applies_to_scope.applies_to_people", "employee")
    ]


def _scopes(text: str) -> list[tuple[str, str]]:
    edges = scope_edges(SectionInfo("c-1", "c", 0, "9", "Warranty", 1, None, text))
    return [(e.rule.split(".")[-1], e.scope or "") for e in edges]


def test_a_rule_that_does_not_apply_says_so_in_its_phrase() -> None:
    text = (
        "The warranty granted in this Section 9.2 will not apply to goods that were misused "
        "(by anyone). The foregoing indemnity shall not apply with respect to any claim based "
        "on a modification of the goods. This Agreement is not deemed to cover maintenance of "
        "hardware. Components other than the goods are not covered by this Agreement."
    )
    assert _scopes(text) == [
        ("applies_to", "does not apply to goods"),
        ("applies_to", "does not apply to any claim based on a modification of the goods"),
        ("covered_by", "not components other than the goods"),
        ("covers", "not maintenance of hardware"),
    ]


def test_a_scope_ends_where_its_sentence_moves_on_not_at_a_length() -> None:
    long_place = ", ".join(f"warehouse {n}" for n in range(1, 30))
    text = (
        "The process shall also apply during the launch of any new product. "
        "This License applies to code to which the owner has attached the notice. "
        "The restrictions shall not apply to shares held by the Seller, provided the Seller "
        "gives notice. The covenant extends to " + long_place + ". "
        "The liability of each party shall be limited to an amount not to exceed the fees. "
        "Keep the notice saying this License applies to the Work."
    )
    found = _scopes(text)
    assert found[:3] == [
        ("applies_to", "the launch of any new product"),
        ("applies_to", "code to which the owner has attached the notice"),
        ("applies_to", "does not apply to shares held by the seller"),
    ]
    # a scope with no end in sight is cut after a whole word, not dropped
    assert found[3][1].startswith("warehouse 1, warehouse 2") and len(found[3][1]) <= 150
    assert len(found) == 4  # a sum is a cap, and a reported scope is no scope


def test_a_denial_at_the_start_of_the_sentence_leaves_the_scope_out_a_condition_does_not() -> None:
    text = (
        "Upon assignment, in no event will the licenses granted in this Agreement extend to "
        "products of the assignee. If the Licensee does not pay, this License applies to all "
        "copies made."
    )
    assert _scopes(text) == [
        ("applies_to", "does not apply to products of the assignee"),
        ("applies_to", "copies made"),
    ]


def test_what_falls_outside_the_scope_of_the_document_is_an_exclusion():
    text = (
        "Widgets are drawn by the server. How a client caches the widgets is outside the scope "
        "of this specification.\n\nSuch a plug-in, alone, is not a part of the Program, and "
        "therefore falls outside the scope of this License. The work is outside the territory."
    )
    section = SectionInfo("s1", "spec", 1, "2", "Model", 1, None, text)
    scopes = [e.scope for e in scope_edges(section) if e.rule == "applies_to_scope.outside_scope"]
    assert scopes == [
        "not how a client caches the widgets, outside the scope of this specification",
        "not a plug-in, alone, outside the scope of this License",
    ]


def test_a_forms_needed_word_is_in_every_text_it_matches():
    """scope_edges skips a form where its needed word is missing: each form's examples, and
    every match of it in the licences, hold that word."""
    texts = [s.text for name in ("GPL-3", "Apache-2.0", "MPL-2.0") for s in licence(name)]
    for form_id, need in scopes._NEEDS.items():
        form = next(f for f in scopes._FORMS if f.id == form_id)
        assert form.examples
        for text in [*form.examples, *texts]:
            for m in form.finditer(text):
                assert need.search(m.group()), (form_id, m.group())


def test_a_scope_of_people_denied_reported_or_relative_and_a_duration_are_no_plain_scope() -> None:
    text = (
        "The terms of this Section shall not apply to contractors with a site badge. "
        "The Bank forwards manuals that are available to acquiring members. "
        "None of the caps (including any caps on types or amounts of damages) in this "
        "Agreement will apply to the Maker's obligations under this Section. "
        "Any implied warranties are limited to ninety (90) days from the date of delivery. "
        "This Section applies to claims even if they exceed the insured sum. "
        "This Policy applies to all part-time employees."
    )
    assert _scopes(text) == [
        ("applies_to_people", "does not apply to contractor"),
        ("applies_to_people", "part-time employee"),
        ("applies_to", "does not apply to the maker's obligations under this section"),
        ("applies_to", "claims"),
    ]


def test_a_grant_limited_to_a_field_of_use_is_its_scope_a_grant_denied_or_unlimited_is_not():
    text = (
        "Acme hereby grants to Beta a non-exclusive license to use the Marks in connection "
        "with the Services within the Territory. Beta desires to have Acme grant "
        "to it the right to sell the Goods in the Territory. Acme has not granted to any "
        "other party any license to use the Marks in connection with the Goods. Acme grants "
        "Beta a right and license without the right to sublicense to use the Logo solely on "
        "the Goods. Acme grants Beta a license to use the Software."
    )
    assert _scopes(text) == [
        (
            "grant_field",
            "license to use the marks in connection with the services within the territory",
        )
    ]
