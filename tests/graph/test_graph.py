"""The relationship graph: gold precision/recall, every edge type on the example corpus,
backward resolution, per-document failure, and the pure extraction rules."""

import datetime as dt
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from raag_assets.core.model import EDGE_TYPES, DocInfo, SectionInfo, Term
from raag_assets.graph.build import extract
from raag_assets.graph.build import layer1 as section_edges
from raag_assets.graph.dates import calendar_limits, find_dates
from raag_assets.graph.definitions import definitions
from raag_assets.graph.documents import version_of
from raag_assets.graph.references import Corpus, contents_spans, find_mentions
from raag_assets.graph.scopes import scope_edges
from raag_assets.graph.terms import (
    distinctive,
    introduced_names,
    is_pointer,
    names_a_party,
    party_names,
    term_pattern,
    term_uses,
)
from raag_assets.quality import graph_gold as golden
from raag_assets.store import graph as graph_store
from resources.nlp import load_pipeline
from tests.conftest import EXAMPLES, GOLD_LICENSES, LICENSES, Store

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "graph"


def _scores(store: Store, tenant: str, genre: str) -> dict[str, golden.Score]:
    """Scores on the genre's gold for the documents the tenant holds (the genre may have gold
    for more documents than a test store ingests)."""
    with store.connect() as conn:
        found = golden.found_keys(graph_store.edges(conn, tenant))
        held = {d.doc_id for d in graph_store.documents(conn, tenant, history=True)}
    gold = [g for g in golden.load_tree(GOLDEN)[genre] if g.doc_id in held]
    assert gold, f"no {genre} gold for the documents of {tenant}"
    return golden.score(gold, found)


@pytest.mark.parametrize(("tenant", "genre"), [("demo", "examples"), ("gold", "licenses")])
def test_gold_precision_and_recall(demo_store, tenant, genre):
    """The issue's targets on the gold the test stores hold (the contracts are measured by
    `make graph-eval`): core P >= 0.95, R >= 0.90; the other relations P >= 0.85, R >= 0.70
    on the examples, where every type is labelled densely enough to score."""
    scores = _scores(demo_store, tenant, genre)
    print("\n" + golden.table(scores))
    core = golden.combined(scores, golden.CORE)
    assert core.precision >= 0.95 and core.recall >= 0.90, (core.missed, core.spurious)
    if genre == "examples":
        other = golden.combined(scores, golden.OTHER)
        assert other.precision >= 0.85 and other.recall >= 0.70, (other.missed, other.spurious)


def test_reingest_into_a_new_store_gives_identical_edges(make_store, demo_store):
    """The same licences ingested into another store: the same edges, ids and order (spaCy's
    one pipe over all sections, term judgements and cue matching are deterministic)."""
    rows = (
        "SELECT stage, ordinal, edge_id, edge_type, layer, src_section_id, dst_doc_id, "
        "dst_section_id, term, matched_text, confidence FROM edges WHERE tenant_id = %s "
        "ORDER BY stage, ordinal"
    )
    store = make_store()
    assert store.ingest(GOLD_LICENSES, "again").success
    again = store.rows(rows, "again")
    assert again and again == demo_store.rows(rows, "gold")


def test_contract_edges_are_deterministic():
    nlp = load_pipeline("en_core_web_sm")
    contract = golden.shared_root(GOLDEN.parents[1]) / "data" / "dev_legal" / "contracts"
    paths = [next(contract.glob("ENTRUSTINC*")), LICENSES / "LGPL-3"]
    runs = [golden.extract_files(paths, lambda t: list(nlp.pipe(t))) for _ in range(2)]
    assert runs[0] and runs[0] == runs[1]


def test_example_corpus_shows_every_edge_type_with_evidence(demo_store):
    with demo_store.connect() as conn:
        rows = graph_store.edges(conn, "demo")
    assert {r["edge_type"] for r in rows} == set(EDGE_TYPES)
    assert {r["layer"] for r in rows} == {1, 2, 3}
    assert all(r["matched_text"] and 0 < r["confidence"] <= 1 for r in rows)
    by = {
        (r["edge_type"], r["src_doc_id"], r["src_label"], r["dst_doc_id"], r["dst_label"]): r
        for r in rows
    }
    ocr = by[("references", "expenses", "3", "leave-policy", "2.4")]
    assert ocr["raw_target"].startswith("Secti0n 2.4")  # corrected form stored, raw kept
    semantic = by[("references", "wfh-policy", "4", "expenses", "3")]
    assert semantic["layer"] == 3 and semantic["stage"] == "resolved_references"
    cond = by[("depends_on", "leave-policy", "3.3", "leave-policy", "5")]
    assert cond["condition"].startswith("Subject to Section 5")


def test_unresolvable_reference_is_parked_with_its_reason(demo_store):
    with demo_store.connect() as conn:
        parked = [(ref, status) for _, ref, status in graph_store.unresolved(conn, "demo")]
    travel = [ref for ref, status in parked if status == "parked"]
    assert [r.normalized_target for r in travel] == ["Travel Policy"]
    assert "no document named 'Travel Policy'" in travel[0].reason


def test_backward_resolution_when_the_cited_document_arrives(make_store, tmp_path):
    store = make_store()
    shutil.copy(EXAMPLES / "leave-policy.md", tmp_path / "leave-policy.md")
    assert store.ingest([tmp_path / "leave-policy.md"], "late").success
    with store.connect() as conn:
        parked = {ref.normalized_target for _, ref, _ in graph_store.unresolved(conn, "late")}
        assert "5.1 of the HR Processes Handbook" in parked
        assert "HR Processes Handbook" in parked
    assert store.ingest([EXAMPLES / "hr-processes-handbook.pdf"], "late").success
    with store.connect() as conn:
        assert graph_store.unresolved(conn, "late") == []
        edges = graph_store.edges(conn, "late", "references")
    assert any(
        (e["src_label"], e["dst_doc_id"], e["dst_label"]) == ("5", "hr-processes-handbook", "5.1")
        for e in edges
    )


def _section(doc_id: str, label: str, text: str, ordinal: int = 0) -> SectionInfo:
    return SectionInfo(
        f"{doc_id}-{label}", doc_id, ordinal, label, f"Heading {label}", 1, None, text
    )


def test_a_document_that_fails_extraction_is_reported_and_the_rest_is_built():
    nlp = load_pipeline("en_core_web_sm")
    docs = [DocInfo("good", "good.md"), DocInfo("huge", "huge.txt")]
    sections = [
        _section("good", "1", "Scope. This applies to all staff."),
        _section("good", "2", "Subject to Section 1, staff may take leave.", 1),
        # one sentence with a Layer 2 cue (so it is parsed), longer than spaCy's max_length:
        # the parser refuses it
        _section("huge", "1", "An employee is entitled to " + "word " * 220_000),
    ]
    result = extract(docs, sections, lambda texts: list(nlp.pipe(texts)))
    assert list(result.errors) == ["huge"]
    assert "E088" in result.errors["huge"]
    kinds = {(e.edge_type, e.src_section_id, e.dst_section_id) for e in result.edges}
    assert ("depends_on", "good-2", "good-1") in kinds


