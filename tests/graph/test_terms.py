"""Terms of art, their uses and topic links as rules: each exclusion from the terms of art is a
named rule that keeps its verdict, and every uses_term, topically_related and Layer 3 edge made
over real text carries the id of a registered rule of its edge type."""

from pathlib import Path

import pytest

from raag_assets.core.model import DocInfo, Edge, SectionInfo, Term, Unresolved
from raag_assets.graph.build import extract
from raag_assets.graph.references import Corpus, annex_named
from raag_assets.graph.rules import RULES
from raag_assets.graph.semantic import heading_text, resolve_semantic
from raag_assets.graph.terms import (
    distinctive,
    exclusion,
    mentioned_in,
    names_a_party,
    party_full_names,
    party_names,
    signatory_names,
    term_pattern,
    term_uses,
    use_exclusions,
    used_terms,
    with_signatories,
)
from raag_assets.graph.topics import topic_links
from raag_assets.ingest.parsing import parse_file
from raag_assets.ingest.sectioning import build_sections
from resources.nlp import load_pipeline
from tests.conftest import EXAMPLES, LICENSES

PARTIES = {"Acme", "Supplier"}
TERMS = ["Services", "Fees", "Deliverables", "Statement of Work"]


@pytest.mark.parametrize(
    ("term", "evidence", "body", "in_passing", "rule"),
    [
        ("42", '"42" means', "means the answer", False, "term.not_a_word"),
        ("you", 'called "you"', "", False, "term.not_a_pronoun"),
        (
            "this Agreement",
            '(this "Agreement")',
            "is made on",
            True,
            "term.not_the_document_itself",
        ),
        ("Supplier", '(the "Supplier")', "", True, "term.not_a_party_name"),
        ("Parties", '"Parties" means', "means both of them", False, "term.not_a_party_name"),
        ("modify", 'To "modify" a work means', "means to adapt it", False, "term.not_a_verb"),
        ("Acme Holdings Inc", '"Acme Holdings Inc"', "", True, "term.not_a_company_name"),
        (
            "Ordinary Shares",
            '("Ordinary Shares")',
            "",
            True,
            "term.not_a_label_for_own_words",
        ),
        (
            "Transactions",
            '"Transactions" means',
            "means the transactions contemplated by this Agreement.",
            False,
            "term.not_self_contemplated",
        ),
        (
            "Laws",
            '"Laws" means',
            "means all applicable laws and regulations.",
            False,
            "term.not_the_ordinary_words",
        ),
        (
            "Loan Agreement",
            '"Loan Agreement" means',
            "means the credit facility dated 1 May between the lender and Acme.",
            False,
            "term.not_another_instrument",
        ),
        (
            "Disclosing Party",
            '"Disclosing Party" means',
            "means each Party that discloses information.",
            False,
            "term.not_a_party_role",
        ),
        (
            "Companies Act",
            '"Companies Act" means',
            "means the statute",
            False,
            "term.not_a_statute_name",
        ),
        ("relying on", '"relying on" means', "means trusting", False, "term.not_a_noun_phrase"),
        (
            "Exchange Act",
            "Exchange Act.",
            "The Securities Exchange Act of 1934, as amended.",
            False,
            "term.not_a_statute_name",
        ),
        (
            "Tax Code",
            "Tax Code.",
            "The Federal Tax Code, as amended.",
            False,
            "term.not_a_shortened_name",
        ),
        (
            "Paying Agent",
            "Paying Agent.",
            "Northwind Bank, National Association, or its successor.",
            False,
            "term.not_an_entity",
        ),
        (
            "object code",
            '"object code" means',
            "means the machine form",
            False,
            "term.not_a_common_phrase",
        ),
        ("licensee", '"licensee" means', "means the person", False, "term.not_a_lower_case_word"),
        (
            "FTC",
            '"FTC" means',
            "means the Federal Trade Commission",
            False,
            "term.not_a_named_acronym",
        ),
        (
            "Materials",
            '"Materials" means',
            "means software, documentation, drawings, designs, tools and reports.",
            False,
            "term.not_a_category_list",
        ),
        (
            "Entity",
            '"Entity" means',
            "means a corporation, partnership, trust or other organization.",
            False,
            "term.not_an_entity",
        ),
        (
            "Affiliate",
            '"Affiliate" shall',
            "shall have the meaning given to it in the Companies Act",
            False,
            "term.not_borrowed_from_a_law",
        ),
        (
            "Customer",
            "Customer.",
            "Any person who buys a Service",
            False,
            "term.not_a_class_of_persons",
        ),
        # a party in one of its roles, however the definition puts it
        (
            "Receiving Party",
            '"Receiving Party" shall be',
            "shall be the party which receives the information",
            False,
            "term.not_a_party_role",
        ),
        # a single word defined as a party in a role: the parties under another name
        (
            "Buyer",
            '"Buyer" shall mean',
            "shall mean the party ordering shipment of the goods",
            False,
            "term.not_a_party_role",
        ),
        # a class of persons under a qualifier, the head itself a defined word
        (
            "Affiliate",
            '"Affiliate" means',
            "means, when used with respect to any specified Person, a Person that controls it",
            False,
            "term.not_a_class_of_persons",
        ),
        # an instrument named by the noun before "of"
        (
            "Deed of Subscription",
            '(the "Deed of Subscription")',
            "",
            True,
            "term.not_another_instrument",
        ),
        # terms of art
        ("Fees", '"Fees" means', "means the amounts payable for the Services", False, None),
        # a thing of this document, not another instrument
        (
            "Signing Date",
            '"Signing Date" means',
            "means the date this Agreement is signed by the Parties.",
            False,
            None,
        ),
        ("Acceptance Date", '"Acceptance Date" means', "means the day the tests pass", False, None),
        ("SOW", '"SOW" means', "means a written statement of the Services and Fees", False, None),
        ("Option", '(the "Option")', "to buy further units", True, None),
    ],
)
def test_each_exclusion_names_its_rule_and_keeps_its_verdict(
    term, evidence, body, in_passing, rule
):
    before = "Acme issues its ordinary shares of stock " if in_passing else ""
    found = exclusion(term, evidence, PARTIES, body, [*TERMS, term], in_passing, before)
    assert (found.id if found else None) == rule
    assert found is None or found.kind == "term" and found.edge_type is None
    assert distinctive(term, evidence, PARTIES, body, [*TERMS, term], in_passing, before) is (
        rule is None
    )


