"""Document relations: a standard's header lists, amendments naming their agreement and its
section, successors, 'supersedes all prior agreements', dated version families in names."""

import datetime as dt

import pytest

from raag_assets.core.model import DocInfo, Edge, SectionInfo
from raag_assets.graph.build import extract, titled
from raag_assets.graph.dates import document_effective_date
from raag_assets.graph.documents import document_edges, text_document_edges, version_of
from raag_assets.graph.references import Corpus
from raag_assets.graph.rules import RULES
from raag_assets.ingest.parsing import parse_file
from raag_assets.ingest.sectioning import build_sections
from raag_assets.quality.graph_gold import read_file
from resources.nlp import load_pipeline
from tests.conftest import DEV_LEGAL, SHARED


def _sections(doc_id: str, blocks: list[tuple[str, str, str]]) -> list[SectionInfo]:
    return [
        SectionInfo(f"{doc_id}-{n}", doc_id, n, label, heading, 1, None, text)
        for n, (label, heading, text) in enumerate(blocks)
    ]


def _parse(texts: list[str]) -> list:
    return list(load_pipeline("en_core_web_sm").pipe(texts))


def _document_level(docs: list[DocInfo], sections: list[SectionInfo]) -> list[Edge]:
    """What document_edges and text_document_edges make, as extract calls them."""
    docs = titled(docs, sections)
    corpus = Corpus([d for d in docs if d.superseded_by is None], sections)
    return [
        *document_edges(docs, corpus),
        *(e for s in sections for e in text_document_edges(s, corpus)),
    ]


def _assert_ruled(edges: list[Edge]) -> None:
    """Every edge names the registered rule that made it, of the edge's type."""
    for e in edges:
        assert e.rule in RULES.rules, f"{e.edge_type} {e.matched_text!r}: rule {e.rule!r}"
        assert RULES[e.rule].edge_type == e.edge_type, e.rule


def _graph(docs: list[DocInfo], sections: list[SectionInfo]) -> set[tuple]:
    made = _document_level(docs, sections)
    assert made
    _assert_ruled(made)
    out = extract(docs, sections, _parse)
    by_id = {s.section_id: s.label for s in sections}
    return {
        (
            e.edge_type,
            f"{e.src_doc_id} § {by_id[e.src_section_id]}" if e.src_section_id else e.src_doc_id,
            e.dst_doc_id,
            by_id.get(e.dst_section_id or "", ""),
        )
        for e in out.edges
        if e.edge_type in ("supersedes", "amends")
    }


def test_header_lists_link_every_number():
    rfc = parse_file(DEV_LEGAL / "rfc" / "rfc3501.txt", 50_000_000)
    real = [
        SectionInfo(
            s.section_id, s.doc_id, s.ordinal, s.label, s.heading, s.level, s.parent_id, s.text
        )
        for s in build_sections("rfc3501", rfc.lines, rfc.format)
    ]
    header = "Network Working Group\nRequest for Comments: {n}\nObsoletes: {obs}\nUpdates: {upd}"
    new = _sections(
        "imap-next",
        [("Title", "IMAP NEXT", header.format(n=9999, obs="3501, 1730", upd="2060 and 2822"))],
    )
    others = [
        *_sections("rfc1730", [("Title", "IMAP4", "Request for Comments: 1730")]),
        *_sections("rfc2060", [("Title", "IMAP4rev1", "Request for Comments: 2060 text")]),
        *_sections("rfc2822", [("Title", "Internet Message Format", "RFC 2822")]),
    ]
    docs = [DocInfo(d, d) for d in ("rfc3501", "rfc1730", "rfc2060", "rfc2822", "imap-next")]
    got = _graph(docs, [*real, *new, *others])
    assert {
        ("supersedes", "rfc3501", "rfc2060", ""),  # RFC 3501's own "Obsoletes: 2060"
        ("supersedes", "imap-next", "rfc3501", ""),
        ("supersedes", "imap-next", "rfc1730", ""),
        ("amends", "imap-next", "rfc2060", ""),
        ("amends", "imap-next", "rfc2822", ""),
    } <= got


