"""Standards (RFC-style specifications): sections cited by name, the terminology section, prose
and headed definitions of protocol terms, and which of them are terms of art."""

import pytest

from raag_assets.core.model import DocInfo, Edge, SectionInfo, Term
from raag_assets.graph.build import extract
from raag_assets.graph.references import is_contents
from raag_assets.graph.rules import RULES
from raag_assets.graph.standards import (
    appendix_citations,
    bare_number_citations,
    cites_another_document,
    example_date,
    example_spans,
    headed_definitions,
    heading_index,
    is_bibliography,
    is_standard,
    list_definitions,
    name_citations,
    prose_definitions,
    protocol_definition,
    quoted_heading_citations,
    standard_edges,
    standard_term,
    terminology,
)
from raag_assets.graph.terms import term_pattern, term_uses
from raag_assets.ingest.parsing import parse_file
from raag_assets.ingest.sectioning import build_sections
from resources.nlp import load_pipeline
from tests.conftest import DEV_LEGAL

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


def test_only_the_rfc_2119_key_words_sentence_marks_a_standard():
    # a contract's words "to be interpreted as" its parties are no key words; the RFC 2119
    # sentence marks a standard whether its key words are quoted or not
    contract = [
        _sec(
            "1",
            "1. Parties",
            'In this Agreement the words "SELLER" and "BUYER" are to be interpreted as '
            "referring to the parties named above.",
        )
    ]
    assert not is_standard(contract)
    unquoted = [
        _sec(
            "1.1",
            "1.1. Conventions",
            "The key words MUST, MUST NOT, REQUIRED, SHALL, SHALL NOT, SHOULD, SHOULD NOT, "
            "RECOMMENDED, MAY, and OPTIONAL in this document are to be interpreted as "
            "described in RFC 2119.",
        )
    ]
    assert is_standard(unquoted)
    assert is_standard([SECTIONS[1]])  # the quoted form, without the RFC header


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


def test_a_quoted_heading_cites_its_section_in_any_document():
    # unnumbered (underlined) headings, as in dpkg's specifications, and numbered ones alike
    sections = [
        _sec("Title", "Title", "TRIGGERS", n=0),
        _sec("Processing", "Processing", "Loops are caught: see “Cycle detection” below.", n=1),
        _sec("Cycle detection", "Cycle detection", 'Each run is counted (see "Processing").', n=2),
        _sec("4", "4. Fees", 'The rates in "Cycle Detection." above do not apply.', n=3),
        _sec("5", "5. Root", 'Commands run via the "Fees" or the "Cycle detection" API.', n=4),
        _sec("6", "6. Terms", '"Fees" means the charges (the "Processing Fees").', n=5),
    ]
    cited = {(e.src_section_id, e.dst_section_id) for e in quoted_heading_citations(sections)}
    assert cited == {
        ("rfc-Processing", "rfc-Cycle detection"),
        ("rfc-Cycle detection", "rfc-Processing"),
        ("rfc-4", "rfc-Cycle detection"),
    }  # one word after "the" is a term, not a heading; a definition cites nothing


def test_the_terminology_section_defines_key_words_and_quoted_terms():
    terms = [f.term for f in terminology(SECTIONS[1])]
    assert terms == ["MUST", "MUST NOT", "REQUIRED", "SHALL", "SHOULD", "MAY", "Client"]


def test_a_paragraph_opening_with_a_quoted_term_and_a_form_that_represents_define_it():
    s = _sec(
        "1.2",
        "1.2. Conventions Used in This Document",
        '"Conventions" are basic principles or procedures.\n\n'
        'The special form "NIL" represents the non-existence of a data item.\n\n'
        'The mailbox "foo" is not subscribed.',
    )
    assert [f.term for f in terminology(s)] == ["NIL", "Conventions"]


def test_a_definition_list_in_a_terminology_section_defines_its_entries():
    # RFC 6749 1.1 and RFC 7519 2, as the parser reflows them (term and definition joined)
    roles = _sec(
        "1.1",
        "1.1. Roles",
        "OAuth defines four roles:\n\n"
        "resource owner An entity capable of granting access to a protected resource.\n\n"
        "client An application making protected resource requests.\n\n"
        "Note: The interaction between the servers is beyond the scope.",
    )
    assert [f.term for f in list_definitions(roles)] == ["resource owner", "client"]
    jwt = _sec(
        "2",
        "2. Terminology",
        "JSON Web Token (JWT) A string representing a set of claims.\n\n"
        "stream error:  An error on the individual HTTP/2 stream.",
    )
    assert [f.term for f in list_definitions(jwt)] == ["JSON Web Token", "JWT", "stream error"]