def test_a_short_name_given_after_a_company_name_is_a_name():
    """'Northwind Trading Corporation ("Northwind") may publish ...' names a company wherever
    the text gives it; after "the Company" (a party's short name) the label is a term."""
    before = "Northwind Trading Corporation ("
    found = exclusion("Northwind", '("Northwind")', PARTIES, "", TERMS, True, before)
    assert found is not None and found.id == "term.not_a_company_short_name"
    board = "the board of directors of the Company ("
    assert exclusion("Board", '(the "Board")', PARTIES, "", TERMS, True, board) is None
    # a role the company plays is no short name of it
    role = "licensed by Acme Software Corp. (the "
    assert exclusion("Licensor", '(the "Licensor")', PARTIES, "", TERMS, True, role) is None
    # several words of the full name, after "Co.", are a short name too; a label that adds a
    # word of its own is not
    co = "by and between Harbin Northwind Trading Service Co. ("
    found = exclusion("Harbin Northwind", '("Harbin Northwind")', PARTIES, "", TERMS, True, co)
    assert found is not None and found.id == "term.not_a_company_short_name"
    label = '("Northwind Products")'
    assert exclusion("Northwind Products", label, PARTIES, "", TERMS, True, co) is None


def _real_corpus() -> tuple[list[DocInfo], list[SectionInfo]]:
    docs, sections = [], []
    for path in [*sorted(EXAMPLES.iterdir()), LICENSES / "GPL-3", LICENSES / "Apache-2.0"]:
        if path.name.endswith(".meta.json"):
            continue
        parsed = parse_file(Path(path), 50_000_000)
        docs.append(DocInfo(parsed.meta.doc_id, parsed.source_name, parsed.meta.title))
        for s in build_sections(parsed.meta.doc_id, parsed.lines, parsed.format):
            sections.append(
                SectionInfo(
                    s.section_id,
                    s.doc_id,
                    s.ordinal,
                    s.label,
                    s.heading,
                    s.level,
                    s.parent_id,
                    s.text,
                )
            )
    return docs, sections


def _assert_ruled(edges: list[Edge], edge_type: str, kind: str) -> None:
    assert edges, f"no {edge_type} edges over the real text"
    for e in edges:
        assert e.edge_type == edge_type
        assert e.rule in RULES.rules, f"{e.rule!r} is not a registered rule"
        assert (RULES[e.rule].edge_type, RULES[e.rule].kind) == (edge_type, kind), e.rule


def test_every_term_use_topic_link_and_semantic_edge_over_real_text_carries_its_rule(embedder):
    nlp = load_pipeline("en_core_web_sm")
    docs, sections = _real_corpus()
    result = extract(docs, sections, lambda texts: list(nlp.pipe(texts)))
    defined_at = [
        (e.src_section_id or "", e.normalized_target)
        for e in result.edges
        if e.edge_type == "defines"
    ]
    uses = term_uses(sections, result.terms, {}, set(), defined_at)
    _assert_ruled(uses, "uses_term", "term")
    # a document that defines nothing borrows the tenant's terms
    assert {e.rule for e in uses} == {"uses_term.own_definition", "uses_term.borrowed_definition"}
    _assert_ruled(topic_links(sections, result.topics), "topically_related", "topic")

    # Layer 3 with the real embedding model: a reference by a heading's own words finds it
    corpus = Corpus(docs, sections)
    headed = [s for s in sections if s.heading]
    source = headed[0]
    parked = [
        Unresolved(
            source.doc_id,
            source.section_id,
            f"the section on {s.heading}",
            heading_text(s),
            None,
            None,
            "no label",
            kind="named_section",
        )
        for s in headed
        if s.doc_id != source.doc_id
    ][:20]
    edges, _ = resolve_semantic(parked, corpus, embedder.embed)
    _assert_ruled(edges, "references", "semantic")
    assert {(e.layer, e.rule) for e in edges} == {(3, "references.embedding_similarity")}


def _section(n: int, text: str) -> SectionInfo:
    return SectionInfo(f"s-{n}", "doc", n, str(n), f"Part {n}", 1, None, text)


def test_a_term_of_art_is_one_the_document_uses_as_defined() -> None:
    """The document decides: a defined term used capitalised in another section is a term of
    art; one used nowhere else, or only in lower case (a common phrase), is not."""
    sections = [
        _section(
            1,
            '"Service Credits" means the credits due for downtime. "Late Fee" means interest on '
            'unpaid sums. "Business Day" means a weekday. "Effective Date" means 1 May.',
        ),
        _section(2, "Service Credits are paid monthly; notice is due within five business days."),
        _section(3, "The first Service Credit is owed after the effective date of the order."),
    ]
    terms = [
        Term("service credits", "Service Credits", "doc", "s-1"),
        Term("late fee", "Late Fee", "doc", "s-1"),
        Term("business day", "Business Day", "doc", "s-1"),
        Term("effective date", "Effective Date", "doc", "s-1"),
    ]
    defined_at = [("s-1", t.key) for t in terms]
    found = use_exclusions(sections, terms, {}, set(), defined_at)
    # a multi-word term is used in any case (GRAPH_GOLD.md): "business days" uses it
    assert {k: r.id for (_, k), r in found.items()} == {"late fee": "term.not_used_elsewhere"}
    assert [t.term for t in used_terms(sections, terms, {}, set(), defined_at)] == [
        "Service Credits",
        "Business Day",
        "Effective Date",
    ]


