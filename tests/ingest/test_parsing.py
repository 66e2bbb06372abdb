"""Parsing real files: the example PDF, Markdown with front matter, sidecars, bad input."""

import datetime as dt
import json
import textwrap
from pathlib import Path

import pytest
from fpdf import FPDF

from raag_assets.core.errors import BadDocument
from raag_assets.ingest.parsing import parse_file, wrap_width
from tests.conftest import EXAMPLES, LICENSES

LIMIT = 50_000_000


def test_pdf_keeps_pages_and_font_emphasis():
    doc = parse_file(EXAMPLES / "hr-processes-handbook.pdf", LIMIT)
    assert doc.format == "pdf"
    assert doc.page_count == 2
    assert {ln.page for ln in doc.lines} == {1, 2}
    headings = [ln for ln in doc.lines if ln.bold]
    assert any(ln.text.startswith("5.1") and ln.page == 2 for ln in headings)
    body = [ln for ln in doc.lines if ln.text and not ln.bold]
    assert max(ln.size for ln in headings) > max(ln.size for ln in body)
    assert "\f" in doc.raw_text  # raw text kept, page breaks marked


def test_markdown_front_matter_becomes_metadata():
    doc = parse_file(EXAMPLES / "leave-policy.md", LIMIT)
    assert doc.doc_id == "leave-policy"
    assert doc.format == "markdown"
    assert doc.meta.tags == ("hr", "leave")
    assert doc.meta.authority_level == 50
    assert doc.meta.effective_from == dt.date(2024, 1, 1)
    assert doc.meta.supersedes == "leave-policy-rev-a"
    assert "doc_id" not in doc.text  # front matter is metadata, not text
    assert doc.raw_text == (EXAMPLES / "leave-policy.md").read_text(
        encoding="utf-8"
    )  # offsets index the file as read
    assert doc.meta.metadata()["doc_type"] == "policy"


def test_license_without_extension_is_sniffed_as_text_and_keeps_its_name():
    doc = parse_file(LICENSES / "MPL-2.0", LIMIT)
    assert (doc.doc_id, doc.format, doc.page_count) == ("MPL-2.0", "text", None)


def test_sidecar_metadata_and_its_hash(tmp_path: Path):
    path = tmp_path / "notes.txt"
    path.write_text("1. Scope\nThis applies to everyone.\n", encoding="utf-8")
    before = parse_file(path, LIMIT)
    (tmp_path / "notes.txt.meta.json").write_text(
        json.dumps({"doc_id": "team-notes", "tags": ["ops"], "region": "eu"})
    )
    after = parse_file(path, LIMIT)
    assert after.doc_id == "team-notes"
    assert after.meta.metadata() == {"region": "eu"}
    assert after.content_hash != before.content_hash  # metadata change = document change


def test_name_parties_and_dates_read_from_the_text(tmp_path: Path):
    """Without metadata, the document's name is its title and its parties are in its
    metadata; both its dates are kept, the effective one as its effective date."""
    path = tmp_path / "supply.txt"
    path.write_text(
        "Exhibit 10.1\n\nSUPPLY AGREEMENT\n\nThis Supply Agreement is entered into on March 2,"
        ' 2020 and is made effective as of April 1, 2020 (the "Effective Date") by and between'
        ' Northwind Trading Inc., a Delaware corporation ("Northwind"), and Blue River LLC, a'
        ' Texas limited liability company ("Blue River").\n\n1. Supply\nNorthwind supplies.\n',
        encoding="utf-8",
    )
    doc = parse_file(path, LIMIT)
    assert doc.meta.title == "SUPPLY AGREEMENT"
    assert doc.meta.parties == ("Northwind Trading Inc.", "Blue River LLC")
    assert doc.meta.metadata()["parties"] == ["Northwind Trading Inc.", "Blue River LLC"]
    assert doc.effective and (doc.effective.date, doc.effective.kind) == (
        dt.date(2020, 4, 1),
        "effective",
    )
    assert doc.agreement and doc.agreement.date == dt.date(2020, 3, 2)
    # what the metadata declares wins over what the text states
    (tmp_path / "supply.txt.meta.json").write_text(
        json.dumps({"title": "Northwind supply", "parties": ["Northwind"]})
    )
    doc = parse_file(path, LIMIT)
    assert doc.meta.title == "Northwind supply"
    assert doc.meta.metadata()["parties"] == ["Northwind"]


def test_normalisation_keeps_raw_text(tmp_path: Path):
    path = tmp_path / "lig.txt"
    path.write_text("The e\ufb00ective date is in the employ-\nment contract.\n", encoding="utf-8")
    doc = parse_file(path, LIMIT)
    assert "\ufb00" in doc.raw_text
    assert doc.lines[0].text == "The effective date is in the employ-"  # joined at sectioning


