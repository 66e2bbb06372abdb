"""The section tree on real licence texts and on the example corpus."""

from pathlib import Path

import pytest

from raag_assets.core.model import Line
from raag_assets.graph.rules import RULES
from raag_assets.ingest.parsing import parse_file
from raag_assets.ingest.sectioning import build_sections, heading_rules
from tests.conftest import EXAMPLES, LICENSES


def sections_of(path: Path):
    doc = parse_file(path, 50_000_000)
    return build_sections(doc.doc_id, doc.lines, doc.format)


def test_gpl3_numbered_terms_and_unnumbered_blocks():
    sections = sections_of(LICENSES / "GPL-3")
    labels = [s.label for s in sections]
    assert [str(n) for n in range(18)] == [x for x in labels if x.isdigit()]
    assert "Preamble" in labels
    by_label = {s.label: s for s in sections}
    assert by_label["0"].heading == "Definitions"
    assert by_label["13"].heading.startswith("Use with the GNU Affero General Public License")
    assert "“The Program” refers to" in by_label["0"].text or '"The Program"' in by_label["0"].text


def test_mpl2_two_level_tree_and_exhibits():
    sections = sections_of(LICENSES / "MPL-2.0")
    by_label = {s.label: s for s in sections}
    for label in ["1", "1.1", "1.14", "2.7", "3.5", "5.3", "10.4", "Exhibit A", "Exhibit B"]:
        assert label in by_label, label
    assert by_label["1.1"].heading == '"Contributor"'
    assert by_label["1.1"].level == 2
    assert by_label["1.1"].parent_id == by_label["1"].section_id
    assert by_label["10"].heading == "Versions of the License"
    assert by_label["10.4"].parent_id == by_label["10"].section_id


def test_section_text_is_dehyphenated_and_ordered():
    sections = sections_of(LICENSES / "Apache-2.0")
    ordinals = [s.ordinal for s in sections]
    assert ordinals == sorted(ordinals) == list(range(len(sections)))
    labels = [s.label for s in sections]
    assert [str(n) for n in range(1, 10)] == [x for x in labels if x.isdigit()]


def test_pdf_sections_carry_pages():
    sections = sections_of(EXAMPLES / "hr-processes-handbook.pdf")
    by_label = {s.label: s for s in sections}
    assert by_label["2.1"].heading == "Step 1: Check the Balance"
    assert by_label["2.1"].parent_id == by_label["2"].section_id
    assert (by_label["1"].page_start, by_label["5.1"].page_start) == (1, 2)


def test_markdown_headings_nest_by_number():
    by_label = {s.label: s for s in sections_of(EXAMPLES / "leave-policy.md")}
    assert by_label["3.3"].heading == "Carry-Over"
    assert by_label["3.3"].parent_id == by_label["3"].section_id
    assert by_label["3.3"].text.startswith("Subject to Section 5, up to 5 days")


def _lines(text: str) -> list[Line]:
    return [Line(t) for t in text.splitlines()]


@pytest.mark.parametrize(
    ("text", "label", "heading"),
    [
        # "Section 4" and "§ 3" are labelled by their number, as references cite them
        ("Section 4. Termination\nEither party may end this.", "4", "Termination"),
        ("Article IV - Payment\nPayment is due monthly.", "Article IV", "Payment"),
        ("§ 3 Notices\nNotices must be in writing.", "3", "Notices"),
    ],
)
def test_keyword_numbering(text: str, label: str, heading: str):
    sections = build_sections("doc", _lines("Intro text.\n\n" + text), "text")
    assert (sections[-1].label, sections[-1].heading) == (label, heading)


def test_an_underlined_part_heading_over_its_first_sub_heading_is_a_section():
    # a specification's part, underlined, with no text before its first sub-heading, after a
    # numbered list has started the numbered text (where an unmarked name heading no prose is
    # a line of the section before: a party in a signature block)
    text = (
        "EXAMPLE\n=======\n\nThe steps:\n\n1. Install the package.\n\n2. Run the tool.\n\n"
        "INTERNALS\n=========\n\nOn-disk state\n-------------\n\nThe state is kept on disk.\n\n"
        "ACME INC.\n\nBy: Jane Doe\n"
    )
    labels = [s.label for s in build_sections("doc", _lines(text), "text")]
    assert labels[-2:] == ["Internals", "On-disk state"]


