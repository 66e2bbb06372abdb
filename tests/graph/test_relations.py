"""Layer 1 citations and their cues name the rule behind every edge: over real licence texts
(GPL-3, Apache-2.0, split at their numbered sections) and a short contract, each edge
section_edges makes and each mention it finds carries an id registered in graph.rules.RULES."""

import re
from pathlib import Path

import pytest

from raag_assets.core.model import FRONT_LABEL, DocInfo, SectionInfo
from raag_assets.graph.references import Corpus, find_mentions
from raag_assets.graph.relations import section_edges
from raag_assets.graph.rules import RULES

LICENSES = Path("/usr/share/common-licenses")
_NUMBERED = re.compile(r"^ {2,3}(\d{1,2})\. ([^.\n]+)\.", re.MULTILINE)

# A short contract with the cue families the licences do not use.
CONTRACT = {
    "Recitals": "Recitals. The Customer wishes to buy services.",
    "1": "Definitions. Terms used in Section 2 have the meanings given in the recitals.",
    "2": (
        "Services. Subject to Section 3, the Supplier shall provide the Services described "
        "in Exhibit A. Notwithstanding Section 4, the Supplier may subcontract."
    ),
    "3": (
        "Fees. The Customer shall pay the fees pursuant to 2.1. Section 4 is hereby amended "
        "to read as follows. The licence may be revoked where Section 5 is not invoked."
    ),
    "2.1": "Payment. Invoices are due within thirty days.",
    "4": "Term. On expiry, Section 2 shall terminate.",
    "5": (
        "General. Notwithstanding anything to the contrary in this Agreement, this Section "
        "shall prevail over any other provisions of this Agreement."
    ),
    "Exhibit A": "Services. Support and maintenance.",
}


def _sections(doc_id: str, text: str) -> list[SectionInfo]:
    """The title block, then one section per numbered heading ("  7. Additional Terms.")."""
    heads = list(_NUMBERED.finditer(text))
    out = [
        SectionInfo(
            f"{doc_id}-title", doc_id, 0, FRONT_LABEL, doc_id, 1, None, text[: heads[0].start()]
        )
    ]
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[m.end() : end].strip()
        out.append(SectionInfo(f"{doc_id}-{m[1]}", doc_id, i + 1, m[1], m[2], 1, None, body))
    return out


def _corpus() -> tuple[Corpus, list[SectionInfo]]:
    sections: list[SectionInfo] = []
    docs: list[DocInfo] = []
    for name in ("GPL-3", "Apache-2.0"):
        path = LICENSES / name
        if not path.exists():
            pytest.skip(f"{path} is not installed here")
        docs.append(DocInfo(name, name, name))
        sections += _sections(name, path.read_text(encoding="utf-8"))
    docs.append(DocInfo("contract", "contract.txt", "Services Agreement"))
    sections += [
        SectionInfo(f"contract-{label}", "contract", i, label, text.split(".")[0], 1, None, text)
        for i, (label, text) in enumerate(CONTRACT.items())
    ]
    return Corpus(docs, sections), sections


def test_every_citation_edge_names_a_registered_rule() -> None:
    corpus, sections = _corpus()
    edges = [e for s in sections for e in section_edges(s, corpus)[0]]
    assert len(edges) > 40
    for e in edges:
        assert e.rule in RULES.rules, f"{e.edge_type} edge {e.matched_text!r}: rule {e.rule!r}"
        made_by = RULES[e.rule]
        assert made_by.edge_type == e.edge_type, e.rule
        assert made_by.kind == ("citation" if e.edge_type == "references" else "cue"), e.rule
    rules = {e.rule for e in edges}
    assert {
        "references.section_label",
        "references.annex",
        "references.bare_number",
        "references.front_matter",
        "overrides.notwithstanding",
        "overrides.displaced_after",
        "overrides.vague_notwithstanding",
        "overrides.own_precedence",
        "depends_on.subject_to",
        "depends_on.after_condition",
        "amends.amended_after",
    } <= rules


def test_every_mention_names_its_citation_form() -> None:
    _, sections = _corpus()
    mentions = [m for s in sections for m in find_mentions(s.text)]
    assert mentions
    for m in mentions:
        assert RULES[m.rule].kind == "citation", m.rule
    found = {m.rule for m in find_mentions("as required by RFC 2119 and by the HR Handbook")}
    assert found == {"references.numbered_document", "references.named_document"}


def _contract(labels_and_texts: dict[str, str], doc_id: str = "deal") -> tuple[Corpus, list]:
    sections = [
        SectionInfo(f"{doc_id}-{label}", doc_id, i, label, label, 1, None, text)
        for i, (label, text) in enumerate(labels_and_texts.items())
    ]
    return Corpus([DocInfo(doc_id, f"{doc_id}.txt", "Supply Agreement")], sections), sections