def test_a_citation_that_describes_a_condition_s_subject_is_no_dependency():
    """Layer 2 (if-clauses): 'if a dispute arises about the matters described in Section 1'
    and 'sums payable pursuant to Section 1' name what the condition is about; a citation the
    condition turns on ('if the licence is revoked as a result of Section 1') is one."""
    nlp = load_pipeline("en_core_web_sm")
    sections = [
        _section("c", "1", "Fees. Acme pays the fees."),
        _section("c", "2", "If any dispute arises relating to the matters described in "
                 "Section 1, the Parties shall meet within ten days.", 1),
        _section("c", "3", "If an audit reveals an underpayment of any sums payable pursuant "
                 "to Section 1, Acme will remit the difference.", 2),
        _section("c", "4", "If the licence is revoked as a result of Section 1, Acme stops "
                 "selling.", 3),
        _section("c", "5", "Even if the licence is revoked as a result of Section 1, Acme "
                 "keeps its stock.", 4),
    ]  # fmt: skip
    result = extract([DocInfo("c", "c.txt")], sections, lambda t: list(nlp.pipe(t)))
    depends = {e.src_section_id for e in result.edges if e.edge_type == "depends_on"}
    assert depends == {"c-4"}


def test_a_part_does_not_override_the_article_it_belongs_to():
    """In 4.1, 'the rights under this Article 4 shall terminate' displaces nothing outside
    it; 'Subject to the other sections of this Article 4' still conditions 4.1 on them."""
    art = SectionInfo("c-4", "c", 0, "Article 4", "Rights", 1, None, "")
    sub = "The rights granted under this Article 4 shall terminate if HOC sells its shares."
    part = SectionInfo("c-4.1", "c", 1, "4.1", "Pre-emptive right", 2, "c-4", sub)
    corpus = Corpus([DocInfo("c", "c.txt")], [art, part])
    kinds = {e.edge_type for e in section_edges(part, corpus)[0]}
    assert kinds == {"references"}
    cond = replace(part, text="Subject to the other sections of this Article 4, HOC may buy.")
    corpus = Corpus([DocInfo("c", "c.txt")], [art, cond])
    kinds = {e.edge_type for e in section_edges(cond, corpus)[0]}
    assert kinds == {"references", "depends_on"}


def test_a_pointer_to_a_part_left_out_of_the_filing_stays_a_definition():
    """'has the meaning set forth in Section 2' points at the definition (a citation); 'in
    Schedule A', a schedule the filing does not contain, is the only definition there is."""
    nlp = load_pipeline("en_core_web_sm")
    sections = [
        _section(
            "ip",
            "1",
            '"Field of Use" has the meaning set forth in Schedule A. "Assignment Deed Rights" '
            "has the meaning set forth in Section 2.",
        ),
        _section("ip", "2", 'Each party signs the rights deed (the "Assignment Deed Rights").', 1),
        _section("ip", "3", "Licences are granted only within the Field of Use.", 2),
    ]
    result = extract([DocInfo("ip", "ip.txt")], sections, lambda t: list(nlp.pipe(t)))
    defines = {(e.src_section_id, e.term) for e in result.edges if e.edge_type == "defines"}
    assert ("ip-1", "Field of Use") in defines
    assert ("ip-1", "Assignment Deed Rights") not in defines
    uses = term_uses(sections, result.terms, {}, set())
    assert ("ip-3", "ip-1", "Field of Use") in {
        (e.src_section_id, e.dst_section_id, e.term) for e in uses
    }


def test_edges_are_deterministic_in_content_and_order():
    nlp = load_pipeline("en_core_web_sm")
    docs = [DocInfo("a", "a.md"), DocInfo("b", "b.md", title="The B Handbook")]
    sections = [
        _section("a", "1", "Notwithstanding Section 2, see the B Handbook."),
        _section("a", "2", '"Leave Year" means the calendar year.', 1),
        _section("b", "1", "Each Leave Year starts in January, per the B Handbook."),
    ]
    runs = [extract(docs, sections, lambda t: list(nlp.pipe(t))).edges for _ in range(2)]
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    ("text", "labels", "doc", "raw"),
    [
        ("see Section 4.2 for details", ("4.2",), None, None),
        ("Sections 15 and 16 of this License", ("15", "16"), None, None),
        ("under subsection 6b", ("6b",), None, None),
        ("Sections 2 through 4", ("2", "3", "4"), None, None),
        ("section 3 of the GNU GPL.", ("3",), "GNU GPL", None),
        ("as defined in Secti0n 4.2 of the Leave Policy", ("4.2",), "Leave Policy", "Secti0n"),
        ("in Article IV hereof", ("Article IV",), None, None),
        ("Sections 4.1, 4.2, and 4.5 apply", ("4.1", "4.2", "4.5"), None, None),
        ("Clauses 9.1 or 9.3", ("9.1", "9.3"), None, None),
        ("Articles II through IV", ("Article II", "Article III", "Article IV"), None, None),
        ("Sections 2.01 through 2.03", ("2.01", "2.02", "2.03"), None, None),
        ("as provided in Sections 5.02(c) and 9.03, below", ("5.02(c)", "9.03"), None, None),
        ("set forth in Exhibits C and D hereto", ("Exhibit C", "Exhibit D"), None, None),
        ("in Exhibit A of the Transfer Agreement", ("Exhibit A",), "Transfer Agreement", None),
        # an attachment's keyword in capitals
        ("SEE THE PRICE LIST (EXHIBIT B) ATTACHED HERETO", ("Exhibit B",), None, None),
        ("as detailed in APPENDIX G", ("Appendix G",), None, None),
    ],
)
def test_section_mentions(text, labels, doc, raw):
    [m] = [m for m in find_mentions(text) if m.kind == "labels"]
    assert (m.labels, m.doc_name) == (labels, doc)
    assert (m.raw or "").startswith(raw or "")


def test_documents_cited_by_name_number_and_version():
    found = [(m.doc_name, m.text) for m in find_mentions(
        "See RFC 2060 and [RFC-2822]; version 2 of the GNU General Public License applies. "
        "The Services Agreement prevails; this Agreement is separate."
    )]  # fmt: skip
    assert found == [
        ("RFC 2060", "RFC 2060"),
        ("RFC 2822", "RFC-2822"),
        ("GNU General Public License (Version 2)", "version 2 of the GNU General Public License"),
        ("Services Agreement", "The Services Agreement"),
    ]
    docs = [
        DocInfo("GPL-2", "GPL-2", title="GNU GENERAL PUBLIC LICENSE"),
        DocInfo("GPL-3", "GPL-3", title="GNU GENERAL PUBLIC LICENSE"),
        DocInfo("rfc2060", "rfc2060.txt"),
    ]
    corpus = Corpus(docs, [], superseded={"GPL-2"})
    assert corpus.find_doc("GNU General Public License (Version 2)")[0] == "GPL-2"
    assert corpus.find_doc("GNU General Public License")[0] == "GPL-3"  # the live version
    assert corpus.find_doc("RFC 2060") == ("rfc2060", 1.0)


def test_lettered_items_and_label_styles_resolve_to_the_headed_section():
    sections = [
        _section("k", "Article VI", "Licences.", 0),
        _section("k", "6.03", "Rights.", 1),
        _section("k", "Exhibit A", "Prices.", 2),
    ]
    corpus = Corpus([DocInfo("k", "k.txt")], sections)
    assert corpus.find_label("k", "6.03(b)(ii)")[0].label == "6.03"
    assert corpus.find_label("k", "Article 6")[0].label == "Article VI"
    assert corpus.find_label("k", "Exhibit A")[0].label == "Exhibit A"
    assert corpus.find_label("k", "7.01")[0] is None
    # "Section 2.0" cites the heading printed "2.0 SCOPE", labelled 2
    corpus = Corpus([DocInfo("k", "k.txt")], [_section("k", "2", "Scope.", 0)])
    assert corpus.find_label("k", "Section 2.0")[0].label == "2"