def test_utf16_with_bom_is_read(tmp_path: Path):
    path = tmp_path / "wide.txt"
    path.write_bytes("Section 1. Scope\nApplies to all staff.\n".encode("utf-16"))
    assert parse_file(path, LIMIT).lines[0].text == "Section 1. Scope"


def _pdf_bytes(pages: list[list[tuple[str, int, str]]]) -> bytes:
    pdf = FPDF()
    for page in pages:
        pdf.add_page()
        for text, size, style in page:
            pdf.set_font("Helvetica", style, size)
            pdf.multi_cell(0, size * 0.6, text, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def test_unnumbered_pdf_headings_found_from_font_size(tmp_path: Path):
    from raag_assets.ingest.sectioning import build_sections

    path = tmp_path / "guide.pdf"
    path.write_bytes(
        _pdf_bytes(
            [
                [
                    ("Travel Guide", 18, "B"),
                    ("Booking", 14, "B"),
                    ("Book through the portal.", 10, ""),
                ],
                [("Refunds", 14, "B"), ("Refunds take ten days.", 10, "")],
            ]
        )
    )
    doc = parse_file(path, LIMIT)
    sections = build_sections(doc.doc_id, doc.lines, doc.format)
    found = [(s.heading, s.page_start) for s in sections]
    assert ("Booking", 1) in found
    assert ("Refunds", 2) in found


def test_running_headers_and_footers_of_a_pdf_open_no_sections(tmp_path: Path):
    """A header set on every page (in bold, heading-sized, its spaces lost on one page as
    extraction sometimes does) and a "Confidential" footer are page furniture: section 2 runs
    across the page breaks in one piece, and the title page keeps its title."""
    from raag_assets.ingest.sectioning import build_sections

    body = "The widget is assembled from parts listed in the bill of materials. " * 12
    pages = [[("Widget Specification", 18, "B"), ("1 Scope", 14, "B"), (body, 10, "")]]
    for n in range(2, 6):
        header = "WidgetSpecification" if n == 3 else "Widget Specification"
        page = [(header, 14, "B")]
        page += [("2 Assembly", 14, "B")] if n == 2 else []
        page += [(body, 10, ""), (f"Confidential - draft {n}", 8, "")]
        pages.append(page)
    path = tmp_path / "spec.pdf"
    path.write_bytes(_pdf_bytes(pages))
    doc = parse_file(path, LIMIT)
    sections = build_sections(doc.doc_id, doc.lines, doc.format)
    assert [(s.label, s.heading) for s in sections][0] == ("Title", "Widget Specification")
    assert [s.label for s in sections] == ["Title", "1", "2"]
    assembly = sections[-1]
    assert (assembly.page_start, assembly.page_end) == (2, 5)
    assert "Widget" not in assembly.text.replace("The widget", "")
    assert "Confidential" not in assembly.text


def test_a_small_legend_heading_every_page_of_a_short_contract_is_furniture(tmp_path: Path):
    """A "Confidential" legend in small type over both pages of a two-page contract, the
    first page's included, opens no section: clause 3 runs across the page break whole."""
    from raag_assets.ingest.sectioning import build_sections

    words = "The Supplier shall deliver the goods to the Buyer at the agreed place. " * 6
    first = [("Confidential", 8, ""), ("SUPPLY AGREEMENT", 10, "")]
    first += [(f"{n}. Clause {n}. {words}", 10, "") for n in (1, 2, 3)]
    second = [("Confidential", 8, ""), (words, 10, ""), (f"4. Clause 4. {words}", 10, "")]
    path = tmp_path / "supply.pdf"
    path.write_bytes(_pdf_bytes([first, second]))
    doc = parse_file(path, LIMIT)
    sections = build_sections(doc.doc_id, doc.lines, doc.format)
    assert [s.label for s in sections] == ["Title", "1", "2", "3", "4"]
    assert all("Confidential" not in s.text for s in sections)
    assert (sections[3].page_start, sections[3].page_end) == (1, 2)


def test_words_placed_without_space_glyphs_keep_their_spaces(tmp_path: Path):
    """Typesetters (TeX, FOP) often place each word at its position with no space glyph
    between: a gap of a fifth of an em is a space, though narrower than pdfplumber's fixed
    3-point default at a 10-point size."""
    sentence = "Many programs use the shared database to find the type of a file."
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    x = 20.0
    for word in sentence.split():
        pdf.text(x, 30, word)
        x += pdf.get_string_width(word) + 0.22 * 10 * 0.3528  # 0.22 em, points to mm
    path = tmp_path / "tight.pdf"
    path.write_bytes(bytes(pdf.output()))
    assert [ln.text for ln in parse_file(path, LIMIT).lines if ln.text] == [sentence]


def test_contents_entries_with_leaders_run_into_the_page_number(tmp_path: Path):
    """Dot leaders that run straight into the page number ("A.1 Terms.......24") still make
    contents entries: the contents page goes on to its last entry, and no entry set in a
    heading's size ("Index ...... 30") becomes a section."""
    from raag_assets.ingest.sectioning import build_sections

    body = "Each copy of the widget carries these terms. " * 6
    path = tmp_path / "guide.pdf"
    path.write_bytes(
        _pdf_bytes(
            [
                [
                    ("Table of Contents", 16, "B"),
                    ("1 Scope ........................ 2", 14, ""),
                    ("A Terms..........................3", 14, ""),
                    ("A.1 Copies.......................3", 10, ""),
                    ("Index ......................... 4", 14, ""),
                ],
                [("1 Scope", 14, "B"), (body, 10, "")],
                [("A Terms", 14, "B"), ("A.1 Copies", 12, "B"), (body, 10, "")],
            ]
        )
    )
    doc = parse_file(path, LIMIT)
    sections = build_sections(doc.doc_id, doc.lines, doc.format)
    assert not [s.heading for s in sections if ".." in s.heading]
    assert [s.page_start for s in sections if s.label == "1"] == [2]


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.pdf", b"", "empty file"),
        ("corrupt.pdf", b"%PDF-1.7\n\x00\x01garbage that is no PDF\n%%EOF", "not a readable PDF"),
        ("fake.pdf", b"Just some text with a pdf name.", "no %PDF header"),
        ("junk.txt", bytes(range(256)) * 40, "binary data"),
        ("latin1.txt", "Caf\u00e9 policy: na\u00efve rules.".encode("latin-1"), "not UTF-8"),
        ("blank.md", b"   \n\n\t\n", "no text content"),
        ("bad-front.md", b"---\ntags: [unclosed\n---\nBody\n", "front matter is not valid YAML"),
        ("noext", b"\x00\x00\x00binary", "binary data"),
    ],
)
def test_bad_files_get_a_one_line_reason(tmp_path: Path, name: str, content: bytes, reason: str):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(BadDocument, match=reason) as info:
        parse_file(path, LIMIT)
    assert "\n" not in str(info.value)