def test_amendment_names_its_agreement_and_section():
    supply = _sections(
        "supply",
        [
            ("Title", "SUPPLY AGREEMENT", "This Supply Agreement is made between A and B."),
            ("4.3", "Prices", "Prices are fixed for one year."),
            ("9", "Term", "Three years."),
        ],
    )
    amendment = _sections(
        "supply-amendment-2",
        [
            ("Title", "SECOND AMENDMENT TO SUPPLY AGREEMENT", "Made between A and B."),
            (
                "1",
                "Prices",
                "Section 4.3 of the Agreement is hereby amended and restated as follows.",
            ),
            ("2", "Term", "Section 9 of the Supply Agreement shall be deleted."),
        ],
    )
    docs = [
        DocInfo("supply", "supply.md", title="Supply Agreement"),
        DocInfo("supply-amendment-2", "a.md"),
    ]
    got = _graph(docs, [*supply, *amendment])
    assert ("amends", "supply-amendment-2", "supply", "") in got  # its title names it
    # the amending section amends the section it names; "the Agreement" is the one its title names
    assert ("amends", "supply-amendment-2 § 1", "supply", "4.3") in got
    assert ("amends", "supply-amendment-2 § 2", "supply", "9") in got


def test_successor_and_all_prior_agreements():
    blocks = {
        "msa-2019": "This Master Services Agreement sets the terms.",
        "msa-2023": "This Agreement supersedes all prior agreements between the parties.",
        "code-2": "This Code of Conduct is the successor of the Ethics Charter.",
        "charter": "Ethics Charter.",
    }
    sections = [
        s for doc_id, text in blocks.items() for s in _sections(doc_id, [("1", "Terms", text)])
    ]
    docs = [
        DocInfo(
            "msa-2019", "a", title="Master Services Agreement", effective_from=dt.date(2019, 1, 1)
        ),
        DocInfo(
            "msa-2023", "b", title="Master Services Agreement", effective_from=dt.date(2023, 1, 1)
        ),
        DocInfo("code-2", "c", title="Code of Conduct"),
        DocInfo("charter", "d", title="Ethics Charter"),
    ]
    got = _graph(docs, sections)
    assert ("supersedes", "msa-2023", "msa-2019", "") in got
    assert ("supersedes", "msa-2019", "msa-2023", "") not in got
    assert ("supersedes", "code-2", "charter", "") in got


def test_version_families_in_file_names():
    assert version_of("policy_2021-03-03") == ("policy", (2021, 3, 3))
    assert version_of("policy_2022-06-01") == ("policy", (2022, 6, 1))
    assert version_of("Terms 20220601") == ("terms", (2022, 6, 1))
    assert version_of("terms-v2")[1] < version_of("terms-v10")[1]  # numeric, not text order
    assert version_of("leave-policy-rev-a") == ("leave-policy", (1,))
    assert version_of("6157837") is None


def test_metadata_and_file_name_relations_name_their_rules():
    docs = [
        DocInfo("leave-policy-rev-a", "leave.md", superseded_by="leave-policy-rev-b"),
        DocInfo("leave-policy-rev-b", "leave.md", effective_from=dt.date(2024, 1, 1)),
        DocInfo("travel-v1", "travel-v1.md"),
        DocInfo("travel-v2", "travel-v2.md", supersedes="travel-v1"),
        DocInfo("travel-note", "note.md", metadata={"amends": "travel-v2"}),
        DocInfo("guide-2023", "guide-2023.md"),
        DocInfo("guide-2024", "guide-2024.md"),
    ]
    edges = _document_level(docs, [])
    _assert_ruled(edges)
    assert {e.rule for e in edges} == {
        "supersedes.new_version",
        "effective_on.metadata",
        "supersedes.metadata",
        "amends.metadata",
        "supersedes.file_name_version",
        "supersedes.file_name_revision",
    }
    by_rule = {(e.src_doc_id, e.dst_doc_id): e.rule for e in edges if e.edge_type == "supersedes"}
    # a dated issue replaces the one before; a numbered version may coexist with it
    assert by_rule[("guide-2024", "guide-2023")] == "supersedes.file_name_revision"
    assert by_rule[("travel-v2", "travel-v1")] in (
        "supersedes.file_name_version",
        "supersedes.metadata",
    )


# --- amendments that name their agreement and the sections they change (issue 19) ---------