def test_words_that_only_look_like_references_are_not():
    assert find_mentions("Version 2, issued 15 August 2024") == []
    assert find_mentions("the selection 3 of goods; an election 2 years ago") == []
    assert find_mentions("reports to directly, as recorded in the HR system") == []


def test_document_names_resolve_fuzzily_but_not_loosely():
    docs = [
        DocInfo("handbook", "hr.pdf", title="HR Processes Handbook"),
        DocInfo("gpl", "GPL-3", title="GNU GENERAL PUBLIC LICENSE"),
        DocInfo("lgpl", "LGPL-3", title="GNU LESSER GENERAL PUBLIC LICENSE"),
        DocInfo("rev-a", "a.md", title="Leave Policy (Rev. A)"),
        DocInfo("rev-b", "b.md", title="Leave Policy (Rev. B)"),
    ]
    corpus = Corpus(docs, [], superseded={"rev-a"})
    assert corpus.find_doc("HR Handbook")[0] == "handbook"
    assert corpus.find_doc("GNU GPL") == ("gpl", 1.0)
    assert corpus.find_doc("GNU Lesser General Public License")[0] == "lgpl"
    assert corpus.find_doc("GNU Affero General Public License") == (None, 0.0)
    assert corpus.find_doc("HR") == (None, 0.0)
    assert corpus.find_doc("Leave Policy")[0] == "rev-b"  # the version not superseded
    assert corpus.find_doc("Leave Policy (Rev. A)")[0] == "rev-a"


def test_dates():
    [eff] = find_dates("It is effective from January 1, 2024 and replaces it.")
    assert (eff.kind, eff.date_from) == ("effective_on", dt.date(2024, 1, 1))
    [period] = find_dates("purchases between 2000-2005 remain valid")
    assert (period.kind, period.date_from, period.date_to) == (
        "applies_to",
        dt.date(2000, 1, 1),
        dt.date(2005, 12, 31),
    )
    assert list(find_dates("Version 2, issued 15 August 2024")) == []


def test_version_families_from_names():
    assert version_of("leave-policy-rev-a") == ("leave-policy", (1,))
    assert version_of("GPL-3") == ("gpl", (3,))
    assert version_of("MPL-2.0") == ("mpl", (2, 0))
    assert version_of("expenses") is None
    # numeric ids (SciFact's abstracts) are ids, not versions of a one-digit family
    assert version_of("6157837") is None and version_of("2024") is None
    assert version_of("guide-2024") == ("guide", (2024,))


@pytest.mark.parametrize(
    ("term", "text", "hit"),
    [
        ("Leave Year", "the next Leave Year", True),
        ("Leave Year", "the next leave years", True),  # multi-word terms in any case
        ("Product", "each Product shipped", True),
        ("Product", "a product of the parties", False),  # single capitalised: as drafted
        ("Licensed Product", "the Licensed Product's price", True),  # possessive
        ("convey", "you may not be conveying it", True),
        ("The Library", "other Libraries", True),
        ("Object code", "its object code form", True),
        # a hyphenated word broken at a line end
        ("Audio Sub-Section", "between the Audio Sub- Section and the Site", True),
    ],
)
def test_term_patterns(term, text, hit):
    assert bool(term_pattern(term).search(text)) is hit


@pytest.mark.parametrize(
    ("term", "evidence", "body", "expected"),
    [
        ("Licensed Product", '"Licensed Product" means', "means a widget sold by Acme", True),
        ("Confidential Information", '"Confidential Information" shall mean', "all data", True),
        ("covered work", 'A "covered work" means', "either the unmodified Program or a work", True),
        ("source code", 'The "source code" means', "the preferred form of the work", False),
        ("you", 'addressed as "you"', "", False),  # pronoun
        ("This License", '"This License" refers to', "refers to version 3", False),  # itself
        ("Agreement", '(this "Agreement")', "is made as of", False),
        ("NTL", '("NTL")', "", False),  # a party's short name
        ("Company", '(the "Company")', "", False),
        ("Party", '"Party" means', "means any one of them", False),
        ("convey", 'To "convey" a work means', "a work means any kind of propagation", False),
        ("based on", 'a work "based on" the earlier work', "the earlier work", False),
        ("normally used", '"normally used" refers to', "refers to a typical use", False),
        ("affiliate", '"affiliate" means', "any entity controlling", False),  # lower-case word
        ("Patent", '"Patent" shall mean', "shall mean any patent and utility model", False),
        ("Board of Directors", '"Board of Directors" means', "the board of directors of X", False),
        ("Person", '"Person" means', "an individual, partnership, association", False),
        ("Trustee", "Trustee.", "Bank, National Association, or its successors", False),
        ("Affiliate", '"Affiliate" shall', "shall have the meaning in the Securities Act", False),
        ("Securities Act", "Securities Act.", "The Securities Act of 1933, as amended", False),
        # a single word for a class of persons (NOTES-review 4: Holder, Investor dropped)
        ("Holder", "Holder.", "The registered owner of any Note", False),
        ("Investor", "Investor.", "Any person who purchases Notes or who contacts", False),
        # names of other instruments: a citation, not a term of art
        ("Indenture", "Indenture.", "That certain Indenture dated 2012, by and between", False),
        ("Registration Statement", "Registration Statement.", "That certain Form S-1", False),
        ("Prospectus", "Prospectus.", "The prospectus included in the Registration", False),
        ("Separation Agreement", '(the "Separation Agreement")', "; WHEREAS", False),
        ("Material Agreement", "Material Agreement.", "Any agreement to which it is bound", True),
        # a party in a role is the party; a person outside the parties is a coined class
        ("Receiving Party", '"Receiving Party" means', "means each Party in its capacity", False),
        ("Third Party", '"Third Party" means', "means any Person who is not a member", True),
        # a statute's short name; a category widened by a list of kinds
        ("Securities Exchange Act", '"Securities Exchange Act" means', "means the law", False),
        ("Application Code", '"Application Code" means', "means the object code", True),
        (
            "Technology",
            '"Technology" means',
            "means Software, documentation, designs, schematics, tools, and all recordings",
            False,
        ),
        ("Dispute", '"Dispute" means', "means a breach not resolved within 30 days", True),
        ("Notes", "Notes.", "The renewable, subordinated notes of the Company", True),
        ("Option", '(the "Option")', "to subscribe for additional shares", True),
        # another instrument's name is a citation, not a term of art
        ("Separation Agreement", '(the "Separation Agreement")', "dated as of May 1", False),
        (
            "Receiving Party",
            '"Receiving Party" means',
            "means each Party in its capacity as the recipient",
            False,
        ),
        # a category defined by listing ordinary kinds of thing
        (
            "Technology",
            '"Technology" means',
            "means Software, technical documentation, specifications, schematics, designs, "
            "user interfaces, test reports and prototypes.",
            False,
        ),
        ("Products", '"Products" means', "means the products listed in Exhibit A", True),
        # a relation of control between persons, after a qualifier: an ordinary noun
        (
            "Affiliate",
            '"Affiliate" means',
            "means, with respect to any person or entity (including either Party), any other "
            "person or entity that directly or indirectly controls that person or entity",
            False,
        ),
        # a list of kinds of authority, numbered
        (
            "Authorities",
            '"Authorities" means',
            "means any (i) multinational, federal, provincial, state, regional, municipal, local "
            "or other government, governmental or public department, court, tribunal",
            False,
        ),
        # a class of people, listed after a qualifier and an item marker
        (
            "Personnel",
            '"Personnel" means',
            "means, with respect to any Party, (i) the employees, officers and directors of such "
            "Party and (ii) its contractors",
            False,
        ),
        # the term at the end of a list of alternatives widens it: a term of art
        (
            "Derivative Work",
            '"Derivative Work" means',
            "means any adaptation, modification, enhancement, improvement or derivative work.",
            True,
        ),
        # a kind of entity as a modifier names a thing, not a party
        (
            "Trust Account",
            "Trust Account.",
            "The trust account established by the Trustee pursuant to the Indenture.",
            True,
        ),
        # a class of agreements after a qualifier is a concept, not another instrument
        (
            "Material Agreement",
            "Material Agreement.",
            "With respect to a person, any agreement, contract or lease to which it is a party.",
            True,
        ),
        # the document pointing at itself adds nothing to the ordinary word
        (
            "Transactions",
            '"Transactions" means',
            "means the transactions contemplated hereby.",
            False,
        ),
        ("Transactions", '"Transactions" means', "means the sale of the Assets to Buyer.", True),
        (
            "Territory",
            '"Territory" means',
            "means the United States, Canada, Mexico, Brazil, Chile and Peru.",
            True,
        ),
    ],
)
def test_terms_of_art(term, evidence, body, expected):
    parties = {"NTL", "Company"}
    doc_terms = ["Program", "Note", "Trustee", "Indenture", term]
    assert (
        distinctive(term, evidence, parties, body, doc_terms, evidence.startswith("(")) is expected
    )