def _conditions(labels_and_texts: dict[str, str]) -> set[tuple[str, str]]:
    """(source label, target label) of every depends_on edge between the sections."""
    corpus, sections = _contract(labels_and_texts)
    return {
        (s.label, e.dst_section_id.removeprefix("deal-"))
        for s in sections
        for e in section_edges(s, corpus)[0]
        if e.edge_type == "depends_on" and e.dst_section_id
    }


def test_a_section_number_of_a_statutes_form_is_another_texts_not_dangling_in_the_document():
    text = (
        "Compliance. Each party complies with Sections 302 and 906, Section 4980H and "
        "Section 227.7202, as Section 2 and Section 21 require."
    )
    corpus, sections = _contract({"1": text, "2": "Term. The term is two years."})
    edges, parked, _ = section_edges(sections[0], corpus)
    assert [e.dst_section_id for e in edges if e.edge_type == "references"] == ["deal-2"]
    other = {u.target_label for u in parked if u.target_doc == "another text"}
    assert other == {"302", "906", "4980H", "227.7202"}
    # "Section 21" in a contract of two sections may be its own lost number: it stays dangling
    assert [u.target_label for u in parked if not u.target_doc] == ["21"]
    # a contract numbering its own sections so ("Section 302" of Article 3) keeps them its own
    corpus, sections = _contract({"1": text, "301": "Term.", "303": "Notices."})
    _, parked, _ = section_edges(sections[0], corpus)
    assert {u.target_label for u in parked if not u.target_doc} >= {"302", "906", "21"}
    # a document whose sections carry no number at all: its numbering is unknown
    corpus, sections = _contract({"Compliance": text, "Term": "The term is two years."})
    _, parked, _ = section_edges(sections[0], corpus)
    assert not [u for u in parked if u.target_doc]


def test_a_condition_on_a_section_in_the_words_contracts_and_licences_use() -> None:
    texts = {
        "1": "Supply. The Seller shall deliver, subject in all respects to Section 6 hereof.",
        "2": "Repair. The Seller shall fix the issue in accordance with either Section 4 or 5.",
        "3": "Title. The Seller acts in accordance with its duties specified in Section 6.",
        "4": "Copies. You may copy a Modified Version under the conditions of sections 5 and 6.",
        "5": "Bulk. If you ship many copies you must also follow the conditions in section 6.",
        "6": "Terms. You may combine it under the terms defined in section 4 above.",
        "7": "Notes. The notes in section 6 describe the goods.",
    }
    found = _conditions(texts)
    assert found == {
        ("1", "6"),
        ("2", "4"),
        ("2", "5"),
        ("3", "6"),
        ("4", "5"),
        ("4", "6"),
        ("5", "6"),
        ("6", "4"),
    }


def test_a_licence_printed_as_one_section_cites_its_own_clauses():
    """The GNU FDL printed as an appendix of a manual: its clauses "0. PREAMBLE" ... "4.
    MODIFICATIONS" are items of its one section, so "section 4" and "sections 2 and 3 above"
    inside it cite itself (no edge), not the manual's chapters 2-4; the manual's own
    "Section 2" from another section still resolves."""
    licence = (
        "Version 1.3. Everyone may copy it. 0. PREAMBLE The purpose of this License is to "
        "make a manual free. 1. APPLICABILITY AND DEFINITIONS This License applies to any "
        "manual. 2. VERBATIM COPYING You may copy the Document. 3. COPYING IN QUANTITY If you "
        "publish copies, follow the conditions in sections 2 and 3 above. 4. MODIFICATIONS You "
        "may distribute a Modified Version under the conditions of section 4."
    )
    chapters = {
        "1": "Introduction. See Section 2 for the parser.",
        "2": "Parsing. The parser reads the schema.",
        "3": "Utilities. The tools read files.",
        "4": "Functions. The functions build trees.",
        "A.1": licence,
    }
    corpus, sections = _contract(chapters, doc_id="manual")
    edges, parked, _ = section_edges(sections[-1], corpus)
    assert not [e for e in edges if e.dst_doc_id == "manual"]
    assert not parked
    edges, _, _ = section_edges(sections[0], corpus)
    assert [e.dst_section_id for e in edges if e.edge_type == "references"] == ["manual-2"]


