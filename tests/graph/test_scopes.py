"""Scope forms as rules: every `applies_to_scope` edge over real licences and a policy carries
the id of its form; a later form does not read text an earlier one took."""

from pathlib import Path

from raag_assets.core.model import SectionInfo
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
        "MPL-2.0": {"applies_to_scope.no_grant", "applies_to_scope.license_for"},
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


def test_what_falls_outside_the_scope_of_the_document_is_an_exclusion():
    text = (
        "Widgets are drawn by the server. How a client caches the widgets is outside the scope "
        "of this specification.\n\nSuch a plug-in, alone, is not a part of the Program, and "
        "therefore falls outside the scope of this License. The work is outside the territory."
    )
    section = SectionInfo("s1", "spec", 1, "2", "Model", 1, None, text)
    scopes = [e.scope for e in scope_edges(section) if e.rule == "applies_to_scope.outside_scope"]
    assert scopes == [
        "how a client caches the widgets outside the scope of this specification",
        "a plug-in, alone outside the scope of this License",
    ]