def test_a_pointer_to_the_preamble_is_no_definition():
    assert is_pointer(" has the meaning specified in the preamble hereof.")
    assert is_pointer(" has the meaning given to it in the Recitals;")
    assert not is_pointer(" means the preamble of the Statement of Work.")


def test_instrument_defined_in_passing_by_the_form_it_is_to_take():
    """'an agreement ... in substantially the form set forth in Exhibit B (the "Enterprise
    License")' names a separate document; 'the licenses granted in this Article (the "Patent
    License")' names this agreement's own grant."""
    form = "an agreement to be concluded promptly in substantially the form set forth in Exhibit B "
    own = "shall have the licenses granted in Sections 6.01 and 6.02 "
    args = ({"NTL"}, "", ["Program"], True)
    assert not distinctive("Enterprise License", '(the "Enterprise License")', *args, form)
    assert distinctive("Patent License", '(the "Patent License")', *args, own)


def test_a_label_for_the_ordinary_words_just_written_is_no_term_of_art():
    """'the common stock of the Company ("Common Stock")' labels the words it follows, as
    '"Board of Directors" means the board of directors of X'; a coined label is a term."""
    args = ({"Company"}, "", ["Common Stock"], True)
    stock = "equal to the number of outstanding shares of common stock of the Company "
    assert not distinctive("Common Stock", '("Common Stock")', *args, stock)
    plan = "the development plan for the second phase of the Site "
    phase = '(the "Phase II Development Plan")'
    assert distinctive("Phase II Development Plan", phase, *args, plan)


def test_filing_redaction_legends_use_no_terms():
    """An EDGAR legend interrupting a section ('***Confidential Information has been omitted
    ...') is page furniture: no use of the defined "Confidential Information"."""
    sections = [
        _section("a", "1", '"Confidential Information" means secret data.'),
        _section(
            "a",
            "2",
            "Acme will pay [***] per unit. ***Confidential Information has been omitted and has "
            "been filed separately with the Securities and Exchange Commission. Payment is due.",
            1,
        ),
        _section("a", "3", "Each Party keeps the Confidential Information of the other.", 2),
    ]
    terms = [Term("confidential information", "Confidential Information", "a", "a-1")]
    uses = {e.src_section_id for e in term_uses(sections, terms, {}, set())}
    assert uses == {"a-3"}


def test_ordinary_phrase_recast_in_the_documents_terms_is_a_term_of_art():
    """A definition repeating its words is ordinary ('the board of directors of the Company'),
    unless it recasts them in the document's own terms (Patents, Trademarks, Trade Secrets)."""
    terms = ["Patents", "Trademarks", "Company", "Intellectual Property Rights"]
    ipr = "means all intellectual property rights in (i) Patents, (ii) Trademarks, (iii) Trade"
    board = "means the board of directors of the Company"
    args = ("", {"Company"})
    assert distinctive("Intellectual Property Rights", *args, ipr, terms)
    assert not distinctive("Board of Directors", *args, board, terms)


def test_ordinary_word_narrowed_to_the_document_and_capitalised_is_a_term_of_art():
    """'"Product" means each product ... identified in a Statement of Work ... under this
    Agreement' (a manufacturing agreement) narrows the word to this deal's things; a document
    that then writes it capitalised is using a term of art. A category repeated without that
    tie ('"Patent" shall mean any patent') stays ordinary, and so does a tied word the
    document mostly writes in lower case."""
    product = (
        "means each product (including any hardware, software, technology, and Components) "
        "identified in detail in an applicable Statement of Work, attached hereto from time to "
        "time, to be manufactured by IAC for Sonos pursuant to the terms of this Agreement."
    )
    capitalised = "IAC shall ship each Product. The Products are tested. Any product is fine. " * 3
    lowercase = "IAC shall ship each product. The products are tested. A Product is fine. " * 3
    args = ('"Product" means', {"IAC"}, product, ["Statement of Work"], False, "")
    assert distinctive("Product", *args, capitalised)
    assert not distinctive("Product", *args, lowercase)
    program = ', below, refers to any such program or work. Each licensee is addressed as "you".'
    text = "You may copy the Program. Distribute the Program. Any program ... " * 2
    assert distinctive("Program", '"Program", below', set(), program, [], False, "", text)
    patent = "shall mean any patent and any utility model covering any invention."
    text = "Each Patent is licensed. The Patents expire. " * 3
    assert not distinctive("Patent", '"Patent" shall', set(), patent, [], False, "", text)


def test_multi_word_term_widened_by_a_list_or_tied_to_a_section_is_a_term_of_art():
    """A phrase that heads its own definition reads the same without it ('the board of
    directors of the Company'); one that ends a list of kinds widens a new term ('patents,
    copyrights, ... and all other intellectual property rights'), and one narrowed to a
    numbered part of the document ('the default shipping term as set forth in Section 6.5')
    means what that part says."""
    ipr = (
        "means with respect to a given piece of Technology, all current and future worldwide "
        "patents and other patent rights, copyrights, trade secrets, and all other "
        "intellectual property rights and the related documentation."
    )
    shipping = "means the default shipping term as set forth in Section 6.5."
    board = "means the board of directors of the Company;"
    args = ({"Company"},)
    assert distinctive("Intellectual Property Rights", '"IPR" means', *args, ipr)
    assert distinctive("Shipping Term", '"Shipping Term" means', *args, shipping)
    assert not distinctive("Board of Directors", '"Board" means', *args, board)


def test_document_noun_that_names_the_works_covered_is_a_term_of_art():
    """'The "Document", below, refers to any such manual or work' (a documentation licence)
    names the works it covers, not the licence itself; '"Agreement" means this strategic
    alliance agreement' is the document naming itself."""
    assert distinctive(
        "Document", '"Document", below,', set(), ", below, refers to any such manual or work."
    )
    assert not distinctive(
        "Agreement", '"Agreement" means', set(), "means this strategic alliance agreement"
    )