def test_numbered_sentence_in_body_is_not_a_heading():
    text = (
        "1. Scope\nThis applies to staff.\n\n"
        "2. Leave\nStaff get 25 days and\n2020 was the first year.\n"
    )
    labels = [s.label for s in build_sections("doc", _lines(text), "text")]
    assert labels == ["1", "2"]


def test_a_schedule_numbering_untitled_items_again_keeps_them_as_its_text():
    """A schedule that numbers its items from 1 again, each a sentence without a title, holds
    them as its text; a titled item of an exhibit is still a section."""
    text = (
        "1. TERM. This Agreement runs for two years.\n\n"
        "2. SERVICES. The Consultant shall perform the services in Schedule A.\n\n"
        "3. FEES. The Company shall pay the fees in Schedule A.\n\n"
        "SCHEDULE A\n\n"
        "1. The Consultant will attend two trade shows each year.\n\n"
        "2. The Consultant will record one radio spot each quarter.\n\n"
        "EXHIBIT B\n\n"
        "1. DEFINITIONS. Terms have the meanings given in the Agreement.\n"
    )
    sections = build_sections("doc", _lines(text), "text")
    assert [s.label for s in sections] == ["1", "2", "3", "Schedule A", "Exhibit B", "1"]
    assert "two trade shows" in sections[3].text and "radio spot" in sections[3].text


def test_the_exhibit_a_document_was_filed_as_is_part_of_its_title():
    """A filing whose document is an exhibit of another opens with the exhibit's heading over
    the document's name: that is the filing's label (Title), not a section; an exhibit after
    the text, or one opening a document without naming it, stays a section."""
    text = (
        "[LOGO]\n\nEXHIBIT C\n\nAIRSOPURE FRANCHISE AGREEMENT\n\n"
        "THIS AGREEMENT is entered into by Airsopure and You, each a Party, on the date below.\n\n"
        "1. GRANT OF FRANCHISE. Airsopure grants You a franchise.\n\n"
        "2. TERM. The term is ten years, as Exhibit F says.\n\n"
        "EXHIBIT F\n\nPERSONAL GUARANTEE\n\nFor value received, the undersigned guarantees."
    )
    sections = build_sections("doc", _lines(text), "text")
    assert [s.label for s in sections] == ["Title", "1", "2", "Exhibit F"]
    assert sections[0].heading == "AIRSOPURE FRANCHISE AGREEMENT"
    assert "THIS AGREEMENT is entered into" in sections[0].text
    schedule = text.replace("EXHIBIT C\n\nAIRSOPURE FRANCHISE AGREEMENT", "SCHEDULE 1 - PRICES")
    assert [s.label for s in build_sections("doc", _lines(schedule), "text")][:2] == [
        "Title",
        "Schedule 1",
    ]


def test_a_party_name_over_its_signatory_fields_is_no_section():
    """A signature block's party name over its signatory's fields stays text of the last
    clause, however long the filing ran the fields on one line; a name over prose heads it."""
    fields = (
        "By: /s/ Jason Smith Name: Jason Smith Title: Vice President of Finance and Operations "
        "[Signature Page to IP Agreement]"
    )
    assert len(fields) >= 100
    text = (
        "1. TERM. This Agreement runs for two years.\n\n"
        "2. NOTICES. Notices are in writing.\n\n"
        "IN WITNESS WHEREOF the parties have signed this Agreement.\n\n"
        f"ACME HOLDING COMPANY\n\n{fields}\n\n"
        "SCHEDULE A\n\nThe prices are those in the price list."
    )
    sections = build_sections("doc", _lines(text), "text")
    assert [s.label for s in sections] == ["1", "2", "Schedule A"]
    assert "Jason Smith" in sections[1].text
    prose = text.replace(fields, "Acme shall deliver the goods to the Buyer at its own cost " * 2)
    assert "Acme Holding Company" in [s.label for s in build_sections("doc", _lines(prose), "text")]


