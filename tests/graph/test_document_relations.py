"""Document relations: a standard's header lists, amendments naming their agreement and its
section, successors, 'supersedes all prior agreements', dated version families in names."""

import datetime as dt

from raag_assets.core.model import DocInfo, Edge, SectionInfo
from raag_assets.graph.build import extract, titled
from raag_assets.graph.documents import document_edges, text_document_edges, version_of
from raag_assets.graph.references import Corpus
from raag_assets.graph.rules import RULES
from raag_assets.ingest.parsing import parse_file
from raag_assets.ingest.sectioning import build_sections
from resources.nlp import load_pipeline
from tests.conftest import DEV_LEGAL


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
    }