@pytest.mark.parametrize(
    ("term", "body", "expected"),
    [
        ("PPV", "means the difference between the price for a Product Unit and its cost", True),
        ("NPI", "means the process by which IAC and Sonos bring a Product to production", True),
        ("PO", "means a written purchase order issued by Sonos for purchase of a Product", True),
        ("GAAP", "means generally accepted accounting principles in the United States", False),
        ("AVL", "means the Approved Vendor List, which is a list of suppliers", False),
        ("SEC", "The Securities and Exchange Commission.", False),
        ("HTS", "classifications that may be required for export", False),  # in passing
    ],
)
def test_acronym_of_a_concept_is_a_term_of_art(term, body, expected):
    """An acronym is a name (a party, a body, a statute) unless its definition opens with a
    common noun and builds on the document's terms: then it abbreviates a concept of the
    document (Sonos's NPI, PPV, PO)."""
    assert distinctive(term, f'"{term}" means', {"IAC"}, body, ["Product"]) is expected


def test_optional_plural_in_a_quoted_term_is_dropped():
    """'"Component(s)" means ...' defines "Component", found in the singular and plural."""
    section = SectionInfo("s1", "d", 1, "1.7", "", 2, None, '"Component(s)" means a part.')
    terms = [e.term for e in definitions(section)]
    assert terms == ["Component"]
    assert term_pattern("Component").search("all Components required")


def test_contents_on_one_line_run_on_into_their_exhibit_list():
    """A table of contents flattened onto one line ends with the list of exhibits, letters
    and titles without pages: masked to the end of its paragraph, as no sentence follows."""
    text = (
        "TABLE OF CONTENTS 1.0 DEFINITIONS 3 2.0 SCOPE 8 3.0 OWNERSHIP 8 4.0 OPERATIONS 9 "
        "5.0 FORECASTS 12 Exhibit Description A Statements of Work B Program Managers "
        "Page 2 of 38\n\nThis Manufacturing Agreement is made. It covers Statements of Work."
    )
    [(start, end)] = contents_spans(text)
    assert text[start:end].endswith("Page 2 of 38")
    assert "This Manufacturing" not in text[start:end]


def test_contents_block_under_its_heading_cites_nothing():
    """A table of contents whose article lines carry no page number, with page furniture
    between its lines, is masked up to the running text after it."""
    text = (
        "TABLE OF CONTENTS Page ARTICLE I DEFINITIONS\n\nSection 1.01. Definitions 1\n\n"
        "ARTICLE II RECORDATION\n\nSection 2.01. Assignment Agreements 5 Section 2.02. "
        "Recordation 5\n\nSource: ACME INC., 8-K, 10/2/2019\n\nSCHEDULE A - Fields of Use\n"
        "EXHIBIT A1 - Patent Assignment Agreement iii\n\n"
        "THIS AGREEMENT, dated as of September 30, 2019, is made by and between the parties, "
        "as provided in Section 2.01."
    )
    [(start, end)] = contents_spans(text)
    assert start == 0 and text[end:].lstrip().startswith("THIS AGREEMENT")
    cited = [m.start for m in find_mentions(text) if m.kind == "labels"]
    assert [c for c in cited if c >= end] == [text.rindex("Section 2.01")]


def test_citations_in_capitals():
    [m] = [m for m in find_mentions("transferable (subject to ARTICLE VIII)") if m.kind == "labels"]
    assert m.labels == ("Article VIII",)


def test_named_labels_compare_in_any_case():
    assert golden.label("RECITALS") == golden.label("Recitals")
    assert golden.label("ARTICLE II") == golden.label("Article II")
    assert golden.label("Section 1.01.") == "1.01"
    assert golden.label("Front matter") == "Title"


def test_party_names_and_definitions_that_point_at_parties():
    front = 'NORTEL LIMITED, a Canadian corporation ("NTL"), and Redwater LLC (the "Contractor")'
    assert party_names(front) == {"NTL", "Contractor"}
    located = 'GOLD CORP, a company organized in Colorado, at 1 Main St ("GRC" or "the Company")'
    assert party_names(located) == {"GRC", "the Company", "Company"}
    assert party_names('mineral properties (the "Properties") in Mexico') == set()
    # a template's blank for a party's name: the short name after it is a party's
    blank = 'This Lease is made between Acme Ltd ("Landlord") and [•] ("Tenant").'
    assert party_names(blank) == {"Landlord", "Tenant"}
    assert party_names('Party A: Acme Ltd ("Seller")\nParty B: ________ ("Buyer")') == {
        "Seller",
        "Buyer",
    }
    assert party_names('the goods listed in Schedule [2] (the "Goods")') == set()
    # the short name in a paragraph of its own under its party's paragraph
    layout = (
        "BETWEEN:\n\nNORTHWIND TRADING INC., a company having its office at 1 Main Street\n\n"
        '("Northwind")\n\nAND:\n\nJANE DOE CONSULTING INC., having an office at 2 High Street'
        '\n\n(the "Consultant")\n\nWHEREAS the Consultant holds the rights (the "Rights")'
    )
    assert party_names(layout) == {"Northwind", "Consultant"}
    assert party_names('The goods are listed below.\n\n(the "Goods")') == set()
    # a party introduced by the laws it is organised under, its company form in another tongue
    foreign = 'between Nordique, a societe anonyme organized under the laws of France ("SN")'
    assert party_names(foreign) == {"SN"}


def test_a_short_name_after_a_proper_name_in_the_introduction_is_a_name():
    """Inside the parties' introduction, a short name right after a person's or a body's name
    is a name (not a term of art); after a thing, a part of the document, or a determiner it
    is not, and the parties' own names (used for the document's title) are left alone."""
    front = (
        'This Agreement is made between Acme Ltd ("Acme") and Bolt Agency ("Agency"), agent '
        'for Jane Doe ("Model"), for the Licensed Images ("Images") listed in Schedule A (the '
        '"Items"). WHEREAS the Model is well known; the Premium Images ("Premium") ...'
    )
    assert introduced_names(front) == {"Acme", "Agency", "Model"}
    assert "Model" not in party_names(front)
    assert names_a_party("shall mean either NTL or the applicable Subsidiary", {"NTL"})
    assert not names_a_party("means the close of business on the date", {"NTL"})