def test_definition_lists_of_http_and_tls_terminology():
    # RFC 2616 1.3 (an article before a capitalised word) and RFC 8446 1.1 (a colon, then
    # any sentence), reflowed
    http = _sec(
        "1.3",
        "1.3 Terminology",
        "This specification uses a number of terms to refer to the roles played by "
        "participants in, and objects of, the HTTP communication.\n\n"
        "request An HTTP request message, as defined in section 5.\n\n"
        "user agent The client which initiates a request.",
    )
    assert [f.term for f in list_definitions(http)] == ["request", "user agent"]
    tls = _sec(
        "1.1",
        "1.1. Terminology",
        "endpoint:  Either the client or server of the connection.\n\n"
        "frame identifier:  A number that names one frame in a stream.\n\n"
        "Note:  The reader should be familiar with TLS 1.2.",
    )
    assert [f.term for f in list_definitions(tls)] == ["endpoint", "frame identifier"]


def test_the_term_x_is_used_to_refer_to_defines_x():
    s = _sec(
        "2",
        "2. Conventions",
        'This document uses the term "endpoint" to refer to either the client or the '
        'server. The term "client" does not imply any particular implementation.',
    )
    assert [f.term for f in terminology(s)] == ["endpoint"]
    both = _sec(
        "2.3.9",
        "2.3.9. Message Content and Mail Data",
        'The terms "message content" and "mail data" are used interchangeably in this '
        "document to describe the material transmitted after the DATA command.",
    )
    assert [f.term for f in terminology(both)] == ["message content", "mail data"]
    agents = _sec(
        "2.3.3",
        "2.3.3. Mail Agents and Message Stores",
        'SMTP servers act as "Mail Transfer Agents" (MTAs). "Mail User Agents" (MUAs or UAs) '
        'are thought of as the sources of mail. Implementations use "Transport Layer" (the TLS).',
    )
    assert [f.term for f in terminology(agents)] == [
        "Mail Transfer Agents",
        "MTA",
        "Mail User Agents",
        "MUA",
        "UA",
    ]


def test_the_fields_of_a_structure_and_protocol_tokens_are_no_definition_list():
    # RFC 3501 7.4.2: the fields of a body structure, and fetch items in capitals
    fields = _sec(
        "7.4.2",
        "7.4.2. FETCH Response",
        "The basic fields of a non-multipart body part are in the following order:\n\n"
        "body type A string giving the content media type name.\n\n"
        "BODY A form of BODYSTRUCTURE without extension data.",
    )
    assert list_definitions(fields) == []
    tokens = _sec("2", "2. Terminology", "ENVELOPE The envelope structure of the message.")
    assert list_definitions(tokens) == []


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
        # RFC 3501's forms: a class by its members, a noun by its forms, a quoted coinage
        (
            "Permanent flags are those which the client can add or remove.",
            ["permanent flag"],
        ),
        ("A string is in one of two forms: either literal or quoted string.", ["string"]),
        (
            'Data structures are represented as a "parenthesized list"; a sequence of items.',
            ["parenthesized list"],
        ),
        # RFC 5321 2.3's forms: a scoping lead-in, an alias in parentheses, an acronym first,
        # naming by "refers to ... as" / "referred to just as"
        (
            "For the purposes of this specification, a host is a computer system.",
            ["host"],
        ),
        (
            'A domain name (or often just a "domain") consists of one or more components.',
            ["domain name", "domain"],
        ),
        ("An SMTP reply is an acknowledgment sent in lines.", ["SMTP reply"]),
        ('This document refers to them as the "SMTP client".', ["SMTP client"]),
        ('A "relay" SMTP system (usually referred to just as a "relay") receives mail.', ["relay"]),
        # a case of something already named, and a subject ended by a relative pronoun
        ("An empty section specification refers to the entire message.", []),
        ("An older convention is a LOGIN command using the userid anonymous.", []),
        ("Note: An astring which consists of the sequence INBOX is INBOX.", []),
        # an ABNF rule's comment and a transcript define nothing
        ('mailbox = "INBOX" / astring ; An atom is a name.', []),
        ("Example: C: A001 NOOP S: A001 OK NOOP completed. A tag is a prefix.", []),
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
        ("SMTP client", 'refers to them as the "SMTP client"', True),
        ("JWT Claims Set", "JWT Claims Set A JSON object", True),
        ("TLS handshake Protocol", "The TLS handshake Protocol is", False),
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
        ("Header fields follow [RFC7230], Section 5.1, here.", True),
        ("as in RFC 4422, Section 5.1.", True),
        ("Section 5.1.2 says so; see [SASL], Section 5.1.", True),  # 5.1.2 is not 5.1
        ("See [SASL] and Section 5.1 below.", False),
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


