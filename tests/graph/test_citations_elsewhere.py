"""Citations that belong to another document or to the filing itself, never to this one's
sections (issue 19): a law named after the labels, a code's title before the section sign, a
statute's long or hyphenated number, the filing's exhibit banner; and a dotted number cited
under another keyword than the document's own."""

import pytest

from raag_assets.core.model import DocInfo, SectionInfo
from raag_assets.graph.build import layer1 as section_edges
from raag_assets.graph.references import Corpus, expand_labels, find_mentions


@pytest.mark.parametrize(
    ("text", "labels", "doc"),
    [
        (
            "Claims under Section 16(b) of the Securities Exchange Act of 1934 are excluded.",
            ("16(b)",),
            "Securities Exchange Act of 1934",
        ),
        (
            "Shares sold under Section 4 under the Securities Act are restricted.",
            ("4",),
            "Securities Act",
        ),
        ("Indemnity under Section 20(a) of the 1933 Act applies.", ("20(a)",), "1933 Act"),
        ("a plan subject to Sections 412 or 4971 of the Code.", ("412", "4971"), "Code"),
        (
            "as permitted by Section 5-1401 of the New York General Obligations Law.",
            ("5", "1401"),
            "New York General Obligations Law",
        ),
        (
            "as permitted by Sections 5-140 of the Delaware Corporation Law.",
            ("5", "140"),
            "Delaware Corporation Law",
        ),
        ("the anti-kickback statute (42 U.S.C. § 1320a) and", ("1320a",), "42 U.S.C."),
        ("the clauses at 48 CFR §52.222-26 apply.", ("52.222", "26"), "48 CFR"),
        ("the meaning of Section 27A of the 1933 Act", ("27A",), "1933 Act"),
        (
            "OTHER THAN SECTIONS 5-1401 OF THE NEW YORK GENERAL OBLIGATIONS LAW",
            ("5", "1401"),
            "NEW YORK GENERAL OBLIGATIONS LAW",
        ),
        ("it complies with Section 73.3555(b) of the FCC's rules.", ("73.3555(b)",), "FCC's rules"),
        (
            "as that term is used in section 1.1441-4 of the Treasury Regulations",
            ("1.1441", "4"),
            "Treasury Regulations",
        ),
        ("fees under California Civil Code section 1717 and", ("1717",), "California Civil Code"),
        (
            "the Food, Drug and Cosmetic Act (Sections 503A and 503B)",
            ("503A", "503B"),
            "Cosmetic Act",
        ),
        ("and 22 CCR §§ 12701 et seq.", ("12701",), "22 CCR"),
    ],
)
def test_a_citation_of_a_law_names_the_law(text, labels, doc):
    (m,) = find_mentions(text)
    assert (m.labels, m.doc_name) == (labels, doc)


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("Sections 2 through 13 survive termination.", tuple(str(n) for n in range(2, 14))),
        ("Section 4 of this Agreement applies.", ("4",)),
        ("Section 4 under the terms below applies.", ("4",)),
    ],
)
def test_a_citation_of_this_document_stays_in_it(text, labels):
    (m,) = find_mentions(text)
    assert (m.labels, m.doc_name) == (labels, None)


def test_citations_in_one_list_share_the_document_named_last():
    text = "within the meaning of Section 13(d)(3) or Section 14(d)(2) of the Exchange Act"
    assert [m.doc_name for m in find_mentions(text)] == ["Exchange Act", "Exchange Act"]
    text = "as set out in Section 4.2, and the fees in Section 9 of the Supply Agreement"
    assert [m.doc_name for m in find_mentions(text)][0] is None  # not one list


def test_a_range_never_expands_into_a_hundred_labels():
    assert expand_labels("5-140") == ("5", "140")
    assert len(expand_labels("1 through 40")) == 40


def test_a_range_may_repeat_its_keyword():
    """'Section 4.1 through Section 4.4' cites every section between; 'and' joins two."""
    assert [m.labels for m in find_mentions("under Section 4.1 through Section 4.4 hereof")] == [
        ("4.1", "4.2", "4.3", "4.4")
    ]
    assert [m.labels for m in find_mentions("Section 2 and Section 5 apply")] == [("2",), ("5",)]
    # a quoted attachment letter is the attachment's
    assert [m.labels for m in find_mentions('set out on Schedule "A" hereto')] == [("Schedule A",)]