_ACME = 'Acme Components, Inc. ("Acme") and Beta Devices LLC ("Beta")'
_SUPPLY_ACME = [
    ("Title", "SUPPLY AGREEMENT", f"This Supply Agreement is dated March 1, 2019 between {_ACME}."),
    ("2", "Supply", "Acme shall supply the Products to Beta."),
    ("2.4", "Forecasts", "Beta shall forecast its needs."),
    ("2.4.1", "Rolling forecast", "Beta shall deliver a rolling twelve-month forecast."),
    ("4.2", "Payment", "Beta shall pay each invoice within sixty days."),
]
# another supply agreement, later, between other parties: the amendment's date and parties
# say it is not the one amended
_SUPPLY_GAMMA = [
    (
        "Title",
        "SUPPLY AGREEMENT",
        'This Supply Agreement is dated May 5, 2020 between Gamma Metals plc ("Gamma") and '
        'Delta Tools GmbH ("Delta").',
    ),
    ("4.2", "Payment", "Delta shall pay within ten days."),
]
_AMENDMENT = [
    (
        "Title",
        "AMENDMENT NO. 2 TO THE SUPPLY AGREEMENT DATED MARCH 1, 2019 BETWEEN ACME COMPONENTS, "
        "INC. AND BETA DEVICES LLC",
        'This Amendment No. 2 (this "Amendment") is entered into effective as of June 1, 2021 '
        f"by {_ACME}.",
    ),
    (
        "1",
        "Payment terms",
        "Section 4.2 of the Supply Agreement is hereby amended and restated to read as "
        'follows: "4.2 Beta shall pay each invoice within thirty days."',
    ),
    ("2", "Forecasts", "Section 2.4.1 of the Agreement is deleted in its entirety."),
    ("3", "Effect", "Except as amended by this Amendment, the Agreement remains in effect."),
]


def _supply_tenant(*agreements: str) -> tuple[list[DocInfo], list[SectionInfo]]:
    blocks = {"supply-acme": _SUPPLY_ACME, "supply-gamma": _SUPPLY_GAMMA}
    docs = [DocInfo(d, f"{d}.txt", title="Supply Agreement") for d in agreements]
    docs.append(DocInfo("amendment-2", "Amendment No. 2.txt"))
    sections = [s for d in agreements for s in _sections(d, blocks[d])]
    return docs, [*sections, *_sections("amendment-2", _AMENDMENT)]


def test_amendment_names_its_agreement_by_title_date_and_parties():
    """Both levels: the amendment amends the agreement its title names and describes (not the
    later one of the same name between other parties), and each section it changes, a
    three-level clause included; "the Agreement" is the one it amends."""
    docs, sections = _supply_tenant("supply-acme", "supply-gamma")
    got = _graph(docs, sections)
    assert got == {
        ("amends", "amendment-2", "supply-acme", ""),
        ("amends", "amendment-2 § 1", "supply-acme", "4.2"),
        ("amends", "amendment-2 § 2", "supply-acme", "2.4.1"),
    }
    # the citations themselves are references of the same sections
    out = extract(docs, sections, _parse)
    refs = {(e.src_section_id, e.dst_section_id) for e in out.edges if e.edge_type == "references"}
    assert {("amendment-2-1", "supply-acme-4"), ("amendment-2-2", "supply-acme-3")} <= refs
    assert not out.parked


def test_amendment_of_an_agreement_not_in_the_tenant_is_parked_with_its_description():
    docs, sections = _supply_tenant()
    out = extract(docs, sections, _parse)
    assert not [e for e in out.edges if e.edge_type == "amends"]
    reasons = {(p.src_section_id, p.kind): p.reason for p in out.parked}
    title = reasons[("amendment-2-0", "document")]
    assert title.startswith("amends the SUPPLY AGREEMENT dated 2019-03-01 between acme")
    assert "no document of that name in this tenant yet" in title
    assert reasons[("amendment-2-2", "labels")].startswith(
        "section 2.4.1 of the agreement amended, the SUPPLY AGREEMENT dated 2019-03-01"
    )
    # only a supply agreement between other parties, of another date: not the one amended
    docs, sections = _supply_tenant("supply-gamma")
    out = extract(docs, sections, _parse)
    assert not [e for e in out.edges if e.edge_type == "amends"]
    reasons = {(p.src_section_id, p.kind): p.reason for p in out.parked}
    assert (
        "supply-gamma has that name, but neither that date nor those parties"
        in (reasons[("amendment-2-0", "document")])
    )