def test_a_word_defined_in_capitals_is_found_capitalised() -> None:
    assert term_pattern("SOFTWARE").findall("the Software, SOFTWARE and software") == [
        "Software",
        "SOFTWARE",
    ]
    assert term_pattern("ACL").findall("ACL, Acl") == ["ACL"]  # an acronym, as drafted


def test_a_term_before_agreement_names_an_instrument_not_a_use() -> None:
    """'This Master Services Agreement', 'the Services Agreement': the words name an
    instrument, no use of "Services"; a later use in the same section is the use."""
    sections = [
        _section(1, '"Services" means the hosting services. "Fees" means the charges.'),
        _section(2, "This Master Services Agreement binds the parties."),
        _section(3, "Under the Services Agreement of 2019 the Services continue."),
    ]
    terms = [Term("services", "Services", "doc", "s-1")]
    uses = term_uses(sections, terms, {}, set(), [("s-1", "services")])
    assert [(e.src_section_id, e.position) for e in uses] == [("s-3", 41)]


def test_a_term_broken_at_a_hyphen_is_found_whole() -> None:
    """A definition that breaks a hyphenated word at a line end ('(the "Non- Compete Period")')
    is used written whole, or broken again; a hyphen left hanging before "and" stays one."""
    assert term_pattern("Non- Compete Period").findall(
        "during the Non-Compete Period and after the Non- Compete Period"
    ) == ["Non-Compete Period", "Non- Compete Period"]
    assert term_pattern("Sub- Licensee").findall("a Sub-Licensee, not a sub-licensee") == [
        "Sub-Licensee"
    ]
    assert term_pattern("Pre- and Post-Closing Taxes").search("all pre- and post-closing taxes")
    assert not term_pattern("Pre- and Post-Closing Taxes").search("pre-and post-closing taxes")
    sections = [
        _section(1, 'For two years (the "Non- Compete Period") the Seller shall not compete.'),
        _section(2, "During the Non-Compete Period the Seller keeps the list secret."),
    ]
    terms = [Term("non- compete period", "Non- Compete Period", "doc", "s-1")]
    uses = term_uses(sections, terms, {}, set(), [("s-1", "non- compete period")])
    assert [(e.src_section_id, e.matched_text) for e in uses] == [("s-2", "Non-Compete Period")]


def test_mentioned_in_finds_the_sections_a_term_could_be_brought_to() -> None:
    """Unquoted mentions, as term uses find them, in the defining section or any other."""
    sections = [
        _section(1, '"Net Sales" means gross sales less returns. Net Sales are paid monthly.'),
        _section(2, 'The word "Net Sales" is named here, not used.'),
        _section(3, "Royalties fall due on net sales of each quarter."),
        _section(4, "Nothing here."),
    ]
    assert mentioned_in(sections, "Net Sales") == {"s-1", "s-3"}
    assert mentioned_in(sections, "Product") == set()


def test_extract_keeps_only_terms_the_documents_use() -> None:
    docs = [DocInfo("doc", "doc.txt", "Supply")]
    sections = [
        _section(1, '"Goods" means the items ordered. "Spare Kit" means a box of parts.'),
        _section(2, "The Goods ship in May."),
    ]
    nlp = load_pipeline("en_core_web_sm")
    result = extract(docs, sections, lambda texts: list(nlp.pipe(texts)))
    assert not result.errors
    assert [t.term for t in result.terms] == ["Goods"]


def test_a_term_labelled_in_passing_and_defined_in_full_is_judged_by_its_definition() -> None:
    """A term both labelled in passing right after its own words and defined in full is a term
    of art by its full definition, which is its home."""
    docs = [DocInfo("doc", "doc.txt", "Course")]
    sections = [
        _section(1, 'Acme will launch its new cookery course "Chef Club" ("Cookery Course").'),
        _section(2, '"Cookery Course" means the course Acme develops under the name Chef Club.'),
        _section(3, "The Cookery Course is taught in Leeds."),
    ]
    nlp = load_pipeline("en_core_web_sm")
    result = extract(docs, sections, lambda texts: list(nlp.pipe(texts)))
    assert [(t.term, t.section_id) for t in result.terms] == [("Cookery Course", "s-2")]