def test_the_filing_banner_is_no_exhibit_citation():
    """'Exhibit 10.7' opening a filed document is its own number; the same words later in the
    text, or a lettered exhibit heading, are citations."""
    assert find_mentions("Exhibit 10.7  CONSULTING AGREEMENT  This Agreement is made") == []
    assert find_mentions("EX-10.27 SUPPLY AGREEMENT") == []
    assert find_mentions("1 EXHIBIT 10.5  HOSTING AGREEMENT  This Agreement") == []  # page 1
    # the banner repeated on a later page, a paragraph of its own
    assert find_mentions("with the Commission.\n\nExhibit 10.16\n\nEL BANCO CORPORATION") == []
    assert [m.labels for m in find_mentions("The prices in Exhibit 10.7 apply.")] == [
        ("Exhibit 10.7",)
    ]
    assert [m.labels for m in find_mentions("Exhibit A lists the prices.")] == [("Exhibit A",)]


def test_the_exhibit_a_document_was_filed_as_over_its_title_is_no_citation():
    """A section (the Title block) opening "EXHIBIT C" on its own line or over a title in
    capitals names the exhibit the document was filed as; "EXHIBIT A attached hereto"
    opening a section's text, or a lettered exhibit later on, cites."""
    assert find_mentions("EXHIBIT C\n\nFRANCHISE AGREEMENT\n\nThis Agreement is made") == []
    assert find_mentions("EXHIBIT C FRANCHISE AGREEMENT This Agreement is made") == []
    cited = find_mentions("EXHIBIT A attached hereto and made a part hereof, in object code")
    assert [m.labels for m in cited] == [("Exhibit A",)]
    cited = find_mentions("FRANCHISE AGREEMENT\n\nEXHIBIT C\n\nThe fees are")
    assert [m.labels for m in cited] == [("Exhibit C",)]


def test_a_dotted_number_resolves_whatever_keyword_cites_it():
    """'Article 8.2' in a document that heads that subsection 'Section 8.2'."""
    doc = DocInfo("c", "c.txt")
    head = SectionInfo("c-8", "c", 0, "Article 8", "Term", 1, None, "")
    sub = SectionInfo("c-8.2", "c", 1, "Section 8.2", "Renewal", 2, "c-8", "It renews.")
    cite = SectionInfo("c-9", "c", 2, "Article 9", "Exit", 1, None, "Except per Article 8.2.")
    corpus = Corpus([doc], [head, sub, cite])
    found, _ = corpus.find_label("c", "Article 8.2")
    assert found is sub
    refs = [e for e in section_edges(cite, corpus)[0] if e.edge_type == "references"]
    assert [e.dst_section_id for e in refs] == ["c-8.2"]


def test_the_banner_after_the_filers_furniture_and_its_repeats_are_no_citations():
    """The filing's number after a legend in capitals or a form type, and the same number
    printed again on a later page, are the banner; a sentence's "in Exhibit 4.2" cites."""
    assert find_mentions("Acme Corp. 8-K Exhibit 10.1 SUPPLY AGREEMENT This Agreement") == []
    text = "PORTIONS ARE OMITTED [*]. Exhibit 10.2 Execution Version This Agreement is made"
    assert find_mentions(text) == []
    text = "EXHIBIT 10.43 Dated 1/3/18\n\nSource: ACME, 10-K\n\nEXHIBIT 10.43 THIS AGREEMENT"
    assert find_mentions(text) == []
    cited = find_mentions("Prices are set out in Exhibit 4.2 Price List")
    assert [m.labels for m in cited] == [("Exhibit 4.2",)]


