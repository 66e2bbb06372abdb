"""Standards (RFC-style specifications): sections cited by name, the terminology section, prose
and headed definitions of protocol terms, and which of them are terms of art."""

import pytest

from raag_assets.graph.build import extract
from raag_assets.graph.model import DocInfo, Edge, SectionInfo
from raag_assets.graph.standards import (
    cites_another_document,
    headed_definitions,
    heading_index,
    is_standard,
    name_citations,
    prose_definitions,
    standard_term,
    terminology,
)
from resources.nlp import load_pipeline

HEADER = (
    "Network Working Group                                         J. Klensin\n"
    "Request for Comments: 5321                                  October 2008\n"
    "Obsoletes: 2821\n"
    "Category: Standards Track\n\n"
    "                    Simple Mail Transfer Protocol\n"
)


def _sec(label: str, heading: str, text: str, parent: str | None = None, n: int = 0):
    return SectionInfo(
        f"rfc-{label}",
        "rfc",
        n,
        label,
        heading,
        label.count(".") + 1,
        f"rfc-{parent}" if parent else None,
        text,
    )


SECTIONS = [
    _sec("Title", "Title", HEADER, n=0),
    _sec(
        "1.1",
        "1.1. Conventions Used in This Document",
        (
            'The key words "MUST", "MUST NOT", "REQUIRED", "SHALL", "SHOULD", and "MAY" in this '
            "document are to be interpreted as described in RFC 2119.\n"
            '"Client" refers to the host that initiates the session.'
        ),
        n=1,
    ),
    _sec("2", "2. Message Fields", "Every message carries fields.", n=2),
    _sec(
        "2.1",
        "2.1. Trace Field",
        (
            "A header line added by each relay. A reverse-path buffer is the list of hosts the "
            "message passed through; such lines are called trace records."
        ),
        parent="2",
        n=3,
    ),
    _sec(
        "4.1.1.1",
        "4.1.1.1. EHLO Command",
        (
            "The client opens with this command. See the description of the MAIL command for "
            "the envelope, and see the Security Considerations section for the risks."
        ),
        n=4,
    ),
    _sec(
        "4.1.1.2",
        "4.1.1.2. MAIL Command",
        (
            "Each relay adds a trace record. The reverse-path buffer MUST be cleared. See the "
            "following paragraphs, and see the MAIL command above."
        ),
        n=5,
    ),
    _sec("7", "7. Security Considerations", "Mail is not private.", n=6),
]


def test_an_rfc_header_marks_a_standard_and_a_contract_is_not_one():
    assert is_standard(SECTIONS)
    contract = [_sec("1", "1. Definitions", '"Product" means the licensed software.')]
    assert not is_standard(contract)


def test_a_section_is_cited_by_its_headings_name_behind_a_pointer():
    index = heading_index(SECTIONS)
    cited = {e.dst_section_id for e in name_citations(SECTIONS[4], index)}
    assert cited == {"rfc-4.1.1.2", "rfc-7"}


def test_a_section_naming_itself_or_a_vague_pointer_cites_nothing():
    index = heading_index(SECTIONS)
    assert name_citations(SECTIONS[5], index) == []


def test_the_section_entitled_and_the_heading_suffix_resolve():
    index = heading_index(SECTIONS)
    s = _sec(
        "9", "9. Notes", 'See the section entitled "Trace Field" and the Considerations section.'
    )
    assert {e.dst_section_id for e in name_citations(s, index)} == {"rfc-2.1", "rfc-7"}


def test_the_terminology_section_defines_key_words_and_quoted_terms():
    terms = [t for _, t, _ in terminology(SECTIONS[1])]
    assert terms == ["MUST", "MUST NOT", "REQUIRED", "SHALL", "SHOULD", "MAY", "Client"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Data. A reverse-path buffer is the list of hosts.", ["reverse-path buffer"]),
        ("A mail object consists of an envelope and content.", ["mail object"]),
        ("A checkpoint refers to any housekeeping.", ["checkpoint"]),
        ('Lines with this prefix are called "continuation lines".', ["continuation lines"]),
        ("such lines are called trace records.", ["trace record"]),
        ('each prefixed with an identifier called a "tag".', ["tag"]),
        ('a mailbox with a member called "blurdybloop" is shown', []),
        ("An example is given below. A client is a host.", []),
        ("The server is a host that accepts mail.", []),
    ],
)
def test_prose_definitions_of_protocol_nouns(text, expected):
    found = [e.term for e in prose_definitions(_sec("3", "3. Intro", text))]
    assert found == expected