@pytest.mark.parametrize(
    ("front", "names"),
    [
        (
            "This Agreement is made by and between Northwind Trading Inc., a Delaware "
            'corporation ("Northwind"), and Jane Doe, an individual residing in Ohio '
            '("Consultant"). WHEREAS the parties wish to cooperate;',
            ["Northwind Trading Inc.", "Jane Doe"],
        ),
        # a title block: each name ends with its company form, before its address
        (
            "SUPPLY AGREEMENT BETWEEN: ACME HOLDINGS LIMITED 2nd Floor, 10 Harbour Road, Port "
            "Town AND: BLUE RIVER LLC 5 Main Street, Springfield",
            ["ACME HOLDINGS LIMITED", "BLUE RIVER LLC"],
        ),
        (
            "Party A: Sunrise Technology (Shenzhen) Co., Ltd. Address: 1 Park Road\n"
            "Party B: Harbour Trading Co., Ltd. Address: 2 Quay Street",
            ["Sunrise Technology (Shenzhen) Co., Ltd.", "Harbour Trading Co., Ltd."],
        ),
        # a letter agreement; two companies joined by "and" are two parties
        (
            'Ladies and Gentlemen: Acme Bancorp, Inc., a Maryland corporation (the "Company"), '
            'and Acme Savings Bank (the "Bank") propose to sell shares.',
            ["Acme Bancorp, Inc.", "Acme Savings Bank"],
        ),
        (
            "This Agreement is made between Alpha Widgets Inc. and Beta Gears LLC as follows.",
            ["Alpha Widgets Inc.", "Beta Gears LLC"],
        ),
        # short names in parentheses without quotes, a person's name without a company form
        (
            "THIS AGREEMENT is made on 1 May 2020 BETWEEN: (1) NORTHWIND HOLDINGS LIMITED "
            "(registered number 0123) whose office is at 1 Quay Street (the Company) (2) JANE "
            "DOE (the Employee). IT IS AGREED as follows:",
            ["NORTHWIND HOLDINGS LIMITED", "JANE DOE"],
        ),
        ("Permission is hereby granted, free of charge, to any person obtaining a copy.", []),
        # a preamble without a cue, short names given without parentheses; the body's
        # "between" (after "agree as follows") introduces no party of this document
        (
            "SUPPLY CONTRACT PREAMBLE Northwind Oil Company, hereinafter referred to as the "
            '"Seller", and Blue River Refining, hereinafter referred to as the "Buyer", have '
            'entered into this Supply Contract (the "Contract") and agree as follows: 1. "Offtake'
            ' Agreement" means the agreement between Harbour Shipping Limited and Quay Tankers '
            "Limited.",
            ["Northwind Oil Company", "Blue River Refining"],
        ),
        # a name after "the" where a party is named; a person named in a capacity
        (
            "This is to confirm that the undersigned, the Northwind Income Fund, (the "
            '"Fund") has agreed that Blue River Distributors, LLC, ("Distributor") shall act.',
            ["Northwind Income Fund", "Blue River Distributors, LLC"],
        ),
        (
            'This Agreement is made by and among Northwind Holdings, Inc. (the "Company") and '
            'Jane Q. Doe, in her individual capacity (the "Designee").',
            ["Northwind Holdings, Inc.", "Jane Q. Doe"],
        ),
        # an address after "OF" in capitals ends the name
        (
            "NORTHWIND TECHNICAL SERVICES OF 12 HARBOR ROAD, SPRINGFIELD (NTS) certifies that "
            "the products furnished by BLUE RIVER SYSTEMS, INC. OF 5 MAIN STREET (BRS) work.",
            ["NORTHWIND TECHNICAL SERVICES", "BLUE RIVER SYSTEMS, INC."],
        ),
        # a name without a company form ends where the next party's label begins; a person's
        # field is no party ('Legal Representative: Jane Roe')
        (
            "Party A: People's Government of Northwind County Party B: Blue River Energy Co., "
            "Ltd. Party A welcomes Party B.",
            ["People's Government of Northwind County", "Blue River Energy Co., Ltd."],
        ),
        (
            "Party A: Northwind Technology Co., Ltd. Legal Representative: Jane Roe Party B: "
            "Blue River Leasing Co., Ltd. Legal Representative: John Doe",
            ["Northwind Technology Co., Ltd.", "Blue River Leasing Co., Ltd."],
        ),
        # 'hereinafter' without a comma; a month alone is no name; a Slovak company form
        (
            'THIS AGREEMENT, made as of the 1st day of December, (the "Effective Date") by and '
            'between: Northwind Trading Co Ltd hereinafter referred to as ("Northwind") and '
            'Blue River Repair hereinafter referred to as ("DISTRIBUTOR")',
            ["Northwind Trading Co Ltd", "Blue River Repair"],
        ),
        (
            "concluded between: Northwind Telecom a.s., Main Street 17, Bratislava, Slovakia "
            "and Blue River Ltd, Harbor Road 34, Bern, Switzerland.",
            ["Northwind Telecom a.s.", "Blue River Ltd"],
        ),
        # a date before a name where the text opens with it; a letter's salutation after it
        (
            "SPONSORSHIP AGREEMENT for the Event, on April 22, 2000 Northwind Media, Inc. "
            '("NM"), a Delaware company, hosts the Event. This Agreement is made by and between '
            'Blue River Trading Ltd ("BRT") and NM.',
            ["Blue River Trading Ltd", "Northwind Media, Inc."],
        ),
        (
            "CONSULTING AGREEMENT July 20, 2018 Jane Roe Dear Jane: Northwind Bio, Inc, a Delaware "
            'corporation (the "Company"), offers this Agreement to Jane Roe ("Consultant").',
            ["Jane Roe", "Northwind Bio, Inc"],
        ),
        # a company form another law gives, named in words
        (
            "This Agreement is made by and between Northwind Systemes, a societe anonyme "
            "organized under the laws of France, and Blue River Inc., a Delaware corporation.",
            ["Northwind Systemes", "Blue River Inc."],
        ),
    ],
)
def test_the_parties_full_names_as_introduced(front: str, names: list[str]) -> None:
    assert party_full_names(front) == names


def test_a_short_name_given_right_after_a_partys_name_is_a_partys() -> None:
    """A person introduced by name ('JOHN SMITH ("Smith")') has no company form or ', an
    individual' before the parenthesis; a party called by its kind ('the company named
    below ("Company")') neither: both are parties' short names, not terms of art."""
    front = (
        'This Endorsement Agreement is made by and between JOHN SMITH ("Smith") and NORTHWIND '
        'BANK, a Delaware savings bank ("Northwind"). Smith designed a training method '
        '(the "Method") and the company named below ("Company") resells it.'
    )
    assert party_names(front) == {"Smith", "Northwind", "Company"}
    assert not distinctive("Smith", '("Smith")', party_names(front), "", in_passing=True)


