"""Sectioning a plain-text protocol standard: flush-left numbered headings, indented request
blocks inside them, a title block that runs into the first heading (texts written here)."""

from raag_assets.ingest.parsing import text_lines
from raag_assets.ingest.sectioning import build_sections, heading_rules

SPEC = """\
\t\t\tThe WIDGET Extension
\t\t\t  Version 2.0
\t\t\t   Jo Writer
\t\t\tExample Organisation
1. Introduction

Widgets let a client watch a drawable for changes.

2. Requests

The client must ask for the version before anything else.

ListWidgets

\t\tdrawable:\t\tDrawable
\t\tmask:\t\t\tCARD32

\tReturns the widgets of the drawable.

DropWidget

\t\twidget:\t\t\tWIDGET

\tSchedule a copy of the widget's state before it is destroyed.

3. Types

\tWIDGET\t\t32-bit value
"""


def _sections(text: str):
    lines, _ = text_lines(text)
    return build_sections("spec", lines, "text")


def test_text_lines_keep_their_indent():
    lines, _ = text_lines("Title\n\tfield: CARD32\n    four\n")
    assert [ln.indent for ln in lines if ln.text] == [0, 8, 4]


def test_request_blocks_are_items_of_their_section_not_headings():
    labels = [s.label for s in _sections(SPEC)]
    assert labels == ["Title", "1", "2", "3"]
    requests = next(s for s in _sections(SPEC) if s.label == "2")
    assert "ListWidgets" in requests.text and "DropWidget" in requests.text


def test_first_heading_right_under_the_title_block_opens_the_outline():
    assert [label for label, _ in heading_rules(text_lines(SPEC)[0], "text")][:2] == ["1", "2"]
    title = _sections(SPEC)[0]
    assert "Introduction" not in title.text


def test_a_flush_left_name_over_flush_prose_stays_a_heading():
    text = SPEC.replace("3. Types\n", "3. Types\n\nNotes\n\nA widget outlives its client.\n")
    text += "\nSecurity Considerations\n\nA widget reveals nothing a client could not read.\n"
    labels = [s.label for s in _sections(text)]
    assert "Security Considerations" in labels


def test_a_sentence_opening_with_contents_is_no_table_of_contents():
    text = SPEC.replace(
        "The client must ask for the version before anything else.",
        "The client may read a widget and its\ncontents.\n\n2.1 Widget state\n\n"
        "Each widget holds a region and a 2.2 Reply.",
    )
    labels = [s.label for s in _sections(text)]
    assert labels == ["Title", "1", "2", "2.1", "3"]


def test_schedule_a_opening_a_sentence_is_no_schedule():
    labels = [s.label for s in _sections(SPEC)]
    assert not any(label.startswith("Schedule") for label in labels)


def test_next_heading_right_under_a_blocks_closing_line_opens_its_section():
    text = SPEC.replace("\n3. Types\n", "\tWIDGETLIST\t[\n\t\twidget:\tWIDGET\n\t]\n3. Types\n")
    assert [s.label for s in _sections(text)] == ["Title", "1", "2", "3"]


def test_a_number_under_a_wrapped_sentence_stays_its_text():
    text = SPEC.replace(
        "The client must ask for the version before anything else.",
        "The client must ask for the version of the extension as set out in section\n"
        "3. Types\n\nof this document.",
    )
    labels = [s.label for s in _sections(text)]
    assert labels.count("3") == 1