def test_texinfo_cross_references_resolve_to_a_heading_or_the_section_holding_the_entry():
    """ "See Section 2 [Parsing], page 3" cites the section headed so; "[tree new], page 9"
    names a function's entry, a paragraph of its own inside section 4."""
    sections = [
        SectionInfo(
            "m-1",
            "m",
            0,
            "1",
            "Introduction",
            1,
            None,
            "See [Parsing], page 3, and the functions • [tree new], page 9, • [tree free], page 9.",
        ),
        SectionInfo("m-2", "m", 1, "2", "Parsing", 1, None, "The parser reads the schema."),
        SectionInfo(
            "m-4",
            "m",
            2,
            "4",
            "Functions",
            1,
            None,
            "tree new\n\nint tree_new (void) [Function]\n\ntree free\n\nvoid tree_free (void)",
        ),
    ]
    corpus = Corpus([DocInfo("m", "m.pdf", "Manual")], sections)
    edges, _, _ = section_edges(sections[0], corpus)
    cited = {(e.dst_section_id, e.rule) for e in edges if e.edge_type == "references"}
    assert cited == {("m-2", "references.texinfo_xref"), ("m-4", "references.texinfo_xref")}
    # a section naming itself by its heading is no edge
    own = SectionInfo("m-5", "m", 3, "5", "Notes", 1, None, "See the section entitled “Notes”.")
    corpus = Corpus([DocInfo("m", "m.pdf", "Manual")], [*sections, own])
    assert not section_edges(own, corpus)[0]


def test_a_document_printed_as_a_section_of_the_citing_one_is_cited_there():
    """A manual's copyright page grants permission "under the terms of the GNU Free
    Documentation License", which its appendix A.1 prints: with no such document in the
    tenant, the name cites A.1 (a references and a depends_on edge); an Info "*note" cites a
    section by its node name."""
    corpus, sections = _contract(
        {
            "Title": "Permission is granted to copy this document under the terms of the GNU "
            "Free Documentation License, Version 1.3. See *note Introduction::.",
            "Introduction": "The library parses schemas.",
            "GNU Free Documentation License": "0. PREAMBLE The purpose of this License. " * 120,
        },
        doc_id="manual",
    )
    edges, _, _ = section_edges(sections[0], corpus)
    found = {(e.edge_type, e.dst_section_id) for e in edges}
    assert ("references", "manual-GNU Free Documentation License") in found
    assert ("depends_on", "manual-GNU Free Documentation License") in found
    assert ("references", "manual-Introduction") in found
    # the licence as a document of the tenant is what the name cites
    gfdl = SectionInfo("gfdl-0", "gfdl", 0, "0", "Preamble", 1, None, "The purpose.")
    docs = [
        DocInfo("manual", "manual.pdf", "Manual"),
        DocInfo("gfdl", "gfdl.txt", "GNU Free Documentation License"),
    ]
    corpus = Corpus(docs, [*sections, gfdl])
    edges, _, _ = section_edges(sections[0], corpus)
    assert "gfdl" in {e.dst_doc_id for e in edges if e.edge_type == "references"}
    assert not {e.dst_section_id for e in edges} & {"manual-GNU Free Documentation License"}


def test_a_term_headed_as_its_definition_is_no_printed_document():
    """ "the Original Code" names a definition's entry headed "Original Code", not a document
    the licence prints: no edge to it."""
    corpus, sections = _contract(
        {
            "1.1": "Grant. You may use the Original Code under this License.",
            "Original Code": "means the source code described in the notice.",
        },
        doc_id="mpl",
    )
    edges, _, _ = section_edges(sections[0], corpus)
    assert "mpl-Original Code" not in {e.dst_section_id for e in edges}


def test_a_strong_cue_heading_what_the_citation_holds_is_a_condition_on_it() -> None:
    """'subject to' / 'in accordance with' before a few plain words that end in the
    preposition pointing at the citation (any wording of the thing held): depends_on; not
    across a clause break, nor after the document named as a whole, nor in a definition."""
    texts = {
        "1": "Updates. Subject to the Buyer's payment of the fees set forth in Exhibit B, the "
        "Seller shall ship the Updates.",
        "2": "Returns. Subject to the inspection protocol in Section 5, the Buyer may return "
        "goods.",
        "3": "Rates. Freight shall be subject to the tariff rates stated on Exhibit B.",
        "4": "Notices. Each notice is sent in accordance with the delivery rules in Section 6.",
        "5": "Grant. Subject to the provisions of this Agreement including the provisions of "
        "Section 6, the Seller grants a licence.",
        "6": "Goods. Subject to the terms hereof the Seller delivers the goods listed in "
        "Exhibit B.",
        "7": "Scope. Subject to this Agreement the Seller delivers the goods listed in Exhibit B.",
        "8": 'Projects. "Pilot Projects" means the projects, each subject to a separate '
        "agreement as described in Section 5.",
        "9": "Plans. Subject to Section 2, the Seller shall provide the services described in "
        "Exhibit B.",
        "Exhibit B": "Fees. Listed.",
    }
    corpus, sections = _contract(texts)
    found = {
        (s.label, e.dst_section_id.removeprefix("deal-"), e.rule)
        for s in sections
        for e in section_edges(s, corpus)[0]
        if e.edge_type == "depends_on" and e.dst_section_id
    }
    phrase = "depends_on.cue_phrase"
    assert found == {
        ("1", "Exhibit B", phrase),
        ("2", "5", phrase),
        ("3", "Exhibit B", phrase),
        ("4", "6", phrase),
        ("5", "6", phrase),
        ("9", "2", "depends_on.subject_to"),
    }