def test_a_short_name_after_where_a_party_is_after_an_earlier_parenthesis() -> None:
    """The party described by where it is ('with offices located at') is found when the
    sentence's predicate ('is by and between') stands between an earlier parenthesis and the
    party's name: its short name is a party's, no term of art."""
    front = (
        'This Services Agreement (the "Agreement"), dated as of May 1, 2020 (the "Effective '
        'Date"), is by and between Northwind Inc., with offices located at 1 Main Street, '
        'Springfield ("Northwind") and Bolt Press, a New York corporation (the "Customer").'
    )
    assert party_names(front) == {"Northwind", "Customer"}
    # a place described after the parties is no party: no party's name opens its description
    lease = (
        'This Lease (the "Lease") is by and between Acme Ltd, with offices located at 1 Main '
        'Street ("Acme") and Beta LLC, a Texas company ("Beta"), for the premises located at '
        '2 High Street (the "Premises").'
    )
    assert party_names(lease) == {"Acme", "Beta"}


@pytest.mark.parametrize(
    ("before", "after", "annex"),
    [
        ("", " means the statement of work attached hereto as Exhibit A.", "Exhibit A"),
        ("", ") that is attached hereto as Appendix A and made a part", "Appendix A"),
        ("a press release in the form attached hereto as Exhibit C ", ") is issued", "Exhibit C"),
        # what the definition names is in the annex, it is not the annex
        ("", " means the products listed in the price list attached hereto as Exhibit B", None),
        ("", ") and the other terms attached hereto as Exhibit B", None),
    ],
)
def test_the_annex_a_definition_names(before: str, after: str, annex: str | None) -> None:
    assert annex_named(before, after) == annex


def test_a_name_given_to_an_annex_is_a_term_of_art_and_its_uses_cite_the_annex() -> None:
    """'the Statement of Work ("SOW") that is attached hereto as Appendix A': the acronym is
    a term of art (it names a part of this document), and each other section that uses it
    cites Appendix A (references.annex_name); a name given to no annex stays as it was."""
    docs = [DocInfo("doc", "doc.txt", "Sales")]
    sections = [
        _section(
            1,
            'The services are set out in the Statement of Work ("SOW") that is attached hereto '
            'as Appendix A. The parties sign a confidentiality agreement (the "NDA"), a copy of '
            'which is attached hereto as Exhibit B. Prices follow the price list (the "PL").',
        ),
        _section(2, "Commissions are paid as set forth in the SOW, under the NDA and the PL."),
        _section(3, "Nothing here cites an annex."),
        SectionInfo("s-4", "doc", 4, "Appendix A", "Statement of Work", 1, None, "Sell."),
    ]
    nlp = load_pipeline("en_core_web_sm")
    result = extract(docs, sections, lambda texts: list(nlp.pipe(texts)))
    assert {"SOW", "NDA"} <= {t.term for t in result.terms}
    cited = [
        (e.src_section_id, e.dst_section_id, e.matched_text)
        for e in result.edges
        if e.rule == "references.annex_name"
    ]
    # Exhibit B is not in the file: no edge to it
    assert cited == [("s-2", "s-4", "SOW")]


@pytest.mark.parametrize(
    ("term", "before", "rule"),
    [
        # an instrument naming itself by its head noun, whatever the noun
        ("Assignment", "This PATENT ASSIGNMENT ", "term.not_the_document_itself"),
        ("Pledge", "THIS STOCK PLEDGE, ", "term.not_the_document_itself"),
        # a sentence about a thing, not an instrument's name
        ("Work", "This contract covers the Work ", None),
        ("Assignment", "Acme consents to the assignment ", None),
    ],
)
def test_an_instrument_naming_itself_is_no_term_of_art(term: str, before: str, rule: str | None):
    found = exclusion(term, f'(the "{term}")', PARTIES, "is made", TERMS, True, before)
    assert (found.id if found else None) == rule


def test_an_attached_instruments_own_parties_are_no_terms_of_art() -> None:
    """An exhibit holding an instrument with a preamble of its own ('This PATENT ASSIGNMENT
    is made by and between Acme LLC ("Assignor") and Beta Inc. ("Assignee")') names its
    parties: their short names are no terms of art, though used in the body."""
    docs = [DocInfo("doc", "doc.txt", "IP Agreement")]
    front = (
        'This IP Agreement (this "Agreement") is made by and between Acme LLC, a Delaware '
        'company ("Seller") and Beta Inc., a Texas corporation ("Buyer").'
    )
    exhibit = (
        "This PATENT ASSIGNMENT is made by and between Acme LLC, a Delaware company "
        '("Assignor") and Beta Inc., a Texas corporation ("Assignee"). The "Patents" means '
        "the patents listed below."
    )
    sections = [
        SectionInfo("s-0", "doc", 0, "Title", "IP Agreement", 1, None, front),
        _section(1, "Seller shall deliver the Patents; the Assignor signs for the Assignee."),
        SectionInfo("s-9", "doc", 9, "Exhibit A", "Patent Assignment", 1, None, exhibit),
    ]
    nlp = load_pipeline("en_core_web_sm")
    result = extract(docs, sections, lambda texts: list(nlp.pipe(texts)))
    assert [t.term for t in result.terms] == ["Patents"]


def test_a_term_defined_in_singular_and_plural_is_used_as_written() -> None:
    """A document defining both "Unit" and "Units" uses the one the text writes: the plural
    pattern of "Unit" also finds "Units", but "Units" is the term written there."""
    sections = [
        _section(1, 'Each module (a "Unit", and together the "Units") is sold by the crate.'),
        _section(2, "The Units ship in May; a Unit that fails is replaced."),
        _section(3, "All Units carry a two-year warranty."),
    ]
    terms = [Term("unit", "Unit", "doc", "s-1"), Term("units", "Units", "doc", "s-1")]
    uses = term_uses(sections, terms, {}, set(), [("s-1", "unit"), ("s-1", "units")])
    assert sorted((e.src_section_id, e.normalized_target) for e in uses) == [
        ("s-2", "unit"),
        ("s-2", "units"),
        ("s-3", "units"),
    ]


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        # the label for the words just written, and nothing more said of them
        ("for each quarter of the Term.", "term.not_a_label_for_own_words"),
        # the sentence goes on to say where what it labels is fixed: the label carries that
        ("as set forth in the Statement of Work.", None),
        (", as more fully described in Exhibit C.", None),
    ],
)
def test_a_label_for_own_words_fixed_elsewhere_is_a_term_of_art(body: str, rule: str | None):
    before = "Acme shall pay the Agent sales commissions "
    found = exclusion(
        "Sales Commissions", '("Sales Commissions")', PARTIES, body, TERMS, True, before
    )
    assert (found.id if found else None) == rule