def test_an_exhibit_lettered_and_numbered_is_one_label_not_a_range():
    """'Exhibit A-2' is the second part of Exhibit A (the sections read it so), never
    Exhibit A and Exhibit 2; a three-level schedule number is not cut after its second."""
    assert [m.labels for m in find_mentions("the forecast in Exhibit A-2 applies")] == [
        ("Exhibit A-2",)
    ]
    assert expand_labels("A-1 and A-2") == ("A-1", "A-2")
    assert expand_labels("2-4") == ("2", "3", "4")  # numbers joined by a hyphen: a range
    assert [m.labels for m in find_mentions("as set out in Schedule 3.5.1 hereto")] == [
        ("Schedule 3.5.1",)
    ]


def test_a_part_of_an_attachment_not_headed_apart_resolves_to_the_attachment():
    doc = DocInfo("c", "c.txt")
    body = SectionInfo("c-1", "c", 0, "1", "Fees", 1, None, "Per Exhibit A-1 and Exhibit B-2.")
    exhibit = SectionInfo("c-A", "c", 1, "Exhibit A", "Prices", 1, None, "A-1 Rates ...")
    part = SectionInfo("c-B2", "c", 2, "Exhibit B-2", "Forecast", 1, None, "Volumes ...")
    corpus = Corpus([doc], [body, exhibit, part])
    assert corpus.find_label("c", "Exhibit A-1") == (exhibit, 0.85)
    assert corpus.find_label("c", "Exhibit B-2") == (part, 1.0)
    assert corpus.find_label("c", "Exhibit C-1") == (None, 0.0)


def test_a_document_calling_itself_by_its_exhibit_number_cites_nothing():
    assert find_mentions("portions of this Exhibit 10.8 were omitted") == []


@pytest.mark.parametrize(
    ("text", "doc"),
    [
        ("a prohibited transaction under section 406 of ERISA and", "ERISA"),
        ("Section 4 of the GPL applies.", "GPL"),
        ("Section 1 of ANNEX B applies.", None),
    ],
)
def test_an_acronym_after_of_names_a_document(text, doc):
    assert find_mentions(text)[0].doc_name == doc


def test_a_document_naming_its_own_family_names_itself():
    """'the General Public License' in one of several General Public Licenses that it matches
    equally well is the document naming itself, no edge; a name only another matches best
    ('the GNU Lesser General Public License') still cites that one."""
    docs = [
        DocInfo("z-gpl", "z-gpl", title="GNU GENERAL PUBLIC LICENSE"),
        DocInfo("lgpl-2", "lgpl-2", title="GNU LESSER GENERAL PUBLIC LICENSE"),
    ]
    own = SectionInfo(
        "g-7", "z-gpl", 0, "7", "", 1, None, "New versions of the General Public License."
    )
    other = SectionInfo(
        "g-8", "z-gpl", 1, "8", "", 1, None, "See the GNU Lesser General Public License."
    )
    corpus = Corpus(docs, [own, other])
    assert [e for e in section_edges(own, corpus)[0] if e.edge_type == "references"] == []
    refs = [e for e in section_edges(other, corpus)[0] if e.edge_type == "references"]
    assert [e.dst_doc_id for e in refs] == ["lgpl-2"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a document named without its article: its section, not this one's
        (
            "Subject to the covenant in Section 6.2 of Share Transfer Agreement, the Buyer may",
            [("6.2", "Share Transfer Agreement")],
        ),
        # an attachment's own numbering: the attachment is the cited unit
        ("For purposes of this clause 3 of Annex B, the Fee is", [("Annex B", None)]),
        (
            "Returns follow Section 2 of Schedule 4 of the Logistics Agreement.",
            [("Schedule 4", "Logistics Agreement")],
        ),
        # 'thereof': a section of the document named before, not of this one
        ("subject to the provisions of Section 9.1 thereof.", []),
        # this document's own sections are cited as before
        ("as set out in Section 9.1 of this Agreement.", [("9.1", None)]),
        ("the Buyer under Section 9.1 shall pay", [("9.1", None)]),
    ],
)
def test_a_section_of_an_attachment_or_of_a_document_named_before(
    text: str, found: list[tuple[str, str | None]]
) -> None:
    assert [(m.labels[0], m.doc_name) for m in find_mentions(text)] == found
