"""Definition forms as rules: every `defines` edge over real licences and a policy carries the
id of its form, and the split definitions() keeps each form's terms in the old order."""

from pathlib import Path

import pytest

from raag_assets.core.model import SectionInfo
from raag_assets.graph.definitions import definitions, states_definition
from tests.graph._texts import licence, policy, rule_ids


def _defined(sections: list[SectionInfo]) -> set[str]:
    return rule_ids(e for s in sections for e in definitions(s))


@pytest.mark.parametrize(
    ("name", "forms"),
    [
        ("GPL-3", {"defines.quoted_means", "defines.called", "defines.verbal"}),
        ("Apache-2.0", {"defines.quoted_means", "defines.parenthetical"}),
        ("MPL-2.0", {"defines.quoted_means", "defines.parenthetical"}),
    ],
)
def test_every_definition_in_a_licence_names_its_form(name: str, forms: set[str]) -> None:
    assert _defined(licence(name)) == forms


def test_every_definition_in_a_policy_names_its_form(tmp_path: Path) -> None:
    assert _defined(policy(tmp_path)) == {
        "defines.term_list",
        "defines.referred_to_as",
        "defines.parenthetical",
        "defines.each_such",
        "defines.headed_entry",
        "defines.heading_term",
    }


def test_terms_come_in_form_order_with_their_rule() -> None:
    text = (
        'Acme Ltd (the "Seller") sells. "Goods" means the items ordered. A copy with changes is '
        'called a "Variant". "Fee" and "Fees" mean the price.'
    )
    section = SectionInfo("s-1", "s", 0, "1", "Sale", 1, None, text)
    assert [(e.rule, e.term) for e in definitions(section)] == [
        ("defines.quoted_means", "Goods"),
        ("defines.called", "Variant"),
        ("defines.term_list", "Fee"),
        ("defines.term_list", "Fees"),
        ("defines.parenthetical", "Seller"),
    ]
    assert states_definition('"Goods" means the items ordered.')
    assert not states_definition("The goods are the items ordered.")


def _terms(text: str, heading: str = "Terms") -> list[tuple[str, str]]:
    section = SectionInfo("s-1", "s", 0, "1", heading, 1, None, text)
    return [(e.rule, e.term or "") for e in definitions(section)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a name given after a description, inside a parenthesis
        (
            'the fees paid to carriers (all such costs, collectively, "Shipping Costs") are due',
            [("defines.parenthesis_label", "Shipping Costs")],
        ),
        (
            'notice to the other side (such date, the "Notice Date").',
            [("defines.parenthesis_label", "Notice Date")],
        ),
        (
            'the buyers (Acme and Beta each a "Member" and together the "Members") agree',
            [("defines.parenthesis_label", "Member"), ("defines.parenthetical", "Members")],
        ),
        (
            'Gamma Ltd ("Gamma" and, together with its affiliates, "Gamma Group") agrees',
            [("defines.parenthetical", "Gamma"), ("defines.parenthesis_label", "Gamma Group")],
        ),
        (
            'both of them (clauses (i) and (ii), the "Conditions") are met',
            [("defines.parenthesis_label", "Conditions")],
        ),
        # examples, captions and a series of quoted words name nothing
        ('labels (e.g. "Fragile" or "Heavy") are printed', []),
        ('titles (for example, "Summary", "Scope" or "Notes") are kept', []),
        ('a named part (such as "Notes", "Scope" or "History".) stays', []),
        ('the goods (see Attachment "B") ship', []),
        # verbs and asides of a definition
        (
            '"Components" mean the parts listed in the order.',
            [("defines.quoted_means", "Components")],
        ),
        (
            '"Gross Sales" as used in this Section 3.01 shall mean all amounts invoiced.',
            [("defines.quoted_means", "Gross Sales")],
        ),
        (
            '"Writing" or "Written" (whether or not capitalised) means a paper document.',
            [("defines.term_list", "Writing"), ("defines.term_list", "Written")],
        ),
        # naming forms
        (
            'the buyer (referred to at times in this Section as the "Claimant") may',
            [("defines.referred_to_as", "Claimant"), ("defines.parenthesis_label", "Claimant")],
        ),
        (
            'the receiving unit, known as "Base Equipment", and its cables',
            [("defines.called", "Base Equipment")],
        ),
        # an entry of a list opened by its quoted term and a dash
        (
            'the words below.  "Kiosk" - A free-standing unit.  "Owner" - Each holder of a share.',
            [("defines.quoted_entry", "Kiosk"), ("defines.quoted_entry", "Owner")],
        ),
        ('Schedule "2" - Development Plan', []),
        ('"Special Link"means a tagged link.', [("defines.quoted_means", "Special Link")]),
        # "shall be" a class or an amount defines; "shall be the sole property" does not
        (
            'b) "Sales Region" shall be any county in which the Dealer keeps a showroom.',
            [("defines.quoted_means", "Sales Region")],
        ),
        ('"Joint Inventions" shall be the sole property of the Company.', []),
        # terms given the meaning that follows from one just defined
        (
            '"Owned" and "Owning" shall have a corresponding meaning.',
            [("defines.term_list", "Owned"), ("defines.term_list", "Owning")],
        ),
        # an unquoted capitalised phrase opening a sentence with "means"
        (
            "Royalties are due quarterly. Net Sales means the gross amount invoiced.",
            [("defines.unquoted_means", "Net Sales")],
        ),
        ("The amount that Net Sales means to the buyer is small.", []),
        # a file type keeps its dot
        (
            'signed copies in portable document format (".pdf") are originals',
            [("defines.parenthetical", ".pdf")],
        ),
        # an event or state defined by when it holds
        (
            'Either side may end the lease for "Cause". "Cause" shall exist if rent is unpaid.',
            [("defines.occurs_when", "Cause")],
        ),
        (
            'If neither renews, a "Lapse Event" shall be deemed to have occurred.',
            [("defines.occurs_when", "Lapse Event")],
        ),
        ("Cause shall exist if rent is unpaid.", []),
        # an unquoted term after "As used herein"
        (
            "As used in this Lease, repair costs will be deemed to be the costs of parts.",
            [("defines.as_used_means", "repair costs")],
        ),
        (
            "As used herein, Working Day means a day the office is open.",
            [("defines.unquoted_means", "Working Day")],
        ),
        ("As used herein, the following words have these meanings.", []),
        ("As used in this Lease, any reference to a month includes part of it.", []),
        (
            '"Business" or "Business of Acme" includes its trade.',
            [("defines.term_list", "Business"), ("defines.term_list", "Business of Acme")],
        ),
        # a term wrapped onto the next line by the parser
        (
            'For purposes of this agreement "Competing Computer Products\n\nRetailer" means a '
            "retailer.",
            [("defines.quoted_means", "Competing Computer Products Retailer")],
        ),
        ('1.6 "CUSTOMER(S)" means one or more customers.', [("defines.quoted_means", "CUSTOMER")]),
        # a name given inside a parenthesis of its own, even among examples
        (
            'terms contained in Exhibit C (End User License Agreement ("EULA")).',
            [("defines.parenthetical", "EULA")],
        ),
        (
            'the laws (including, without limitation, the Disabilities Act ("ADA")).',
            [("defines.parenthetical", "ADA")],
        ),
        (
            'Agreement. (xxv) "SHIPMENT DATE" - the date of delivery of Products.',
            [("defines.quoted_entry", "SHIPMENT DATE")],
        ),
        ('He wrote "Stop" - and left.', []),
    ],
)
def test_definition_forms_of_contracts(text: str, found: list[tuple[str, str]]) -> None:
    assert sorted(_terms(text)) == sorted(found)