def test_a_sub_section_headed_by_its_parents_kind_defines_the_term():
    by_id = {s.section_id: s for s in SECTIONS}
    found = [(s.label, t) for s, t, _ in headed_definitions(SECTIONS, by_id)]
    assert found == []  # "Trace Field" under "Message Fields": the kind is "message field"
    fields = [
        _sec("3", "3. Header Fields", "Fields follow.", n=0),
        _sec(
            "3.1",
            "3.1. Origination Date Header Field",
            "The date and time the message was written.",
            parent="3",
            n=1,
        ),
        _sec("3.2", "3.2. Parsing Rules", "The parser reads fields.", parent="3", n=2),
    ]
    by_id = {s.section_id: s for s in fields}
    found = [(s.label, t) for s, t, _ in headed_definitions(fields, by_id)]
    assert found == [("3.1", "origination date")]


@pytest.mark.parametrize(
    ("term", "evidence", "expected"),
    [
        ("unique identifier", "Unique Identifier Message Attribute A 32-bit value", True),
        ("NIL", '"NIL" represents the non-existence of a data item', True),
        ("MUST", 'The key words "MUST", "SHOULD" in this document are to be interpreted as', False),
        ("tag", 'called a "tag"', False),
        ("Client", '"Client" refers to the host', False),
        ("a b c d e", "A a b c d e is", False),
    ],
)
def test_a_standards_terms_of_art(term, evidence, expected):
    assert standard_term(term, evidence) is expected


def test_extract_links_a_standards_terms_and_citations():
    nlp = load_pipeline("en_core_web_sm")
    out = extract([DocInfo("rfc", "rfc5321.txt")], SECTIONS, lambda t: list(nlp.pipe(t)))
    keys = {t.key for t in out.terms}
    assert "reverse-path buffer" in keys and "trace record" in keys
    assert not keys & {"must", "must not", "may", "client"}
    refs = {(e.src_section_id, e.dst_section_id) for e in out.edges if e.edge_type == "references"}
    assert ("rfc-4.1.1.1", "rfc-4.1.1.2") in refs and ("rfc-4.1.1.1", "rfc-7") in refs


def test_a_bare_name_cites_the_outermost_heading_and_change_logs_drop_the_article():
    secs = [
        _sec("7", "7. Server Responses", "Responses follow.", n=0),
        _sec("7.1", "7.1. Server Responses - Status Responses", "OK, NO.", parent="7", n=1),
        _sec("12", "12. IANA Considerations", "None.", n=2),
    ]
    index = heading_index(secs)
    s = _sec("B", "B. Changes", "See the Responses section. Add IANA Considerations section.")
    assert {e.dst_section_id for e in name_citations(s, index)} == {"rfc-7", "rfc-12"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Servers follow Section 5.1 of [SASL] here.", True),
        ("as in section 5.1 of RFC 4422.", True),
        ("See section 5.1 for mailbox names.", False),
        ("See section 5.1; section 5.1 of [SASL] differs.", False),
    ],
)
def test_a_section_of_a_cited_document_is_not_a_section_of_this_one(text, expected):
    section = _sec("6.2.2", "6.2.2. AUTHENTICATE Command", text)
    edge = Edge(
        "references",
        layer=1,
        src_doc_id="rfc",
        src_section_id=section.section_id,
        matched_text="section 5.1" if "section 5.1" in text else "Section 5.1",
        normalized_target="rfc § 5.1",
        confidence=1.0,
    )
    assert cites_another_document(edge, section) is expected
