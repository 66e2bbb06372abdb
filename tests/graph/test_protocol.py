"""Types-section entries of a protocol specification as definitions (texts written here)."""

from raag_assets.core.model import SectionInfo
from raag_assets.graph.protocol import type_definitions


def _section(heading: str, text: str) -> SectionInfo:
    return SectionInfo("s1", "spec", 1, "6", heading, 1, None, text)


TYPES = (
    "WIDGET 32-bit value (top bit always zero)\n\n"
    "WidgetLevel { WidgetLevelLow, WidgetLevelHigh }\n\n"
    "WidgetLevelLow\n\n"
    "Reports only the first change to a widget.\n\n"
    "WidgetPoint child: Window x, y: CARD16\n\n"
    "These values describe how often a widget reports."
)


def test_each_entry_of_a_types_section_defines_its_type():
    edges = type_definitions(_section("Types", TYPES))
    assert [e.term for e in edges] == ["WIDGET", "WidgetLevel", "WidgetLevelLow", "WidgetPoint"]
    assert all(e.edge_type == "defines" and e.rule == "defines.type_entry" for e in edges)
    low = next(e for e in edges if e.term == "WidgetLevelLow")
    assert "Reports only the first change" in low.matched_text


def test_protocol_and_data_types_headings_count_too():
    assert type_definitions(_section("Protocol Types", "WIDGET { WidgetOn WidgetOff }"))
    assert type_definitions(_section("Data types", "WIDGET 32-bit value"))


def test_the_same_paragraphs_under_another_heading_define_nothing():
    assert type_definitions(_section("Requests", TYPES)) == []
    assert type_definitions(_section("Types of Services", TYPES)) == []