def _defines_edge(section: SectionInfo, evidence: str, term: str) -> Edge:
    return Edge(
        "defines",
        layer=1,
        src_doc_id="rfc",
        src_section_id=section.section_id,
        matched_text=evidence,
        normalized_target=term.casefold(),
        confidence=1.0,
        term=term,
        position=section.text.find(evidence),
    )


@pytest.mark.parametrize(
    ("text", "evidence", "term", "dropped"),
    [
        # RFC 3501 6.4.4: quoted search-key data, not a term; and its transcript's placeholder
        (
            'For example, the criteria DELETED FROM "SMITH" SINCE 1-Feb-1994 refers to all '
            "deleted messages from Smith.",
            '"SMITH" SINCE 1-Feb-1994 refers to',
            "SMITH",
            True,
        ),
        (
            "Example: C: A284 SEARCH CHARSET UTF-8 TEXT {6} C: XXXXXX S: * SEARCH 43\n\n"
            'Note: The "XXXXXX" is a placeholder for 6 octets of 8-bit data.',
            'The "XXXXXX" is a',
            "XXXXXX",
            True,
        ),
        (
            'In other words, "ON 13-APR-2000" means messages dated so.',
            '"ON 13-APR-2000" means',
            "ON 13-APR-2000",
            True,
        ),
        (
            'body-fld-dsp = "(" string SP body-fld-param ")" / nil',
            '"(" string SP',
            "string SP",
            True,
        ),
        (
            'This is because mailbox uses "astring" syntax which is an atom.',
            '"astring" syntax which is an',
            "astring",
            True,
        ),
        # the forms a standard does define by
        (
            '"client" refers to the software being run by the user.',
            '"client" refers to',
            "client",
            False,
        ),
        (
            'A "binary string" is any string with NUL characters.',
            'A "binary string" is any',
            "binary string",
            False,
        ),
        (
            '"can" (not "may") is used to refer to a possible circumstance.',
            '"can" (not "may") is used',
            "can",
            False,
        ),
        (
            '"SMTP-sender" and "sender" mean the client.',
            '"SMTP-sender" and "sender" mean',
            "sender",
            False,
        ),
        # RFC 5321 2.3.3: a quoted gloss inside a noun phrase, and a name given in passing
        ('the final ("delivery") MTA hands the mail off', '("delivery")', "delivery", True),
        ('a Mail Transfer Agent ("MTA") is a host', '("MTA")', "MTA", False),
    ],
)
def test_a_standards_quoted_protocol_data_defines_nothing(text, evidence, term, dropped):
    section = _sec("6.4.4", "6.4.4. SEARCH Command", text)
    assert protocol_definition(_defines_edge(section, evidence, term), section) is dropped


def test_grammar_and_transcript_paragraphs_are_found():
    text = "Prose first.\nastring = 1*ASTRING-CHAR / string\nExample: C: a NOOP\nS: * OK"
    spans = [text[a:b] for a, b in example_spans(text)]
    assert spans == ["astring = 1*ASTRING-CHAR / string", "Example: C: a NOOP", "S: * OK"]
    assert [text[a:b] for a, b in example_spans(text, transcripts_only=True)] == spans[1:]


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("14) Emphasize in 5.2 that EXISTS can not be used to shrink a mailbox.", ["5.2"]),
        ("20) Fix example in 6.3.11.", ["6.3.11"]),
        ("Mailbox names are discussed elsewhere; see 5.2, and refer to 6.3.11.", ["5.2", "6.3.11"]),
        ("Upgrading from OAuth 1.0 to 5.2 is not described.", []),  # a version, not a place
        ("The server waits in 5.2 seconds.", []),  # a measure
        ("as described in 5.2 of [IMAP-TLS].", []),  # a section of another document
        ("TLS was updated in 9.9 for this.", []),  # no such section: a number
        ("Example: C: A1 FETCH 1 (BODY[in 5.2])", []),  # a transcript
        ("The limits are given in 5.2 and 6.3.11.", ["5.2", "6.3.11"]),  # a list
        ("Values in 5.2, 9.9 and 6.3.11 apply.", []),  # a list holding a non-section
    ],
)
def test_a_bare_section_number_after_a_pointer_cites_a_section(text, cited):
    labels = {
        "5.2": _sec("5.2", "5.2. Mailbox Size", "x"),
        "6.3.11": _sec("6.3.11", "6.3.11. APPEND Command", "x"),
    }
    s = _sec("B", "B. Changes from RFC 2060", text)
    found = bare_number_citations(s, labels, example_spans(text))
    assert [e.normalized_target for e in found] == cited