def test_amendment_named_in_its_file_name_or_by_amends_and_its_bare_citations():
    """'Amendment #3 to the Lease Agreement.txt'; 'This First Amendment amends the
    Distribution Agreement'; in an amendment, a section declared amended without a document
    named is the agreement's (its own restated text does not capture it)."""
    lease = _sections("lease", [("Title", "LEASE AGREEMENT", "Made between L and T."),
                                ("12.1.3", "Repairs", "The tenant repairs.")])  # fmt: skip
    amendment = _sections(
        "lease-amendment-3",
        [
            ("Title", "Amendment", "Made between L and T."),
            ("1", "Repairs", "Section 12.1.3 is hereby deleted and replaced by Section 2."),
            ("2", "New repairs", "The landlord repairs."),
            (
                "3",
                "Notice",
                "The Agreement is hereby amended by adding the following sentence at the end "
                "of Section 12.1.3: repairs are notified in writing.",
            ),
        ],
    )
    docs = [
        DocInfo("lease", "lease.txt", title="Lease Agreement"),
        DocInfo("lease-amendment-3", "Amendment #3 to the Lease Agreement.txt"),
    ]
    got = _graph(docs, [*lease, *amendment])
    assert ("amends", "lease-amendment-3", "lease", "") in got
    assert ("amends", "lease-amendment-3 § 1", "lease", "12.1.3") in got
    assert ("amends", "lease-amendment-3 § 1", "lease-amendment-3", "2") not in got
    assert ("amends", "lease-amendment-3 § 3", "lease", "12.1.3") in got
    distribution = _sections("dist", [("1", "Territory", "Europe.")])
    first = _sections(
        "dist-first",
        [("Title", "First Amendment", "This First Amendment amends the Distribution Agreement.")],
    )
    docs = [
        DocInfo("dist", "d.txt", title="Distribution Agreement"),
        DocInfo("dist-first", "a.txt"),
    ]
    assert ("amends", "dist-first", "dist", "") in _graph(docs, [*distribution, *first])


def test_added_sections_and_incorporated_documents_amend_the_document():
    """'Section 9.4 set forth below is hereby added to the Agreement' amends the agreement
    (the section it adds is not there yet); so does a document that incorporates another
    'supplemented by' its own terms."""
    supply = _sections("supply", [("Title", "SUPPLY AGREEMENT", "Between A and B."),
                                  ("9.3", "Audit", "Audits yearly.")])  # fmt: skip
    amendment = _sections(
        "supply-first",
        [
            ("Title", "FIRST AMENDMENT TO SUPPLY AGREEMENT", "Between A and B."),
            ("1", "Audit", "Section 9.4 set forth below is hereby added to the Agreement."),
        ],
    )
    docs = [DocInfo("supply", "s.txt", title="Supply Agreement"), DocInfo("supply-first", "a")]
    assert ("amends", "supply-first § 1", "supply", "") in _graph(docs, [*supply, *amendment])
    # an agreement with its amendment filed in it: the agreement itself
    own = _sections(
        "msa",
        [
            ("1", "Audit", "Audits yearly."),
            ("Amendment", "Amendment", "Section 1.2 below is hereby added to the Agreement."),
        ],
    )
    assert ("amends", "msa § Amendment", "msa", "") in _graph([DocInfo("msa", "m")], own)
    base = _sections("foo-2", [("Title", "FOO PUBLIC LICENSE", "Version 2.")])
    lesser = _sections(
        "foo-lesser-2",
        [
            (
                "Title",
                "FOO LESSER LICENSE",
                "This license incorporates the terms and conditions of version 2 of the Foo "
                "Public License, supplemented by the additional permissions listed below.",
            )
        ],
    )
    docs = [
        DocInfo("foo-2", "a", title="Foo Public License"),
        DocInfo("foo-lesser-2", "b", title="Foo Lesser License"),
    ]
    assert ("amends", "foo-lesser-2 § Title", "foo-2", "") in _graph(docs, [*base, *lesser])