def test_rows_of_a_schedule_table_are_no_sections():
    """A schedule's table of registrations, its rows standing alone at a page's end: a row
    with a registration number or a date in figures, or a short row between two such rows, is
    text of the schedule; a title line among prose still heads a section."""
    text = (
        "1. TERM. This Agreement runs for two years.\n\n"
        "SCHEDULE 1 - ASSIGNED TRADEMARKS\n\n"
        "Country Trademark Status App. Number App. Date Reg. Number Reg. Date\n\n"
        "US OAK RIDGE Registered 86919986 25-Feb-16 5423957 13-Mar-18\n\n"
        "US ELM VALLEY CLTM\n\n"
        "CA OAK RIDGE Published 1769733 26-Feb-16\n\n\n\n"
        + "Country Trademark Status App. Number App. Date Reg. Number Reg. Date US PINE HILL "
        "Registered 86906683 12-Feb-16 5183009 11-Apr-17 CA PINE HILL Published 1768050\n\n"
        "SCHEDULE 2 - PRICES\n\nPayment Terms\n\nThe Buyer pays the prices in the table "
        "below within thirty days of each invoice, in euros, by bank transfer to the Supplier."
    )
    sections = build_sections("doc", _lines(text), "text")
    assert [s.label for s in sections] == ["1", "Schedule 1", "Schedule 2", "Payment Terms"]
    assert "US ELM VALLEY CLTM" in sections[1].text and "CA OAK RIDGE" in sections[1].text


def test_same_input_same_sections():
    a = sections_of(LICENSES / "GPL-3")
    b = sections_of(LICENSES / "GPL-3")
    assert a == b
    assert len({s.section_id for s in a}) == len(a)


def test_heading_rules_name_the_form_behind_each_heading():
    text = (
        "These terms are agreed between the service and each of its users.\n\n"
        "General Terms\n\nThese terms apply to every account that a user opens with us.\n\n"
        "Article II - Accounts\nEach user keeps one account.\n\n"
        "Section 3. Payment\nFees are due monthly.\n\n"
        "3.1 Refunds\nRefunds are made within 30 days.\n\n"
        "Exhibit A - Price List\nThe prices are listed below."
    )
    lines = _lines(text)
    assert heading_rules(lines, "text") == [
        ("General Terms", "heading.title_line"),
        ("Article II", "heading.article"),
        ("3", "heading.section"),
        ("3.1", "heading.numbered_title"),
        ("Exhibit A", "heading.appendix"),
    ]
    markdown = _lines("# Leave\n\nStaff get 25 days.\n\nCarry-over\n----------\n\nUp to 5 days.")
    assert heading_rules(markdown, "markdown") == [
        ("Leave", "heading.markdown"),
        ("Carry-over", "heading.underlined"),
    ]


@pytest.mark.parametrize("name", ["GPL-3", "MPL-2.0", "Apache-2.0"])
def test_every_heading_of_a_licence_has_a_registered_heading_rule(name: str):
    doc = parse_file(LICENSES / name, 50_000_000)
    found = heading_rules(doc.lines, doc.format)
    labels = [s.label for s in build_sections(doc.doc_id, doc.lines, doc.format)]
    assert [label for label, _ in found] == [x for x in labels if x not in ("Title", "Body")]
    assert all(RULES[r].kind == "heading" for _, r in found)