def test_longest_term_wins_and_terms_resolve_in_their_own_document_first():
    sections = [
        _section(
            "a", "1", '"Licensed Product" means a widget. "Licensed Product Revenue" means money.'
        ),
        _section("a", "2", "Licensed Product Revenue is paid yearly.", 1),
        _section("a", "3", "Each Licensed Product is tested.", 2),
        _section("b", "1", '"Licensed Product" means a gadget.'),
        _section("b", "2", "Each Licensed Product is sold.", 1),
        _section("c", "1", "A Licensed Product is shipped.", 1),  # c cites nothing
    ]
    terms = [
        Term("licensed product", "Licensed Product", "a", "a-1"),
        Term("licensed product revenue", "Licensed Product Revenue", "a", "a-1"),
        Term("licensed product", "Licensed Product", "b", "b-1"),
    ]
    uses = {
        (e.src_section_id, e.term, e.dst_section_id)
        for e in term_uses(sections, terms, {"c": {"b"}}, set())
    }
    assert uses == {
        ("a-2", "Licensed Product Revenue", "a-1"),
        ("a-3", "Licensed Product", "a-1"),
        ("b-2", "Licensed Product", "b-1"),
        ("c-1", "Licensed Product", "b-1"),  # the cited document's definition
    }


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        (
            'THIS AGREEMENT (this "Agreement") between Acme Inc. ("Acme") and Bolt LLC',
            {"Agreement", "Acme"},
        ),
        ('a license (each such license being a "Patent License")', {"Patent License"}),
        (
            'the form in Exhibit B (the "Enterprise License") save as amended',
            {"Enterprise License"},
        ),
        ("the product (as defined herein)", set()),
        ('hereinafter referred to as "Supplier"', {"Supplier"}),
        (
            'Acme and Bolt are sometimes referred to collectively herein as the "Parties" and '
            'individually as a "Party."',
            {"Parties", "Party"},
        ),
        (
            "any line of business divested (each such divested entity or line of business, a "
            '"Divested Entity")',
            {"Divested Entity"},
        ),
        ('the Securities Act of 1933, as amended (the "1933 Act")', {"1933 Act"}),
    ],
)
def test_definitions_in_passing(text, terms):
    found = {e.term for e in definitions(_section("d", "1", text))}
    assert found == terms


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        # a documentation licence's forms (GFDL-1.3 section 1 and 11)
        ('The "Invariant Sections" are certain Secondary Sections whose', {"Invariant Sections"}),
        (
            'To "Preserve the Title" of such a section when you modify the Document means that',
            {"Preserve the Title"},
        ),
        ('An MMC is "eligible for relicensing" if it is licensed', {"eligible for relicensing"}),
        # a quotation that defines nothing
        ('The word "Title" is set in capitals when it appears', set()),
    ],
)
def test_definitions_by_copula_verb_and_condition(text, terms):
    found = {e.term for e in definitions(_section("d", "1", text))}
    assert found == terms


def test_unlettered_appendix_by_name_and_a_document_naming_itself_as_a_section():
    """'in the form shown in the Addendum below' cites the Addendum; 'the section entitled
    "GNU Free Documentation License"' in that licence names the licence, not a section."""
    sections = [
        _section("g", "Title", "GNU Free Documentation License Version 1.3", 0),
        _section("g", "4", "Include a notice in the form shown in the Addendum below.", 1),
        _section("g", "Addendum", 'Include it in the section entitled "GNU Free '
                 'Documentation License".', 2),
    ]  # fmt: skip
    heading = "GNU Free Documentation License"
    sections[0] = SectionInfo("g-Title", "g", 0, "Title", heading, 1, None, sections[0].text)
    corpus = Corpus([DocInfo("g", "g.txt")], sections)
    edges = {s.label: section_edges(s, corpus)[0] for s in sections}
    refs = {k: [e for e in v if e.edge_type == "references"] for k, v in edges.items()}
    cited = {k: [e.dst_section_id for e in v] for k, v in refs.items()}
    assert cited["4"] == [sections[2].section_id]
    assert cited["Addendum"] == []


def test_bare_section_numbers_after_a_cue_and_the_agreement_by_its_bare_name():
    """'delivered pursuant to 15.2, 15.3, 15.4' cites three sections without the keyword (a
    quantity, 'under 2.5 million', cites nothing); 'Section 13.1 of the Agreement', with no
    other document of that bare name in the tenant, cites the document that calls itself the
    Agreement."""
    labels = [m.labels for m in find_mentions("notice delivered pursuant to 15.2, 15.3, 15.4")]
    assert labels == [("15.2", "15.3", "15.4")]
    assert find_mentions("subject to 2.5 million dollars, under 3.1 percent") == []
    sections = [
        _section("s", "13.1", "Subcontractors.", 0),
        _section("s", "7.3", "as specified in Section 13.1 of the Agreement.", 1),
    ]
    corpus = Corpus([DocInfo("s", "s.txt")], sections)
    edges = section_edges(sections[1], corpus)[0]
    refs = [e.dst_section_id for e in edges if e.edge_type == "references"]
    assert refs == ["s-13.1"]
    # an amendment filed with it: 'Section 13.1 of the Agreement is hereby replaced in its
    # entirety' amends that section
    amendment = _section("s", "Amendment", "Section 13.1 of the Agreement is hereby replaced in "
                         "its entirety with the following.", 2)  # fmt: skip
    edges = section_edges(amendment, Corpus([DocInfo("s", "s.txt")], [*sections, amendment]))[0]
    assert [e.dst_section_id for e in edges if e.edge_type == "amends"] == ["s-13.1"]
    # a document that is itself an amendment means the agreement it amends, not its own 3
    own = [
        _section("a", "Title", "FIRST AMENDMENT TO SUPPLY AGREEMENT", 0),
        _section("a", "3", "Section 3 of the Agreement is hereby deleted.", 1),
    ]
    corpus = Corpus([DocInfo("a", "first-amendment.txt")], own)
    assert [e for e in section_edges(own[1], corpus)[0] if e.edge_type == "references"] == []


def test_headed_definitions_in_a_definitions_section():
    text = (
        "Whenever used in this Agreement, the following terms have the respective meanings set "
        "forth below. Business Day. Any day other than a Saturday. Commission or SEC. The "
        "Securities and Exchange Commission. Holder. The registered owner of any Note."
    )
    found = {e.term for e in definitions(_section("d", "1.01", text))}
    assert found == {"Business Day", "Commission", "SEC", "Holder"}
    # an entry after a definition that is itself a name, with two spaces between
    runs = (
        "the following terms have the respective meanings set forth below. FINRA. Financial "
        "Industry Regulatory Authority.  Note Confirmation. With respect to a Note, a notice."
    )
    assert {e.term for e in definitions(_section("d", "1.01", runs))} == {
        "FINRA",
        "Note Confirmation",
    }
    # a signature block closing a definitions section defines nothing
    block = text + " ACME INC. By: /s/ Jo Bloggs Name: Jo Bloggs Title: Chief Executive Officer"
    assert {e.term for e in definitions(_section("d", "1.01", block))} == found
    # the same layout outside a definitions section defines nothing
    assert definitions(_section("d", "2", "Notices. All notices shall be in writing.")) == []