@pytest.mark.parametrize(
    ("before", "rule"),
    [
        # a label for the ordinary words just written
        ("The members of the steering committee of Acme ", "term.not_a_label_for_own_words"),
        # a new thing brought in, then named by the label: a term of art
        ("The parties shall establish a steering committee ", None),
    ],
)
def test_a_label_for_a_new_thing_is_a_term_of_art(before: str, rule: str | None) -> None:
    found = exclusion(
        "Steering Committee", '(the "Steering Committee")', PARTIES, "", TERMS, True, before
    )
    assert (found.id if found else None) == rule
    # but a filing brought in so is still another document
    found = exclusion(
        "Registration Statement",
        '(the "Registration Statement")',
        PARTIES,
        "",
        TERMS,
        True,
        "The Company has filed a registration statement on Form S-1 ",
    )
    assert found is not None and found.id == "term.not_another_instrument"


def test_a_heading_is_text_of_its_section() -> None:
    """A heading the section's text does not repeat ("7. SERVICE CREDITS" above "(a) ...")
    is still text of the section (GRAPH_GOLD.md): a term in it is used there."""
    sections = [
        _section(1, '"Service Credits" means the credits due for downtime.'),
        SectionInfo(
            "s-7", "doc", 7, "7", "SERVICE CREDITS", 1, None, "(a) Credits are paid monthly."
        ),
    ]
    terms = [Term("service credits", "Service Credits", "doc", "s-1")]
    uses = term_uses(sections, terms, {}, set(), [("s-1", "service credits")])
    assert [(e.src_section_id, e.normalized_target, e.position) for e in uses] == [
        ("s-7", "service credits", 0)
    ]


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        # the particular things of another of the document's terms: a term of art
        ("means the goods Acme makes for its buyers, goods relating to a Statement of Work.", None),
        # any of a kind, however narrowed, and the ordinary word widened: the ordinary word
        (
            "means any goods Acme makes for its buyers, goods relating to a Statement of Work.",
            "term.not_the_ordinary_words",
        ),
        (
            "means the goods Acme makes for its buyers, goods of any kind.",
            "term.not_the_ordinary_words",
        ),
    ],
)
def test_a_word_narrowed_to_another_term_of_the_document(body: str, rule: str | None) -> None:
    """A capitalised word defined by its lower-case self ('"Goods" means the goods ...') is a
    term of art when its definition narrows it to the particular things of another of the
    document's terms and the document writes it capitalised in most of its uses."""
    doc_text = "The Goods ship in May. Goods are insured. Each of the Goods is tested. goods"
    found = exclusion("Goods", '"Goods" means', PARTIES, body, [*TERMS, "Goods"], doc_text=doc_text)
    assert (found.id if found else None) == rule


def test_a_longer_defined_name_holds_the_words_it_contains() -> None:
    """A phrase the document defines holds its words even where it is no term of art: 'Act'
    in 'Securities Act' (a statute's name) is no use of the term "Act"; the longest defined
    term wins (GRAPH_GOLD.md)."""
    sections = [
        _section(1, '"Act" means this statute. The "Securities Act" means the 1933 law.'),
        _section(2, "Filings under the Securities Act are due."),
        _section(3, "The Act applies."),
    ]
    terms = [Term("act", "Act", "doc", "s-1")]  # "Securities Act" is no term of art
    defined = [("s-1", "act"), ("s-1", "securities act")]
    uses = term_uses(sections, terms, {}, set(), defined)
    assert [e.src_section_id for e in uses] == ["s-3"]


def test_a_long_list_of_parties_each_closed_by_its_form_and_a_person_last():
    text = (
        "This Agreement is made by and between Acme Holdings, Inc., a Delaware corporation (the "
        '"Company"), and North Capital Management, LLC ("North Capital"), North Partners L.P., '
        "North Focus Fund L.P., North Partners Offshore Fund, L.P., South Research & Management, "
        'LLC and Jane Roe (collectively, the "North Parties").'
    )
    assert party_full_names(text) == [
        "Acme Holdings, Inc.",
        "North Capital Management, LLC",
        "North Partners L.P.",
        "North Focus Fund L.P.",
        "North Partners Offshore Fund, L.P.",
        "South Research & Management, LLC",
        "Jane Roe",
    ]


def test_a_determiner_alone_is_no_party_and_a_name_it_opens_is_one():
    # a list item's first word is no party of a document without an introduction
    notes = 'Changes since v4.1 * The existing exporters learned "--all" to write every record.'
    assert party_full_names(notes) == []
    text = (
        'This Agreement is made between Acme Widgets Inc., a Delaware corporation ("Acme"), '
        'and The Bank of Ohio, a national banking association ("Bank").'
    )
    assert party_full_names(text) == ["Acme Widgets Inc.", "The Bank of Ohio"]