def test_a_section_headed_by_its_term_defines_it() -> None:
    entry = SectionInfo(
        "s-2", "s", 1, "1.2", "Developed Property", 2, None, "shall mean any know-how."
    )
    assert [(e.rule, e.term) for e in definitions(entry)] == [
        ("defines.headed_meaning", "Developed Property")
    ]
    other = SectionInfo("s-3", "s", 2, "1.3", "Payment", 2, None, "The fee is due in May.")
    assert definitions(other) == []


def test_a_definition_the_heading_took_is_read_in_the_heading() -> None:
    # '1.10 "IND" means the Investigational New Drug Application, as defined by the' / 'United
    # States ...': the sectioner took the first line of the wrapped definition as the heading
    heading = '"IND" means the Investigational New Drug Application, as defined by the'
    section = SectionInfo("s-1", "s", 0, "1.10", heading, 2, None, "United States Act.")
    assert [(e.rule, e.term) for e in definitions(section)] == [("defines.quoted_means", "IND")]
    # a heading the text repeats is read once; a plain heading not at all
    repeated = SectionInfo("s-2", "s", 1, "1.2", '"Fee"', 2, None, '"Fee" means the fee.')
    assert [e.term for e in definitions(repeated)] == ["Fee"]
    plain = SectionInfo("s-3", "s", 2, "2", "Payment", 1, None, "The fee is due in May.")
    assert definitions(plain) == []


def test_numbered_entries_of_a_definitions_section() -> None:
    text = (
        "the terms shall have the following designated meanings:\n\n1.1.1 PRC Laws: means any "
        "law in force.\n\n1.1.2 Trade Secrets: means any technical information."
    )
    section = SectionInfo("s-1", "s", 0, "1", "Definitions", 1, None, text)
    assert [(e.rule, e.term) for e in definitions(section)] == [
        ("defines.headed_entry", "PRC Laws"),
        ("defines.headed_entry", "Trade Secrets"),
    ]


def test_a_run_in_heading_naming_the_definitions_defines_nothing() -> None:
    """'Service Definitions. Certain capitalized terms ...': the section's own run-in
    heading marks the definitions; it is no entry. A quoted term after it still is."""
    text = (
        "Service Definitions. Certain capitalized terms used in this Agreement shall have "
        'meanings set forth below. (a) "Bid" means a price offered.'
    )
    section = SectionInfo("s-1", "s", 0, "3", "Service Definitions", 1, None, text)
    assert [e.term for e in definitions(section)] == ["Bid"]


