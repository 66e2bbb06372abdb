"""Section-level version links (pure): same label first, else heading and text."""

from raag_assets.core.model import SectionInfo
from raag_assets.graph.rules import RULES
from raag_assets.graph.versions import match_sections, version_links


def sec(doc: str, n: int, label: str, heading: str, text: str) -> SectionInfo:
    return SectionInfo(f"{doc}-{n}", doc, n, label, heading, 2, None, text)


OLD = [
    sec("old", 0, "1", "Purpose", "This policy sets out the leave employees may take."),
    sec("old", 1, "2", "Annual Leave", "An employee is entitled to 25 days of paid annual leave."),
    sec("old", 2, "Travel", "Travel", "Travel is booked through the travel desk in advance."),
    sec("old", 3, "4", "Gifts", "Gifts worth more than 50 EUR must be declared to compliance."),
]
NEW = [
    sec("new", 0, "1", "Purpose", "This policy sets out the leave employees may take, and how."),
    sec("new", 1, "2", "Annual Leave", "An employee is entitled to 30 days of paid annual leave."),
    sec("new", 2, "3", "Booking Travel", "Travel is booked through the travel desk in advance."),
    sec("new", 3, "4", "Sick Leave", "Report sickness to your manager on the first day."),
    sec("new", 4, "5", "Gifts", "Gifts worth more than 50 EUR must be declared to compliance."),
]


def test_same_label_then_best_heading_and_text_match():
    pairs = {(c.old.label, c.new.label): c.confidence for c in match_sections(NEW, OLD)}
    assert pairs[("1", "1")] == 1.0 and pairs[("2", "2")] == 1.0
    assert ("Travel", "3") in pairs and 0.6 <= pairs[("Travel", "3")] < 1.0
    # renumbered: old 4 "Gifts" is new 5, not the unrelated new 4 "Sick Leave"
    assert ("4", "5") in pairs and ("4", "4") not in pairs


def test_nothing_alike_has_no_counterpart():
    other = [sec("new", 0, "A", "Pricing", "Prices are set quarterly by the board.")]
    assert match_sections(other, OLD[:3]) == []


def test_version_links_are_supersedes_edges_from_new_to_old_sections():
    edges = version_links([("new", "old")], [*OLD, *NEW])
    assert edges and all(e.edge_type == "supersedes" for e in edges)
    assert {(e.src_section_id, e.dst_section_id) for e in edges} >= {("new-1", "old-1")}
    assert all(e.src_doc_id == "new" and e.dst_doc_id == "old" for e in edges)
    assert version_links([("new", "old")], [*OLD, *NEW]) == edges  # deterministic


def test_version_links_name_their_rules():
    # plus a clause kept under its number with its heading reworded
    old = sec("old", 4, "7", "Expenses", "Receipts are kept for seven years for audit.")
    new = sec("new", 5, "7", "Expense Claims", "Receipts are kept for seven years for audit.")
    edges = version_links([("new", "old")], [*OLD, old, *NEW, new])
    assert {e.rule for e in edges} == {
        "supersedes.same_label_and_heading",
        "supersedes.same_label",
        "supersedes.heading_text_match",
    }
    assert all(RULES[e.rule].edge_type == e.edge_type for e in edges)