def test_the_parties_as_their_signature_blocks_name_them() -> None:
    """Each party's name in capitals closed by its company form, or closed by it before its
    signature line; not the person signing, nor the general partner signing for a party."""
    text = (
        "1. Term. This filing is made jointly.\n\nIN WITNESS WHEREOF, the undersigned execute "
        "this agreement. NORTHWIND ECI HOLDINGS LP By: Blue Harbor Manager L.L.C., its general "
        "partner By: /s/ Jane Roe Name: Jane Roe Title: Managing Director\n\nBlue River "
        "Widgets, Inc.\nBy: /s/ John Doe Name: John Doe\n\nEXHIBIT A TO THE PLAN OF ACME INC."
    )
    assert signatory_names(text) == ["NORTHWIND ECI HOLDINGS LP", "Blue River Widgets, Inc."]
    assert signatory_names("No signatures here, Acme Inc. and Beta LLC.") == []
    # two blocks side by side on one line, the second closed by its description
    assert signatory_names(
        "IN WITNESS WHEREOF, the parties sign.\nNORTHWIND, INC. THE HARBOUR BANK, a Georgia "
        "banking corporation\nBy: /s/ Jane Roe By: /s/ John Doe"
    ) == ["NORTHWIND, INC.", "THE HARBOUR BANK"]


def test_an_introduction_read_short_takes_the_signatories() -> None:
    """Fewer than two names that can be a party's (a word read off a form's field is none):
    the signature blocks' names join them; two full names stand as they are."""
    text = "IN WITNESS WHEREOF\nNORTHWIND LTD\nBy: /s/ Jane Roe\nBLUE RIVER LLC\nBy: /s/ J. Doe"
    assert with_signatories(["Tech", "Payment"], text) == ("NORTHWIND LTD", "BLUE RIVER LLC")
    assert with_signatories(["Northwind Limited"], text) == ("Northwind Limited", "BLUE RIVER LLC")
    assert with_signatories(["Acme Inc.", "Beta LLC"], text) == ("Acme Inc.", "Beta LLC")


def test_a_name_after_runs_of_spaces_is_read_without_error() -> None:
    """Spaces run together before a name (a signature line set with spaces) leave empty words:
    they end the name, they raise nothing."""
    assert signatory_names("IN WITNESS WHEREOF\n  and Acme Ltd By: /s/ J. Roe") == ["Acme Ltd"]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # accented capitals, and a place after "the laws of" that is no party
        (
            "This Agreement is made between MÉTIVIER S.A., a company organized under the laws "
            'of France ("Métivier"), and Ümit Energie GmbH, a German company ("Ümit").',
            ["MÉTIVIER S.A.", "Ümit Energie GmbH"],
        ),
        (
            'THIS AGREEMENT is made between ÉNERGIE DU NORD SARL (the "Supplier") and ZÜRICH '
            'WIDGETS AG (the "Buyer").',
            ["ÉNERGIE DU NORD SARL", "ZÜRICH WIDGETS AG"],
        ),
        # a script without case
        (
            'This Agreement is made between 深圳市科技有限公司 ("Shenzhen Tech") and Acme Inc. '
            '("Acme").',
            ["深圳市科技有限公司", "Acme Inc."],
        ),
        # a numbered list of parties: the item number is no part of a name
        (
            "PARTIES 1. Acme Widgets Pty Ltd (ACN 123 456 789) of 1 George St, Sydney (Acme) "
            "2. Beta Trading Limited of 2 Queen St, Auckland (Beta)",
            ["Acme Widgets Pty Ltd", "Beta Trading Limited"],
        ),
        # "services of" a person is no place: the person stays a party
        (
            'This Agreement is entered into by and between Marine MP, LLC ("Lender"), for '
            'services of Jane Roe ("Endorser"), and Beta Trading LLC ("Beta").',
            ["Marine MP, LLC", "Jane Roe", "Beta Trading LLC"],
        ),
    ],
)
def test_parties_named_in_any_script_and_form(text: str, names: list[str]):
    assert party_full_names(text) == names


def test_signatories_in_accented_capitals():
    text = "IN WITNESS WHEREOF the parties have signed.\nMÉTIVIER S.A.\nBy: /s/ J. Roe\n"
    text += "ÜMIT ENERGIE GMBH\nBy: /s/ H. Roe"
    assert signatory_names(text) == ["MÉTIVIER S.A.", "ÜMIT ENERGIE GMBH"]


def test_a_document_that_defines_nothing_borrows_only_unambiguous_phrases() -> None:
    """A document that cites nothing and defines nothing takes from the tenant a phrase of two
    words or more that one live document defines ("Shift Lead"); not a single word
    ("Deliverables", a noun any contract may define for itself) nor a phrase several
    documents define ("Launch Date"), whose definition in the reader's own document raag
    missed."""

    def sec(doc: str, n: int, text: str) -> SectionInfo:
        return SectionInfo(f"{doc}-{n}", doc, n, str(n), "", 1, None, text)

    sections = [
        sec("rota", 1, 'The "Shift Lead" means the senior nurse on a ward. "Deliverables" means'),
        sec("rota", 2, 'The "Launch Date" means 1 May.'),
        sec("plan", 1, 'The "Launch Date" means 3 June.'),
        sec("memo", 1, "The Shift Lead signs the Deliverables off on the Launch Date."),
    ]
    terms = [
        Term("shift lead", "Shift Lead", "rota", "rota-1"),
        Term("deliverables", "Deliverables", "rota", "rota-1"),
        Term("launch date", "Launch Date", "rota", "rota-2"),
        Term("launch date", "Launch Date", "plan", "plan-1"),
    ]
    uses = [e for e in term_uses(sections, terms, {}, set()) if e.src_doc_id == "memo"]
    assert [(e.term, e.dst_doc_id, e.rule) for e in uses] == [
        ("Shift Lead", "rota", "uses_term.borrowed_definition")
    ]
    # citing the defining document still brings all of its terms
    cited = term_uses(sections, terms, {"memo": {"rota"}}, set())
    assert {e.term for e in cited if e.src_doc_id == "memo"} == {
        "Shift Lead",
        "Deliverables",
        "Launch Date",
    }