def test_a_borrowed_term_is_defined_where_first_borrowed_unless_defined_here() -> None:
    from raag_assets.core.model import DocInfo
    from raag_assets.graph.build import extract
    from resources.nlp import load_pipeline

    blocks = [
        ("1", "Definitions", '"Affiliate" means any entity under common control.'),
        ("2", "Shares", "The Common Stock (as defined in the Purchase Agreement) is issued."),
        ("3", "Transfer", "No Common Stock (as defined in the Purchase Agreement) is sold."),
        ("4", "Use", "Each Affiliate (as defined in the Master Agreement) may buy Products."),
        ("5", "Resale", "Its Affiliates (as defined in the Master Agreement) may resell."),
    ]
    sections = [
        SectionInfo(f"d-{n}", "d", n, label, heading, 1, None, text)
        for n, (label, heading, text) in enumerate(blocks)
    ]
    nlp = load_pipeline("en_core_web_sm")
    out = extract([DocInfo("d", "d.txt")], sections, lambda texts: list(nlp.pipe(texts)))
    defines = sorted(
        (e.src_section_id, e.normalized_target, e.rule)
        for e in out.edges
        if e.edge_type == "defines"
    )
    assert defines == [
        ("d-0", "affiliate", "defines.quoted_means"),
        ("d-1", "common stock", "defines.defined_elsewhere"),
    ]


def test_a_function_calls_quoted_arguments_define_nothing() -> None:
    """A manual's example call ('result=asn1 write value(cert, "rdnSequence", "NEW", 1)')
    passes strings; it names no terms. A name given in a parenthesis after a party glued to
    it ('Beta LLC("Company")') still defines."""
    text = (
        'Using "pkix.asn": result=asn1 write value(cert, "certificate1.subject", "NEW", 1) '
        'appends an element. Beta LLC("Company") signs.'
    )
    section = SectionInfo("m-4.2", "m", 0, "4.2", "Field functions", 2, None, text)
    assert {e.normalized_target for e in definitions(section)} == {"company"}


def _extracted_terms(blocks: list[tuple[str, str, str]]) -> tuple[list[tuple[str, str]], set]:
    """(section label, term) of every `defines` edge and the (label, term) of every term use
    of a one-document tenant made of `blocks` (label, heading, text), through extract."""
    from raag_assets.core.model import DocInfo
    from raag_assets.graph.build import extract
    from raag_assets.graph.terms import term_uses
    from resources.nlp import load_pipeline

    sections = [
        SectionInfo(f"d-{n}", "d", n, label, heading, 1, None, text)
        for n, (label, heading, text) in enumerate(blocks)
    ]
    nlp = load_pipeline("en_core_web_sm")
    out = extract([DocInfo("d", "d.txt")], sections, lambda texts: list(nlp.pipe(texts)))
    labels = {s.section_id: s.label for s in sections}
    defines = sorted(
        (labels[e.src_section_id or ""], e.term or "")
        for e in out.edges
        if e.edge_type == "defines"
    )
    uses = {
        (labels[e.src_section_id or ""], e.term or "")
        for e in term_uses(sections, out.terms, {}, set(), [])
    }
    return defines, uses


def test_a_filing_that_lost_its_quotation_marks_defines_by_bare_parentheses() -> None:
    """A contract whose quotation marks were lost on the way to text names its terms in
    parentheses bare: those are its definitions, the parties' short names among them (no term
    of art); in a contract that quotes its names, a bare parenthesis is an aside."""
    bare = [
        (
            "Title",
            "SOFTWARE DEVELOPMENT AGREEMENT",
            "This Agreement is made December 3, 2018 (the Effective Date) by and between Acme "
            "LLC, a Delaware limited liability company (Developer ), and Beta Inc., a Nevada "
            "corporation (Client).",
        ),
        (
            "1",
            "Services",
            "Developer will deliver the software and all related work (collectively, the "
            "Deliverables) by the dates of the plan (the Delivery Schedule).",
        ),
        ("2", "Acceptance", "Client tests each of the Deliverables on the Delivery Schedule."),
    ]
    defines, uses = _extracted_terms(bare)
    assert defines == [
        ("1", "Deliverables"),
        ("1", "Delivery Schedule"),
        ("Title", "Client"),
        ("Title", "Developer"),
        ("Title", "Effective Date"),
    ]
    assert {("2", "Deliverables"), ("2", "Delivery Schedule")} <= uses
    assert not {u for u in uses if u[1] in ("Developer", "Client")}  # the parties' names

    quoted = [
        (label, heading, text.replace("(the Delivery Schedule)", '(the "Delivery Schedule")'))
        for label, heading, text in bare
    ]
    quoted[0] = ("Title", quoted[0][1], quoted[0][2] + ' The "Plan" and "Work" are below.')
    defines, _ = _extracted_terms(quoted)
    assert defines == [("1", "Delivery Schedule")]
