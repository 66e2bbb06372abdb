"""Real texts for the extraction-rule tests: licences from /usr/share/common-licenses and a
travel policy written for these tests, sectioned as ingest sections them; and the check that
an edge was made by a registered rule."""

from collections.abc import Iterable
from pathlib import Path

from raag_assets.core.model import DocInfo, Edge, SectionInfo
from raag_assets.graph.references import Corpus
from raag_assets.graph.rules import RULES
from raag_assets.ingest.parsing import parse_file
from raag_assets.ingest.sectioning import build_sections
from tests.conftest import LICENSES

# Every form of the helper's modules in one document: a definitions section with headed
# entries, scopes, an effective date, a period and calendar limits, a condition, a scoped
# entitlement, a positional reference, and a procedure in steps.
POLICY = """# Travel Expenses Policy

Effective date: 1 February 2025

## 1. Definitions

In this Policy the following terms have the meanings given below. Approver. The manager who \
signs off a claim. Per Diem: A fixed daily allowance for meals. "Trip" and "Journey" mean \
travel away from the usual place of work. The Company (hereinafter referred to as "the \
Employer") pays each claim, meals bought on a Trip included (each such meal, a "Claimed \
Meal").

### "Receipt"

means a proof of payment that names the seller, the date and the amount.

## 2. Scope

This Policy applies to all employees and contractors based in Canada. It does not apply where \
travel is paid by a client. For volunteers, the following rules apply.

## 3. Claims

This Policy is effective from March 1, 2025. Journeys made between 2021 and 2023 are settled \
under the old rules. Receipts dated prior to 1 January 2020 are not accepted, and claims for \
the fiscal year 2024 must be filed on or before 31 March 2025. A part-time employee is \
entitled to a reduced Per Diem. If a claim is disputed under Section 2, the Approver decides; \
the rules in the preceding section apply.

## 4. How to claim

### Step 1

Collect the receipts.

### Step 2

After Step 1, fill in the claim form.

### Step 3

Send the form to the Approver before Step 4.

### Step 4

The Approver pays the claim.
"""


def sections_of(path: Path) -> list[SectionInfo]:
    parsed = parse_file(path, 50_000_000)
    return [
        SectionInfo(
            s.section_id, s.doc_id, s.ordinal, s.label, s.heading, s.level, s.parent_id, s.text
        )
        for s in build_sections(parsed.meta.doc_id, parsed.lines, parsed.format)
    ]


def licence(name: str) -> list[SectionInfo]:
    return sections_of(LICENSES / name)


def policy(folder: Path) -> list[SectionInfo]:
    path = folder / "travel-policy.md"
    path.write_text(POLICY)
    return sections_of(path)


def corpus(sections: list[SectionInfo]) -> Corpus:
    docs = {s.doc_id: DocInfo(s.doc_id, f"{s.doc_id}.txt") for s in sections}
    return Corpus(list(docs.values()), sections)


def rule_ids(edges: Iterable[Edge]) -> set[str]:
    """The ids of the rules that made the edges, after checking each edge is its rule's: a
    registered id, the rule's edge type, layer and confidence."""
    ids = set()
    for e in edges:
        assert e.rule in RULES.rules, f"{e.edge_type} edge {e.matched_text!r}: rule {e.rule!r}"
        made_by = RULES[e.rule]
        assert (e.edge_type, e.layer, e.confidence) == (
            made_by.edge_type,
            made_by.layer,
            made_by.confidence,
        ), e
        ids.add(e.rule)
    return ids