def test_an_override_of_the_foregoing_and_a_cited_section_and_a_framed_event() -> None:
    """'Notwithstanding the foregoing or anything in Section 4' displaces Section 4; 'when' is
    a condition that frames 'as provided in'; 'is automatically extended pursuant to' is an
    event (a condition), as 'is extended pursuant to' is."""
    texts = {
        "1": "Fees. Notwithstanding the foregoing or anything in Section 4 to the contrary, "
        "the fee is due on delivery.",
        "2": "Prices. When agreed between the parties as provided for in Section 4, the price "
        "changes.",
        "3": "Renewal. If the Term is automatically extended pursuant to Section 4, the fee "
        "rises by two percent.",
        "4": "Term. The term is one year.",
        "5": "Credits. The amounts duly paid pursuant to Section 4 are final.",
    }
    corpus, sections = _contract(texts)
    found = {
        (s.label, e.edge_type, e.dst_section_id.removeprefix("deal-"))
        for s in sections
        for e in section_edges(s, corpus)[0]
        if e.edge_type in ("depends_on", "overrides") and e.dst_section_id
    }
    assert found == {("1", "overrides", "4"), ("2", "depends_on", "4"), ("3", "depends_on", "4")}


def test_a_condition_held_until_met_an_inverted_condition_and_a_termination_under_a_section():
    texts = {
        "1": (
            "Release. The escrow agent releases the funds, provided that no funds are released "
            "until the conditions in Section 4 hereof shall have been complied with."
        ),
        "2": (
            "CURE Should the Maker fail to meet the requirements of Section 4, the Buyer may "
            "elect (a) a refund or (b) terminating this Agreement pursuant to Section 3."
        ),
        "3": "Exit. The Buyer may terminate the order pursuant to Section 4.",
        "4": "Tests. Each delivery is tested. The Maker should meet Section 3 as a goal.",
        "5": "Fees. The fees described in Section 4 will have been paid by then.",
    }
    found = _conditions(texts)
    # a modal "should" inside a clause and a plain description condition nothing
    assert found == {("1", "4"), ("2", "4"), ("2", "3"), ("3", "4")}


def test_under_a_section_after_what_it_defines_names_that_thing_and_conditions_nothing():
    texts = {
        "1": "Badges. A missing badge will constitute a default under Section 4.",
        "2": "Claims. The Maker will have no obligation under Section 4 for misuse.",
        "3": "Disputes. Either party may refer a dispute to arbitration under Section 4.",
        "4": "Arbitration. Disputes are settled by one arbitrator.",
    }
    found = _conditions(texts)
    assert found == {("3", "4")}


def test_a_sentence_broken_by_a_blank_line_inside_it_keeps_its_cue_and_citation():
    texts = {
        "1": (
            "Hosting. In the event that the Reseller opts to host the\n\nService pursuant to "
            "Section 3, it shall bill the customers."
        ),
        # a blank line after a full stop, or after a heading's last word, still ends a sentence
        "2": "Fees. If the Reseller pays late.\n\nPursuant to Section 3 the fees are due.",
        "3": "Billing. The Reseller may bill, if it hosts\n\nInvoices\n\nas Section 1 says.",
    }
    assert _conditions(texts) == {("1", "3")}


def test_a_citation_opening_a_new_clause_after_a_comma_is_no_target_of_the_cue_before_it():
    texts = {
        "1": (
            "Effect. The Company shall pay all fees in accordance with Section 2 hereof, and "
            "Sections 3 and 4 shall survive termination."
        ),
        "2": "Fees. Subject to Section 3, and Section 4, the fees are due.",
        "3": "Audit. Records are kept.",
        "4": "Term. The term is a year.",
    }
    assert _conditions(texts) == {("1", "2"), ("2", "3"), ("2", "4")}


def test_an_exception_to_the_sections_above_overrides_the_document():
    """GRAPH_GOLD's own cue with a vague target: 'As an exception to the Sections above'
    displaces the document; 'as an exception to the rule' names nothing that it displaces."""
    corpus, sections = _contract(
        {
            "1": "Copies. You may copy the work.",
            "2": "Works. As an exception to the Sections above, you may combine the work.",
            "3": "Other. As an exception to the rule, you may sell the work.",
        }
    )
    found = {
        (s.label, e.dst_doc_id, e.rule)
        for s in sections
        for e in section_edges(s, corpus)[0]
        if e.edge_type == "overrides"
    }
    assert found == {("2", "deal", "overrides.vague_notwithstanding")}