def _kinds(text: str, label: str = "2") -> set[tuple[str, str | None]]:
    sections = [
        _section("c", "1", "Definitions.", 0),
        _section("c", "2", "Rights.", 1),
        _section("c", "3", "Duties.", 2),
        _section("c", "4", "Term.", 3),
        _section("c", "5", "Fees.", 4),
    ]
    corpus = Corpus([DocInfo("c", "c.txt")], sections)
    me = _section("c", label, text, 5)
    edges, _, _ = section_edges(me, corpus)
    return {
        (e.edge_type, corpus.by_id[e.dst_section_id].label if e.dst_section_id else e.dst_doc_id)
        for e in edges
        if e.edge_type in ("depends_on", "overrides")
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Subject to the provisions of Sections 3 and 4 hereof, Acme may sell.",
         {("depends_on", "3"), ("depends_on", "4")}),
        ("Acme shall pay in accordance with Section 5.", {("depends_on", "5")}),
        ("Except as provided in Section 4, the licence is perpetual.", {("depends_on", "4")}),
        ("so long as the provisions of Section 3 are not invoked", {("depends_on", "3")}),
        ("Notwithstanding Section 3, Acme may assign.", {("overrides", "3")}),
        # the cue's targets end at the comma: the sections after it are what prevails
        ("Notwithstanding Section 3, this Section 5 and Sections 2 and 4 survive termination.",
         {("overrides", "3")}),
        ("Section 4 shall be deemed to be amended accordingly.", {("overrides", "4")}),
        ("Notwithstanding any other provision of this Agreement, fees are due.",
         {("overrides", "c")}),  # a vague target is the document
        ("Subject to the terms and conditions of this Agreement, Acme grants a licence.",
         set()),  # a condition on the whole document is boilerplate, no dependency
        ("the licences granted pursuant to Section 3 include the right to copy",
         set()),  # describes which licences, conditions nothing
        ("as described in Section 3 above, Acme may buy", set()),  # a pointer, not a condition
        ("Notwithstanding the provisions of the Supply Agreement, Acme may sell.", set()),
        # anything to the contrary in another document's rules overrides them, not this one;
        # in "the Agreement" it is this document
        ("Notwithstanding anything to the contrary in the Arbitration Rules, the arbitrators "
         "may confer.", set()),
        ("Notwithstanding anything in the Agreement to the contrary, fees are due.",
         {("overrides", "c")}),
        # the condition is a procedure the citation holds; a list joined past "the foregoing"
        ("Any dispute shall be subject to the escalation procedure specified in Section 3.",
         {("depends_on", "3")}),
        ("Subject to the foregoing and to Section 3, Acme will decide the content.",
         {("depends_on", "3")}),
        # "pursuant to" and "obligations under" say where a thing comes from
        ("Company will remit any sums payable pursuant to Section 5 within ten days.", set()),
        ("Acme shall indemnify Bolt against any breach of its obligations under Section 4.",
         set()),
        ("unless this Agreement is terminated for cause pursuant to Section 4, fees are due",
         {("depends_on", "4")}),  # framed by a condition, a passive verb: a condition
        ("fees are due monthly (unless the licence is sooner terminated pursuant to Section 4)",
         {("depends_on", "4")}),
        # a saving leaves the citation as it is
        ("If Acme declines the defence, Bolt controls it (without limitation of Acme's "
         "obligations under Section 4).", set()),
        # an explicit condition inside a definition conditions the meaning
        ('"Books Page" means a page of books (but subject to Section 3 with respect to '
         "audio books).", {("depends_on", "3")}),
        # compliance and conditions met are a dependency inside a stated condition only
        ("You may distribute it, provided that You comply with the requirements of Section 3.",
         {("depends_on", "3")}),
        ("You may offer support only if You meet the conditions in Section 4.",
         {("depends_on", "4")}),
        ("You must comply with Section 4 when distributing the work.", set()),  # a duty
        ("Acme shall give Bolt the information required to comply with Section 4.", set()),
        # permission, termination and saving forms of the condition family
        ("To the extent permitted under Section 3, you may copy the work.", {("depends_on", "3")}),
        ("In the event of termination pursuant to Section 4, all fees fall due.",
         {("depends_on", "4")}),
        ("Save as provided in Section 5, neither Party may assign.", {("depends_on", "5")}),
        ("Subject always to Section 3, the Customer may terminate.", {("depends_on", "3")}),
        ("Without prejudice to Section 3, Acme may suspend the services.", set()),
        # what follows the citation: a condition inside one, else a displacement
        ("Where Section 4 applies, the Customer shall pay the fee.", {("depends_on", "4")}),
        ("The restrictions in Section 3 do not apply to the extent provided in Section 4.",
         {("overrides", "3"), ("depends_on", "4")}),
        # the clause given precedence over the rest of the document: the document is the target
        ("To the extent that this covenant conflicts with any other covenant contained in this "
         "Agreement, this covenant shall control.", {("overrides", "c")}),
        ("In the event of a conflict between an Exhibit and this Agreement, this Agreement "
         "shall govern.", set()),  # which of two other texts wins: no override by this clause
        # a concession is no condition
        ("Notwithstanding that such rights may be subject to a royalty as provided for in "
         "Section 4, the grant is unconditional.", set()),
        # what the citation holds, named by what it gives, displaced
        ("Notwithstanding the exclusive right granted to the Distributor in Section 3, Acme "
         "may sell in the territory.", {("overrides", "3")}),
        ("The rights granted to the Distributor in Section 3 are exclusive.", set()),
        # the document narrowed to the citation
        ("Subject to the terms of this Agreement and in particular Section 4, Acme may sell.",
         {("depends_on", "4")}),
        ("Subject to the terms of this Agreement, the license set forth in Section 3 is "
         "exclusive.", set()),  # the citation is the subject, not the condition
        # bracketed headings inside a list of citations
        ("except as provided in Section 3 [Duties] and 4 [Term], either Party may terminate",
         {("depends_on", "3"), ("depends_on", "4")}),
    ],
)  # fmt: skip
def test_relations_by_cue_family(text, expected):
    assert _kinds(text) == expected


@pytest.mark.parametrize(
    ("text", "scope"),
    [
        ("This License will apply, along with any terms, to the whole of the work.",
         "the whole of the work"),
        ("Our services will apply to all notes sold by dealers and the Company will pay.",
         "notes sold by dealers"),
        ("NTL grants a non-exclusive, worldwide license for Licensed Products.",
         "licensed products"),
        ("The output from running a covered work is covered by this License only if it is new.",
         "the output from running a covered work"),
        ("This Policy covers all personal data processed by the Company.",
         "personal data processed by the company"),
        ("The warranty in this Section does not cover damage caused by misuse.",
         "not damage caused by misuse"),
        ("Activities other than copying are not covered by this License; they are outside it.",
         "not activities other than copying"),
        ("For Customers in the European Union, the following terms apply.",
         "customers in the european union"),
        ("For the avoidance of doubt, Acme pays the fees.", None),
        # what a grant leaves out (its phrase says so), and a grant limited
        ("This Section 3.01 does not grant any rights or licenses to any OEM Technology.",
         "not oem technology"),
        ("No rights are granted to the Buyer in this Agreement with respect to any Trademarks.",
         "not trademarks"),
        ("You have no rights to sublicense.", None),
        ("The license shall be limited to the business of the Divested Entity.",
         "the business of the divested entity"),
        ("This section applies only to Customers located in the European Union.",
         "customer located in the european union"),
        ("Keep intact all notices stating that this License applies to the code.", None),
        ("Use the GNU General Public License for more details.", None),
    ],
)  # fmt: skip
def test_scopes_of_documents_and_clauses(text, scope):
    found = [e.scope for e in scope_edges(_section("l", "1", text))]
    assert found == ([scope] if scope else [])


def test_a_scope_listing_kinds_of_people_gives_one_scope_each():
    found = [e.scope for e in scope_edges(_section("p", "1", "This Policy applies to all "
             "employees, contractors and consultants."))]  # fmt: skip
    assert found == ["employee", "contractor", "consultant"]


def test_calendar_limits():
    limits = [(d.date_from, d.date_to) for d in calendar_limits(
        "licences granted prior to 28 March 2007; fees for the calendar year 1997; "
        "orders on or after January 1, 2020. It is effective from March 1, 2025."
    )]  # fmt: skip
    assert limits == [
        (None, dt.date(2007, 3, 27)),
        (dt.date(2020, 1, 1), None),
        (dt.date(1997, 1, 1), dt.date(1997, 12, 31)),
    ]