def _manual_pdf(path: Path, contents: bool = True) -> Path:
    """A small software manual as texinfo sets one: a title page with its authors, a
    copyright page, the contents (two levels), function entries set between the section and
    the body sizes, a licence whose clauses are numbered in the body size, and an index."""
    from fpdf import FPDF

    prose = "The library reads the schema and builds the tree of its nodes for the caller. " * 3
    toc = [
        ("Table of Contents", 16, "B"),
        ("1 Introduction ........................ 1", 14, ""),
        ("2 Functions ........................... 2", 14, ""),
        ("2.1 Setup functions ................... 2", 10, ""),
        ("2.2 Query functions ................... 3", 10, ""),
        ("Appendix A Licence .................... 4", 14, ""),
        ("Index ................................. 5", 14, ""),
    ]
    pages = [
        [
            ("Widget Library", 20, "B"),
            ("Ann Author", 14, ""),
            ("Bo Author (bo@example.org)", 14, ""),
        ],
        [
            (
                "This manual is for Widget. Permission is granted to copy it under its licence.",
                10,
                "",
            )
        ],
        *([toc] if contents else []),
        [("1 Introduction", 16, "B"), (prose, 10, "")],
        [
            ("2 Functions", 16, "B"),
            ("2.1 Setup functions", 13, "B"),
            ("widget open", 12, "B"),
            (prose, 10, ""),
            ("widget close", 12, "B"),
            (prose, 10, ""),
            ("2.2 Query functions", 13, "B"),
            ("widget size", 12, "B"),
            (prose, 10, ""),
            ("2.2.1 Sizes in bytes", 11, "B"),
            (prose, 10, ""),
        ],
        [
            ("Appendix A Licence", 16, "B"),
            ("1. DEFINITIONS", 10, ""),
            (prose, 10, ""),
            ("2. TERMS", 10, ""),
            (prose, 10, ""),
        ],
        [("Index", 16, "B"), ("W", 13, "B"), ("widget open ........ 2", 9, "")],
    ]
    pdf = FPDF()
    for page in pages:
        pdf.add_page()
        for text, size, style in page:
            pdf.set_font("Helvetica", style, size)
            pdf.multi_cell(0, size * 0.6, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(size * 0.4)
    path.write_bytes(bytes(pdf.output()))
    return path


def test_pdf_contents_list_the_sections(tmp_path: Path):
    """Where a PDF's contents list its outline, what they do not list is no section: the
    author line over the copyright page is the Title's, a function's entry, a licence's
    clause numbered in the body size and an index's letter are items of their section; a
    level the contents do not go down to (2.2.1) stays a section."""
    sections = sections_of(_manual_pdf(tmp_path / "manual.pdf"))
    labels = [s.label for s in sections]
    assert labels == ["Title", "1", "2", "2.1", "2.2", "2.2.1", "Appendix A", "Index"]
    by_label = {s.label: s for s in sections}
    assert by_label["Title"].heading == "Widget Library"
    assert "Permission is granted" in by_label["Title"].text
    assert "widget close" in by_label["2.1"].text
    assert "2. TERMS" in by_label["Appendix A"].text
    # the index, set like the chapters, is a chapter: not a part of the appendix before it
    assert by_label["Index"].parent_id is None
    assert by_label["2.2.1"].parent_id == by_label["2.2"].section_id


def test_pdf_without_contents_keeps_its_font_headings(tmp_path: Path):
    """Without contents to list the outline, a line set larger than the body still heads a
    section: the function entries stay sections."""
    sections = sections_of(_manual_pdf(tmp_path / "manual.pdf", contents=False))
    assert {"widget open", "widget close", "widget size"} <= {s.heading for s in sections}


def test_a_notice_block_is_no_title_line() -> None:
    """Lines of an address (a postal code) and the name over a street or a postal code are
    no title lines (heading.not_an_address); a title over its text still is one."""
    from raag_assets.ingest.sectioning import _in_an_address, _is_title

    lines = [
        Line(t)
        for t in (
            "Bluefin Direct Marketing Corporation",
            "",
            "414 Elm Avenue",
            "",
            "Springfield, New Jersey 07666",
            "",
            "Attention: John Doe, President",
            "",
            "Payment Terms",
            "",
            "Fees are due monthly.",
        )
    ]
    assert [i for i in range(len(lines)) if lines[i].text and _in_an_address(lines, i)] == [0, 2, 4]
    assert not _is_title("United Kingdom; or") and _is_title("Terms and Conditions")


def test_a_run_in_section_starts_at_its_number_in_the_raw_text(tmp_path: Path):
    """A long line whose first clause is set wide: the run-in sections cut from it
    start in the file exactly at their numbers, not some characters off in proportion to
    the spaces collapsed before them."""
    spaced = "the    first    clause    has    its    words    set    wide    apart"
    body = " ".join(
        f'1.{n} "Term {n}" means {spaced if n == 1 else "the thing"} numbered {n} here.'
        for n in range(1, 9)
    )
    raw = f"SUPPLY AGREEMENT\n\n1. Definitions  {body}\n\n2. Term\n\nIt runs for a year.\n"
    path = tmp_path / "flat.txt"
    path.write_text(raw, encoding="utf-8")
    parsed = parse_file(path, 1_000_000)
    sections = build_sections(parsed.doc_id, parsed.lines, parsed.format)
    run_in = [s for s in sections if s.label.startswith("1.")]
    assert [s.label for s in run_in] == [f"1.{n}" for n in range(1, 9)]
    for s in run_in:
        assert raw[s.char_start :].startswith(s.label + ' "'), s.label
        assert raw[s.offsets[0]] == '"'  # the body's first character, "Term n" quoted


def _one_type_pdf(path: Path, paragraphs: list[str]) -> Path:
    """`paragraphs` printed as a word processor prints a contract: one type (Helvetica 10),
    each paragraph wrapped to the measure, a gap between."""
    from fpdf import FPDF

    pdf = FPDF(format="Letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    for text in paragraphs:
        pdf.multi_cell(0, 4.6, text, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    path.write_bytes(bytes(pdf.output()))
    return path


def test_a_contract_printed_in_one_type_reads_its_title_as_plain_text_does(tmp_path: Path):
    """A PDF whose headings are set in the body's size and weight (a contract printed from
    a word processor) tells its headings by their words, as plain text does: the name over
    the parties' sentence is the Title block's, not a section of its own."""
    paragraphs = [
        "Exhibit 10.7",
        "CONSULTING AGREEMENT",
        'Acme Biotech, Inc., with a place of business in Berkeley ("Acme") and Beta B.V. '
        '("Consultant") enter into this Consulting Agreement (the "Agreement") today.',
        "1. Services. Consultant will provide advice to Acme as Acme asks from time to time.",
        "2. Compensation. Acme will pay Consultant the fees set out in Exhibit A monthly.",
    ]
    parsed = parse_file(_one_type_pdf(tmp_path / "consulting.pdf", paragraphs), 1_000_000)
    sections = build_sections(parsed.doc_id, parsed.lines, parsed.format)
    assert [s.label for s in sections] == ["Title", "1", "2"]
    assert sections[0].heading == "CONSULTING AGREEMENT"
    assert '"Consultant"' in sections[0].text


def test_a_pdf_whose_clauses_run_in_gets_its_outline_as_plain_text_does(tmp_path: Path):
    """Subsections printed inline in a PDF's wrapped paragraphs ("1. Grant 1.1 License.
    ... 1.2 Marks. ..."), as filings are, open sections as they do in plain text."""
    words = "The Licensee shall use the marks only as this Agreement allows and no other way. " * 2
    paragraphs = [
        "LICENSE AGREEMENT",
        'Acme Inc. ("Licensor") and Beta LLC ("Licensee") agree as follows.',
        f"1. Grant 1.1 License. {words} 1.2 Marks. {words} 1.3 Reserved. {words}",
        f"2. Term 2.1 Period. {words} 2.2 Renewal. As Section 1.2 allows, {words}",
    ]
    parsed = parse_file(_one_type_pdf(tmp_path / "license.pdf", paragraphs), 1_000_000)
    sections = build_sections(parsed.doc_id, parsed.lines, parsed.format)
    labels = [s.label for s in sections]
    assert labels == ["Title", "1", "1.1", "1.2", "1.3", "2", "2.1", "2.2"]
    assert sections[labels.index("1.2")].heading == "Marks"


def test_clauses_run_in_after_a_lists_and_or_before_an_amount_open_sections(tmp_path: Path):
    """A filing whose clauses run into one line: a clause after a list's '; and' / '; or', or
    one opening with an amount ("$*** upon ..."), opens its section when the outline expects
    it; an amount that continues no outline ("; and 2.5 million") stays text."""
    raw = (
        "FEES AGREEMENT\n\n"
        "1. Fees. The Customer shall pay as follows: 1.1 $*** upon the Effective Date; "
        "1.2 $*** within 90 days of it; and 1.3 A license fee for the Resume Bank.\n\n"
        "2. Warranties. Each party warrants that: 2.1 It is duly organised; or 2.2 It is "
        "licensed; and 2.5 million units are excluded from the warranty.\n"
    )
    path = tmp_path / "fees.txt"
    path.write_text(raw, encoding="utf-8")
    parsed = parse_file(path, 1_000_000)
    labels = [s.label for s in build_sections(parsed.doc_id, parsed.lines, parsed.format)]
    assert [lb for lb in labels if lb[0].isdigit()] == ["1", "1.1", "1.2", "1.3", "2", "2.1", "2.2"]