def test_huge_file_refused_before_reading(tmp_path: Path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as fh:  # sparse: 200 MB on paper, nothing on disk
        fh.truncate(200_000_000)
    with pytest.raises(BadDocument, match=r"200\.0 MB, over the 50 MB limit"):
        parse_file(path, LIMIT)


def test_hostile_doc_id_in_metadata_refused(tmp_path: Path):
    path = tmp_path / "x.md"
    path.write_text("---\ndoc_id: ../../etc/passwd\n---\n# Title\nText\n", encoding="utf-8")
    with pytest.raises(BadDocument, match="unsafe doc_id"):
        parse_file(path, LIMIT)


def test_line_offsets_index_the_file_as_open_reads_it(tmp_path: Path):
    path = tmp_path / "crlf.md"
    raw = "\ufeff---\r\ntitle: T\r\n---\r\n# Head\r\n\r\n  Some   \ufb01ne text.  \r\nLast\r"
    path.write_bytes(raw.encode("utf-8"))
    doc = parse_file(path, LIMIT)
    on_disk = open(path, encoding="utf-8").read()  # noqa: SIM115 - what a user would do
    assert doc.raw_text == on_disk
    located = [ln for ln in doc.lines if ln.text]
    assert [on_disk[ln.start : ln.end] for ln in located] == [
        "# Head",
        "Some   \ufb01ne text.",
        "Last",
    ]
    assert located[1].text == "Some fine text."


def test_a_line_span_runs_to_its_last_word_where_that_word_also_occurs_earlier(tmp_path):
    """'... is intended to guarantee your freedom to': the span ends at the line's last "to",
    not at the first one."""
    path = tmp_path / "lic.txt"
    path.write_text("Intro.\n\nthe License is intended to guarantee your freedom to\nshare.\n")
    doc = parse_file(path, LIMIT)
    on_disk = path.read_text(encoding="utf-8")
    line = next(ln for ln in doc.lines if ln.text.startswith("the License"))
    assert on_disk[line.start : line.end] == line.text


def test_pdf_line_offsets_index_the_extracted_text():
    doc = parse_file(EXAMPLES / "hr-processes-handbook.pdf", LIMIT)
    located = [ln for ln in doc.lines if ln.text]
    assert located and all(ln.start is not None for ln in located)
    for ln in located:
        assert " ".join(doc.raw_text[ln.start : ln.end].split()) == ln.text
    pages = doc.raw_text.split("\f")
    for ln in located:  # a line's offset falls in its own page
        assert doc.raw_text[: ln.start].count("\f") + 1 == ln.page
    assert len(pages) == doc.page_count


@pytest.mark.parametrize(
    ("name", "doc_id"),
    [
        ("Amendment #3 to the Supply Agreement.txt", "Amendment 3 to the Supply Agreement"),
        (
            "LECLANCHÉ S.A. - JOINT DEVELOPMENT AND MARKETING AGREEMENT.txt",
            "LECLANCHÉ S.A. - JOINT DEVELOPMENT AND MARKETING AGREEMENT",
        ),
        ("Supply Agreement – Schedule B.md", "Supply Agreement - Schedule B"),
    ],
)
def test_file_names_as_users_have_them_parse(tmp_path: Path, name: str, doc_id: str):
    path = tmp_path / name
    path.write_text("1. Scope\nThis agreement covers the supply of widgets.\n", encoding="utf-8")
    doc = parse_file(path, LIMIT)
    assert (doc.doc_id, doc.source_name) == (doc_id, name)
    # its sidecar is found by the name as given, and an explicit doc_id still wins
    (tmp_path / (name + ".meta.json")).write_text(json.dumps({"tags": ["supply"]}))
    assert parse_file(path, LIMIT).meta.tags == ("supply",)


def test_hostile_file_name_gets_a_safe_id_and_keeps_its_name(tmp_path: Path):
    name = "\x1b[31m..\\..\\evil\u202e.txt"
    path = tmp_path / name
    path.write_text("Text.\n", encoding="utf-8")
    doc = parse_file(path, LIMIT)
    assert doc.doc_id == "31m. . evil" and doc.source_name == name


def test_file_name_that_is_not_utf8_is_refused_clearly(tmp_path: Path):
    import os

    raw = os.fsencode(tmp_path) + b"/caf\xe9.txt"  # a Latin-1 name
    with open(raw, "wb") as fh:
        fh.write(b"Text.\n")
    path = Path(os.fsdecode(raw))
    with pytest.raises(BadDocument, match="file name is not UTF-8"):
        parse_file(path, LIMIT)


def test_explicit_doc_id_is_not_read_into_shape(tmp_path: Path):
    path = tmp_path / "x.md"
    path.write_text("---\ndoc_id: 'Amendment #3'\n---\n# Title\nText\n", encoding="utf-8")
    hint = "unsafe doc_id 'Amendment #3' from metadata.*has doc_id 'Amendment 3'"
    with pytest.raises(BadDocument, match=hint):
        parse_file(path, LIMIT)
    path.write_text("---\ndoc_id: Leclanché JDA\nsupersedes: Leclanché JDA 2019\n---\n# T\nText\n")
    doc = parse_file(path, LIMIT)
    assert (doc.doc_id, doc.meta.supersedes) == ("Leclanché JDA", "Leclanché JDA 2019")


def test_a_title_repeated_as_a_running_header_is_still_the_title(tmp_path: Path):
    """A document that repeats its name at the top of every page: the repeats are page
    furniture for the body, the first one is its title."""
    page = "HOSTING AGREEMENT\n\n" + "\n\n".join(f"{n}. Clause {n} applies." for n in range(20))
    path = tmp_path / "hosting.txt"
    path.write_text("Exhibit 10.8\n\n" + "\n\n".join([page] * 4) + "\n", encoding="utf-8")
    doc = parse_file(path, LIMIT)
    assert "HOSTING AGREEMENT" not in [ln.text for ln in doc.lines]
    assert doc.meta.title == "HOSTING AGREEMENT"


def test_parties_the_introduction_leaves_out_are_read_from_the_signature_blocks(tmp_path: Path):
    """A document signed by parties its opening does not introduce (a joint filing): their
    names as the signature blocks give them; an introduction naming two parties is kept as is."""
    path = tmp_path / "joint.txt"
    path.write_text(
        "JOINT FILING AGREEMENT\n\nThe undersigned agree that the statement is filed on behalf "
        "of each of them.\n\n"
        + "The statement may be amended by any of them, and each of them may file an amendment "
        "on behalf of all of them without further agreement.\n\n"
        * 100
        + "IN WITNESS WHEREOF, the undersigned sign this agreement.\n\n"
        "NORTHWIND CAPITAL LP\nBy: /s/ Jane Roe\n\nBLUE RIVER HOLDINGS L.L.C.\nBy: /s/ John Doe\n",
        encoding="utf-8",
    )
    assert parse_file(path, LIMIT).meta.parties == (
        "NORTHWIND CAPITAL LP",
        "BLUE RIVER HOLDINGS L.L.C.",
    )
    path.write_text(
        'This Agreement is made between Acme Inc. ("Acme") and Beta LLC ("Beta").\n\n'
        + "Acme sells the goods to Beta at the prices of the schedule, and Beta pays for them "
        "within thirty days of each delivery of the goods.\n\n"
        * 100
        + "IN WITNESS WHEREOF\n\nGAMMA TRUST COMPANY, as escrow agent\nBy: /s/ Jane Roe\n",
        encoding="utf-8",
    )
    assert parse_file(path, LIMIT).meta.parties == ("Acme Inc.", "Beta LLC")


def test_a_title_led_by_a_partys_short_name_in_capitals_is_the_documents_name(tmp_path: Path):
    """'NMIC AGENCY AGREEMENT' where the parties are 'Northwind Mutual Insurance Company, a
    Michigan insurer (NMIC)' and another: the document is the Agency Agreement."""
    path = tmp_path / "agency.txt"
    path.write_text(
        "NMIC AGENCY AGREEMENT\n\nNorthwind Mutual Insurance Company, a Michigan insurer (NMIC) "
        'and Blue River Agency, Inc., a Nevada corporation ("Agency") agree as follows:\n\n'
        "1. Authority\nThe Agency may solicit proposals.\n",
        encoding="utf-8",
    )
    assert parse_file(path, LIMIT).meta.title == "AGENCY AGREEMENT"


def _wrapped_text(paragraphs: list[str], width: int = 64) -> str:
    return "\n\n".join("\n".join(textwrap.wrap(p, width)) for p in paragraphs) + "\n"


def test_a_title_cut_by_a_hard_wrap_is_read_whole(tmp_path: Path):
    """A text hard-wrapped at 64 columns that runs its title into the legend before it: the
    wrap cuts the title at its hyphen ("NON-" / "SOLICITATION AGREEMENT"); the wrapped lines
    are one line of the document, and the title is read whole. The same words set as a line
    of their own wider than any measure (no hard wrap) read the same."""
    body = "The Seller shall not compete with the Buyer in the territory for five years. " * 8
    opening = (
        "EXHIBIT 10.2 EXECUTION VERSION NON-COMPETITION AND NON-SOLICITATION AGREEMENT THIS "
        'NON-COMPETITION AGREEMENT (this "Agreement") is entered into by Northwind Inc. '
        '("Buyer") and Blue River LLC ("Seller").'
    )
    path = tmp_path / "noncompete.txt"
    path.write_text(_wrapped_text([opening, *[body] * 6]), encoding="utf-8")
    assert "NON-\n" in path.read_text()
    wrapped = parse_file(path, LIMIT).meta.title
    path.write_text("\n\n".join([opening, *[body] * 6]) + "\n", encoding="utf-8")
    assert (
        wrapped
        == parse_file(path, LIMIT).meta.title
        == ("NON-COMPETITION AND NON-SOLICITATION AGREEMENT")
    )


def test_a_legend_wrapped_over_the_first_lines_leaves_the_title_within_reach(tmp_path: Path):
    """A confidentiality legend wrapped at 64 columns over more lines than the title is looked
    for in: its lines are one line of the document, and the title under it is found; a
    text that is not hard-wrapped (one paragraph a line) is read as before."""
    legend = (
        "EXHIBIT 10.13 Cyberian Outpost, Inc. has omitted from this Exhibit portions of the "
        "Agreement for which it has requested confidential treatment from the Securities and "
        "Exchange Commission, and such confidential portions have been filed separately with "
        "the Securities and Exchange Commission, marked with brackets in this copy of it. "
    ) * 2
    body = "CNET will provide the retail promotions across its sites for the whole term. " * 5
    paragraphs = [
        legend,
        "PROMOTION AGREEMENT",
        'This Promotion Agreement is made between CNET, Inc. ("CNET") and Cyberian Outpost, '
        'Inc. ("Outpost").',
        *[body] * 6,
    ]
    path = tmp_path / "promotion.txt"
    path.write_text(_wrapped_text(paragraphs), encoding="utf-8")
    assert len(path.read_text().split("\n\n")[0].splitlines()) > 8
    assert parse_file(path, LIMIT).meta.title == "PROMOTION AGREEMENT"
    assert wrap_width(path.read_text().split("\n")) == 64
    assert wrap_width("\n\n".join(paragraphs).split("\n")) is None