def test_a_party_described_by_where_it_is_before_its_short_name() -> None:
    """A short name after a party's full name and the place it is at is the party's, past
    parentheses that name no one (term.party_described); a thing described after a party's
    name is not."""
    text = (
        "Northwind Trading, Inc., with a place of business at 12 Quay Street, Leith "
        '("Northwind") and Blue Harbor Pte Ltd, a Singapore company (a subsidiary of Harbor '
        "Holdings (S) Pte Ltd) with its principal place of business at 4 Dock Road, Singapore "
        '(hereinafter referred to as "Reseller") agree as follows. Blue Harbor Pte Ltd shall '
        'resell the devices listed in Schedule A (the "Devices").'
    )
    assert party_names(text) == {"Northwind", "Reseller"}


def test_a_short_name_given_after_hereinafter_in_the_introduction_is_a_party() -> None:
    """Inside the parties' introduction a name given after "hereinafter" is a party's, with or
    without parentheses (term.party_hereinafter); the document's own name is not, nor a name
    given after "hereinafter" further on."""
    text = (
        'This Services Contract (hereinafter "Contract") is made by and between:\n\n'
        "NORDLICHT KONTOR, reg. nr 44/118, represented by its director, acting under the powers "
        'of its board (hereinafter referred to as "the Client"),\n\nAND\n\nFJORD DATA, Oslo, '
        'hereinafter called "Fjord".\n\nWHEREAS the Client runs two mills.\n\n'
        + "The Client uses several machines. " * 60
        + 'The machines listed below (hereinafter the "Plant") are covered.'
    )
    assert party_names(text) == {"the Client", "Client", "Fjord"}
    # a sentence naming a thing inside the introduction names no party
    thing = text.replace(
        "\n\nWHEREAS",
        ' The works shall begin once both sign (hereinafter referred to as the "Start Date").'
        "\n\nWHEREAS",
    )
    assert party_names(thing) == {"the Client", "Client", "Fjord"}


def test_the_front_matter_runs_past_a_contents_entry_that_became_a_section() -> None:
    """A table of contents' last entry made a section ahead of the body's "1" holds the
    preamble that follows the contents: the front matter (where parties are introduced) runs
    to the body's first section; otherwise it ends at the first numbered section."""
    from raag_assets.graph.build import _front_end

    def secs(*labels: str) -> list[SectionInfo]:
        return [SectionInfo(f"s{i}", "d", i, lb, "", 1, None, "") for i, lb in enumerate(labels)]

    assert _front_end(secs("Title", "9", "1", "1.1", "2")) == 2
    assert _front_end(secs("Title", "Recitals", "1", "2")) == 2
    assert _front_end(secs("Title", "1.1", "1.2")) == 1
    assert _front_end(secs("Title", "Exhibit A")) == 2
    # a title heading the preamble that holds a number is no numbered section
    assert _front_end(secs("Title", "Amendment No. 3 to the Supply Agreement", "1", "2")) == 2


def test_a_letter_without_a_cue_names_its_addressee_in_the_introduction() -> None:
    """A letter agreement introduces its parties without "between": the short name right
    after the person it retains is a name (term.named_in_the_introduction), read from the
    start of the text; a thing named after a determiner stays a term."""
    from raag_assets.graph.terms import introduced_names

    text = (
        'Dear Jane:\n\nNorthwind, Inc., a Delaware corporation (the "Company"), is pleased to '
        'offer this Consulting Agreement (this "Agreement") to retain Jane Roe ("Adviser") to '
        'review the Licensed Software ("Software").'
    )
    assert introduced_names(text) == {"Adviser"}


def test_a_collective_name_given_beside_parties_is_the_parties() -> None:
    """A name given in the same parenthesis as "Parties" ('(the "Parties" or "Co-Venturers")')
    is the parties' collective name, not a term of art; a parenthesis without it names none."""
    text = (
        'This Agreement is made by Blue Harbor Trading ("Blue") and Quay Holdings ("Quay") (the '
        '"Parties" or "Co-Venturers" if referred to collectively) for the goods listed in '
        'Schedule A (the "Goods").'
    )
    names = party_names(text)
    assert {"Parties", "Co-Venturers"} <= names and "Goods" not in names


def test_a_name_given_after_the_sentences_predicate_is_no_partys() -> None:
    """After the last party's description the sentence goes on ('..., a Delaware corporation,
    is effective as of the date signed below ("Amendment Effective Date")'): that parenthesis
    names what the sentence says, not the party."""
    text = (
        'This Amendment is made by and between Northwind Trading, Inc. ("Northwind"), a Delaware '
        'corporation with offices at 12 Quay Street, Dover, and Bluefin LLC ("Bluefin"), a Texas '
        'corporation, and is effective as of the date signed below ("Amendment Effective Date").'
    )
    assert party_names(text) == {"Northwind", "Bluefin"}


def test_a_word_narrowed_to_a_partys_own_thing_is_a_term_of_art() -> None:
    """'"Assay" shall mean Biocept's OncoCEE-LU laboratory developed assay': the definition
    repeats the word in lower case, but names one party's particular thing, and the document
    writes it capitalised; the possessive is no other name of the party either."""
    body = " shall mean Biocept's OncoCEE-LU laboratory developed assay for profiling of CTCs."
    text = "The Assay is run by the lab. Each Assay is billed. Biocept validates the Assay."
    evidence = '"Assay"' + body
    assert distinctive("Assay", evidence, {"Biocept"}, body, doc_text=text)
    assert not distinctive("Assay", evidence, {"Biocept"}, " shall mean any assay.", doc_text=text)
    assert not names_a_party(body, {"Biocept"})
    assert names_a_party(" shall mean Biocept and its Affiliates.", {"Biocept"})