def test_a_key_word_index_with_page_leaders_is_contents_and_a_price_index_is_not():
    index = _sec(
        "C",
        "Key Word Index",
        " ".join(
            f"{w} (command) ........................ {n}"
            for w, n in [("APPEND", 45), ("CHECK", 47), ("CLOSE", 48), ("COPY", 59), ("FETCH", 54)]
        ),
    )
    assert is_contents(index)
    cpi = _sec("4", "Consumer Price Index", "The rent rises with the index each year.")
    assert not is_contents(cpi)


@pytest.mark.parametrize(
    ("term", "text", "hit"),
    [
        ("authorization grant", "the authorization granted to the client", False),
        ("authorization grant", "presenting the authorization grants", True),
        ("convey", "you may not be conveying it", True),  # a defined verb keeps its endings
    ],
)
def test_a_defined_noun_phrase_takes_no_verb_endings(term, text, hit):
    assert bool(term_pattern(term).search(text)) is hit


def test_a_lower_case_term_in_title_case_is_a_use():
    sections = [
        _sec("2.3.5", "2.3.5. Envelope Structure Message Attribute", "A parsed header.", n=0),
        _sec("B", "B. Changes", "100) Change Envelope Structure definition.", n=1),
        _sec("C", "C. Other", "the additional Envelope structure fields", n=2),
    ]
    terms = [Term("envelope structure", "envelope structure", "rfc", "rfc-2.3.5")]
    uses = {e.src_section_id for e in term_uses(sections, terms, {}, set())}
    assert uses == {"rfc-B"}


def test_an_appendix_cited_by_letter_resolves_where_appendices_are_lettered_alone():
    lettered = {
        "A": _sec("A", "A. Normative References", "x"),
        "B": _sec("B", "B. Changes from RFC 2060", "x"),
    }
    s = _sec("9", "9. Formal Syntax", "See Appendix B for the changes; Appendix C does not exist.")
    assert [e.normalized_target for e in appendix_citations(s, lettered)] == ["B"]
    # where the document labels them "Appendix B", the general patterns resolve the citation
    named = {"Appendix B": _sec("Appendix B", "Acknowledgements", "x"), "B": lettered["B"]}
    assert appendix_citations(s, named) == []


@pytest.mark.parametrize(
    ("text", "date_text", "dropped"),
    [
        (
            "When multiple keys are specified, the result is their intersection. For example, "
            'the criteria DELETED FROM "SMITH" SINCE 1-Feb-1994 refers to all deleted messages '
            "placed in the mailbox since February 1, 1994.",
            "since February 1, 1994",
            True,
        ),
        (
            "Servers deployed before 1 January 2010 MAY omit the capability.",
            "before 1 January 2010",
            False,
        ),
    ],
)
def test_a_date_in_a_standards_example_limits_nothing(text, date_text, dropped):
    section = _sec("6.4.4", "6.4.4. SEARCH Command", text)
    edge = Edge(
        "applies_to",
        layer=1,
        src_doc_id="rfc",
        src_section_id=section.section_id,
        matched_text=date_text,
        normalized_target="1994-02-01/",
        confidence=0.85,
        position=text.index(date_text),
    )
    assert example_date(edge, section) is dropped


def test_a_bibliography_uses_no_terms():
    refs = _sec(
        "12.1",
        "12.1. Normative References",
        '[RFC6750] Jones, M., "The OAuth 2.0 Authorization Framework: Bearer Token Usage", '
        "RFC 6750, October 2012.\n\n"
        '[RFC2119] Bradner, S., "Key words for use in RFCs", BCP 14, RFC 2119, March 1997.',
    )
    assert is_bibliography(refs)
    clause = _sec("1.2", "1.2 References", "References to Sections are to this Agreement's.")
    assert not is_bibliography(clause)
    term = Term("bearer token", "bearer token", "rfc", "rfc-1.2x")
    prose = _sec("7", "7. Tokens", "A bearer token is sent.", n=2)
    uses = term_uses([refs, prose], [term], {}, set())
    assert [e.src_section_id for e in uses] == ["rfc-7"]


def test_every_standard_edge_names_its_registered_rule():
    rfc = parse_file(DEV_LEGAL / "rfc" / "rfc3501.txt", 50_000_000)
    real = [
        SectionInfo(
            s.section_id, s.doc_id, s.ordinal, s.label, s.heading, s.level, s.parent_id, s.text
        )
        for s in build_sections("rfc3501", rfc.lines, rfc.format)
    ]
    for sections in (SECTIONS, real):
        edges = standard_edges(sections)
        assert edges
        for e in edges:
            assert e.rule in RULES.rules, f"{e.edge_type} {e.matched_text!r}: rule {e.rule!r}"
            assert RULES[e.rule].edge_type == e.edge_type, e.rule
    families = {e.rule.split(".")[0] for e in standard_edges(real)}
    assert families == {"references", "defines"}
