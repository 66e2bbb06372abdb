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


def test_a_specification_cites_another_by_the_extension_it_specifies():
    from raag_assets.core.model import DocInfo
    from raag_assets.graph.build import layer1
    from raag_assets.graph.references import Corpus

    widget = DocInfo("widgetproto", "widgetproto.txt", "The WIDGET Extension")
    gadget = DocInfo("gadgetproto", "gadgetproto.txt", "Gadget Extension")
    cite = SectionInfo(
        "g3",
        "gadgetproto",
        3,
        "3",
        "Model",
        1,
        None,
        "Watching for changes may be done with the Widget extension. The extension of the "
        "window tree is left to the Sprocket extension.",
    )
    head = SectionInfo("w1", "widgetproto", 1, "1", "Introduction", 1, None, "Widgets.")
    edges, parked, _ = layer1(cite, Corpus([widget, gadget], [cite, head]))
    refs = [e for e in edges if e.edge_type == "references"]
    assert [(e.dst_doc_id, e.rule) for e in refs] == [("widgetproto", "references.extension_name")]
    assert [u.target_doc for u in parked] == ["Sprocket Extension"]  # no such document: parked


def test_a_type_in_capitals_is_a_term_of_art_and_its_extension_name_no_use():
    from raag_assets.core.model import DocInfo
    from raag_assets.graph.build import extract
    from resources.nlp import load_pipeline

    doc = DocInfo("widgetproto", "widgetproto.txt", "The WIDGET Extension")
    sections = [
        SectionInfo(
            "w1",
            "widgetproto",
            1,
            "1",
            "Introduction",
            1,
            None,
            "The WIDGET extension lets a client watch a drawable.",
        ),
        SectionInfo(
            "w5",
            "widgetproto",
            2,
            "5",
            "Errors",
            1,
            None,
            "Widget A value for a WIDGET argument does not name a defined WIDGET.",
        ),
        SectionInfo(
            "w6",
            "widgetproto",
            3,
            "6",
            "Types",
            1,
            None,
            "WIDGET 32-bit value (top bit always zero)",
        ),
    ]
    nlp = load_pipeline("en_core_web_sm")
    result = extract([doc], sections, lambda texts: list(nlp.pipe(texts)))
    assert [t.term for t in result.terms] == ["WIDGET"]  # no acronym naming a body
    from raag_assets.graph.terms import term_uses

    uses = term_uses(sections, result.terms, {}, set())
    assert [u.src_section_id for u in uses] == ["w5"]  # "The WIDGET extension" names the spec