def test_the_stated_dates_that_bound_a_term():
    """A term from one stated date to another is one period (not two open limits); a stated
    end date alone closes it; an end with no date, or a start with no end date, is no bound."""
    limits = [(d.date_from, d.date_to, d.rule.id) for d in calendar_limits(
        "The pilot shall commence on March 2, 2021 and run through June 30, 2022. The "
        "Support Period starting on the signing date and ending on 15 May 2023. The test "
        "runs from 1 April 2020 to 31 March 2021. Either party may terminate on notice. "
        "Services begin on June 1, 2012 and are billed monthly."
    )]  # fmt: skip
    assert limits == [
        (dt.date(2021, 3, 2), dt.date(2022, 6, 30), "applies_to.term_bounds"),
        (dt.date(2020, 4, 1), dt.date(2021, 3, 31), "applies_to.term_bounds"),
        (None, dt.date(2023, 5, 15), "applies_to.term_ends"),
    ]


def test_a_term_stated_by_its_length_runs_from_the_effective_date():
    """'for a period of N years from the Effective Date' and kin: from the document's
    effective date (or the date stated) to the same day N years or months later; nothing
    without a date to count from, nor for every such period."""
    from raag_assets.core.model import DocInfo
    from raag_assets.graph.dates import date_edges, term_anchors

    text = (
        "The pilot runs for a period of two (2) years from the Effective Date. A six-month "
        "term commencing on the Effective Date covers the launch. Trials run in the period "
        "commencing on the Effective Date and ending eighteen (18) months thereafter. Reports "
        "are due for a period of 12 months from March 31, 2021. Each twelve-month period "
        "beginning on the Effective Date is a Contract Year. The pledge ends on the earlier of "
        "(i) the third anniversary of the Effective Date and (ii) a sale. Stock may be sold for "
        "a period of three (3) months following the effective date of termination. The "
        "licence term commencing on March 1, 2019 and continuing for two (2) years covers it."
    )
    section = _section("deal", "4", text)
    stated = DocInfo(
        "deal",
        "deal.txt",
        effective_from=dt.date(2019, 8, 31),
        effective_evidence='August 31, 2019 (the "Effective Date")',
    )
    found = {
        (e.date_from, e.date_to)
        for e in date_edges(section, term_anchors(stated))
        if e.rule == "applies_to.term_length"
    }
    assert found == {
        (dt.date(2019, 8, 31), dt.date(2021, 8, 31)),
        (dt.date(2019, 8, 31), dt.date(2020, 2, 29)),
        (dt.date(2019, 8, 31), dt.date(2021, 2, 28)),
        (dt.date(2021, 3, 31), dt.date(2022, 3, 31)),
        (dt.date(2019, 8, 31), dt.date(2022, 8, 31)),
        (dt.date(2019, 3, 1), dt.date(2021, 3, 1)),
    }
    # with no effective date known, only the periods from a stated date; the term's start is
    # no open-ended limit of its own
    stated_dates = ["2021-03-31/2022-03-31", "2019-03-01/2021-03-01"]
    assert [e.normalized_target for e in date_edges(section) if e.edge_type == "applies_to"] == (
        stated_dates
    )
    # a signing date is no Effective Date to count from ("the Effective Date" may be defined
    # as a date the text never gives)
    signed = DocInfo("deal", "deal.txt", effective_from=dt.date(2019, 8, 31),
                     effective_evidence="dated as of August 31, 2019")  # fmt: skip
    from_signed = [e.normalized_target for e in date_edges(section, term_anchors(signed))]
    assert [t for t in from_signed if "/" in t] == stated_dates


def test_counts_in_words_of_any_tens_and_units():
    """A term's length in words reads as its number whatever the number ('sixty', not only
    the counts the tuning contracts happened to write); nothing for another word."""
    from raag_assets.graph.lexicon import words_to_int

    assert [words_to_int(w) for w in ("three", "Eighteen", "sixty", "forty-eight")] == [
        3,
        18,
        60,
        48,
    ]
    assert words_to_int("term") is None and words_to_int("ten-one") is None


def test_a_flattened_table_of_contents_cites_nothing():
    """EDGAR filings run a contents page together: article lines without a page between the
    entries. Its entries are no citations; a real citation after it still is."""
    from raag_assets.graph.references import contents_spans

    toc = (
        "TABLE OF CONTENTS Page ARTICLE I DEFINITIONS\n\nSection 1.01. Definitions 1\n\n"
        "ARTICLE II ASSIGNMENT OF RIGHTS\n\nSection 2.01. Assignment Agreements 5 Section 2.02. "
        "Recordation 5 Section 2.03. Security Interests 5\n\nARTICLE III LICENSES\n\n"
        "Section 3.01. License Grants 6 Section 3.02. Other Covenants 7\n\n"
    )
    prose = "Subject to Section 3.01, the Licensee shall pay within 5 days of the invoice."
    spans = contents_spans(toc + prose)
    assert len(spans) == 1
    start, end = spans[0]
    assert start <= toc.index("Section 1.01") and toc.index("Section 3.02") < end <= len(toc)
    assert contents_spans(prose) == []


def test_a_word_defined_in_lower_case_and_capitalised_is_the_capitalised_term_of_art():
    """LGPL-2.1 defines 'A "library" means a collection of software functions' and then 'The
    "Library", below, refers to any such software library or work which has been distributed
    under these terms': the capitalised word, used as such, is the term of art."""
    nlp = load_pipeline("en_core_web_sm")
    sections = [
        _section(
            "l",
            "0",
            'A "library" means a collection of software functions and data. The "Library", '
            "below, refers to any such software library or work which has been distributed "
            "under these terms.",
        ),
        _section("l", "1", "You may copy the Library. Each copy of the Library keeps it.", 1),
    ]
    result = extract([DocInfo("l", "l.txt")], sections, lambda t: list(nlp.pipe(t)))
    assert [t.term for t in result.terms] == ["Library"]


def test_a_file_name_with_accents_and_marks_reads_as_an_ascii_one(make_store, tmp_path):
    """The same contract under a plain name and under a name as users give them ("É", "#", an
    en dash, a comma) is read alike: the same sections, edges and metadata, its doc id apart
    (the ids derived from it differ, so rows are compared by what they say)."""
    contract = next(
        (golden.shared_root(GOLDEN.parents[1]) / "data" / "dev_legal" / "contracts").glob(
            "ENTRUSTINC*"
        )
    )
    names = {
        "plain": "Plain Alliance Agreement.txt",
        "marked": "Éclair #3 – Société, Agreement.txt",
    }
    store = make_store()
    read: dict[str, tuple] = {}
    for tenant, name in names.items():
        (tmp_path / tenant).mkdir()
        path = tmp_path / tenant / name
        shutil.copy(contract, path)
        assert store.ingest([path], tenant).success
        doc_id = store.rows("SELECT doc_id FROM documents WHERE tenant_id = %s", tenant)[0][0]
        sections = store.rows(
            "SELECT ordinal, label, heading, level, text FROM sections WHERE tenant_id = %s "
            "ORDER BY ordinal",
            tenant,
        )
        edges = store.rows(
            "SELECT e.edge_type, e.rule, s.label, d.label, e.normalized_target, e.matched_text, "
            "e.confidence FROM edges e LEFT JOIN sections s ON s.tenant_id = e.tenant_id AND "
            "s.section_id = e.src_section_id LEFT JOIN sections d ON d.tenant_id = e.tenant_id "
            "AND d.section_id = e.dst_section_id WHERE e.tenant_id = %s",
            tenant,
        )
        meta = store.rows("SELECT title, metadata FROM documents WHERE tenant_id = %s", tenant)[0]
        edges = sorted(tuple(str(v).replace(doc_id, "DOC") for v in e) for e in edges)
        read[tenant] = (sections, edges, meta[0], meta[1].get("parties"))
    assert read["plain"][0] and read["plain"][1]
    assert read["plain"] == read["marked"]