def test_prior_agreements_are_between_the_same_parties_and_parts_are_not_versions():
    """'supersedes all prior agreements' finds no prior agreement of the same title between
    other parties; a filing's parts ('Supply Agreement1', 'Supply Agreement2') are not
    versions of each other."""
    texts = {
        "msa-a-2019": "This Master Services Agreement is made between Acme Inc. and Beta LLC.",
        "msa-c-2020": "This Master Services Agreement is made between Gamma plc and Delta AG.",
        "msa-a-2023": "This Agreement is made between Acme Inc. and Beta LLC. This Agreement "
        "supersedes all prior agreements between the parties.",
    }
    sections = [s for d, t in texts.items() for s in _sections(d, [("1", "Terms", t)])]
    docs = [
        DocInfo(d, d, title="Master Services Agreement", effective_from=dt.date(int(d[-4:]), 1, 1))
        for d in texts
    ]
    got = _graph(docs, sections)
    assert ("supersedes", "msa-a-2023", "msa-a-2019", "") in got
    assert ("supersedes", "msa-a-2023", "msa-c-2020", "") not in got
    assert version_of("Supply Agreement2") is None and version_of("rfc3501") is None
    parts = [DocInfo(f"Supply Agreement{n}", f"Supply Agreement{n}.txt") for n in (1, 2)]
    assert not [e for e in _document_level(parts, []) if e.edge_type == "supersedes"]


def test_amendment_effective_date_is_its_own():
    """The amendment's own effective date, not its agreement's (graph/dates.py)."""
    lines = [
        "AMENDMENT NO. 2 TO THE SUPPLY AGREEMENT",
        'This Amendment No. 2 (this "Amendment") is entered into effective as of June 1, 2021 '
        "and amends the Supply Agreement between Acme and Beta dated March 1, 2019.",
    ]
    found = document_effective_date(lines)
    assert found is not None and found.date == dt.date(2021, 6, 1)


def test_amendment_effective_date_after_its_agreements_date_in_the_title():
    lines = [_AMENDMENT[0][1], _AMENDMENT[0][2]]
    found = document_effective_date(lines)
    assert found is not None and found.date == dt.date(2021, 6, 1)


_CUAD = SHARED / "data" / "cuad" / "contracts"
_SCANSOURCE = "ScansourceInc_20190822_10-K_EX-10.{n}_{id}_EX-10.{n}_Distributor Agreement{part}.txt"


@pytest.mark.skipif(not _CUAD.is_dir(), reason="CUAD contracts not on this machine")
def test_real_amendment_names_its_agreement_filed_in_the_same_tenant():
    """A look-half CUAD pair: 'AMENDMENT NO. 3 TO THE NONEXCLUSIVE VALUE ADDED DISTRIBUTOR
    AGREEMENT' amends the agreement headed so (it has no title of its own)."""
    paths = [
        _CUAD / _SCANSOURCE.format(n="38", id="11793958", part="1"),
        _CUAD / _SCANSOURCE.format(n="39", id="11793959", part=""),
    ]
    read = [read_file(p) for p in paths]
    docs = [doc for doc, _, _ in read]
    sections = [s for _, secs, _ in read for s in secs]
    got = _graph(docs, sections)
    assert (
        "amends",
        "ScansourceInc_20190822_10-K_EX-10.39_11793959_EX-10.39_Distributor Agreement",
        "ScansourceInc_20190822_10-K_EX-10.38_11793958_EX-10.38_Distributor Agreement1",
        "",
    ) in got


def test_an_agreement_mentioning_an_amendment_is_not_one():
    """'as amended by Amendment No. 1 to the Supply Agreement' in an agreement's opening does
    not make it an amendment: its own 'Section 2 of the Agreement' is still its own."""
    supply = _sections("supply", [("Title", "SUPPLY AGREEMENT", "Between A and B.")])
    credit = _sections(
        "credit",
        [
            (
                "Title",
                "CREDIT AGREEMENT",
                "Made between A and C, under the Supply Agreement as amended by Amendment No. 1 "
                "to the Supply Agreement.",
            ),
            ("1", "Loan", "The loan is governed by Section 2 of the Agreement."),
            ("2", "Interest", "Five percent."),
        ],
    )
    docs = [
        DocInfo("supply", "s.txt", title="Supply Agreement"),
        DocInfo("credit", "c.txt", title="Credit Agreement"),
    ]
    out = extract(docs, [*supply, *credit], _parse)
    refs = {(e.src_section_id, e.dst_section_id) for e in out.edges if e.edge_type == "references"}
    assert ("credit-1", "credit-2") in refs
    assert not [e for e in out.edges if e.edge_type == "amends"]
