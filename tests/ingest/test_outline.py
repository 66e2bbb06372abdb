"""Sections from the document's own numbering, read as an outline (ingest/outline.py)."""

import pytest

from raag_assets.core.model import FRONT_LABEL, Line
from raag_assets.ingest.outline import (
    ahead,
    cited_labels,
    continues,
    first_of_next,
    follows,
    second_child,
)
from raag_assets.ingest.sectioning import build_sections, heading_rules


def lines_of(text: str) -> list[Line]:
    return [Line(t) for t in text.split("\n")]


def sections(text: str):
    return build_sections("doc", lines_of(text), "text")


def labels(text: str) -> list[str]:
    return [s.label for s in sections(text)]


def test_outline_steps():
    assert follows((1, 2, 1), (1, 2)) and follows((1, 3), (1, 2, 1)) and follows((2,), (1, 2, 1))
    assert not follows((1, 4), (1, 2)) and not follows((3,), (1,))
    assert continues((2, 1), (1, 74))  # the heading of 2 was lost
    assert continues((1, 0, 1), (1,)) and continues((1, 1), (1, 0, 1))  # "1.0.1" under "1."
    assert not continues((30,), (2, 1))  # "30 days"


def test_a_cited_number_may_stand_a_few_numbers_ahead():
    assert ahead((4, 2), (4,)) and ahead((8, 1), (5, 4)) and ahead((3, 2, 13), (3, 2, 11))
    assert not ahead((5,), (1,))  # a top-level number: "5." in a list of definitions
    assert not ahead((4, 2), (5, 1)) and not ahead((3, 9), (3, 2))  # behind, or too far


ARTICLE_NUMBER_LOST = (
    "LICENSE AGREEMENT\n\nThis Agreement is made between the Company and the Agent.\n\n"
    "ARTICLE IV CHARGES\n\nReimbursement Generally. The Company will reimburse the Agent for "
    "the following items.\n\n4.2 Conditions of Reimbursement.\n\nThe Company shall pay each "
    "invoice within thirty days of receipt.\n\nARTICLE V WARRANTIES\n\n5.1 Warranty.\n\n"
    "The Agent warrants its services{cite}."
)


def test_a_cited_number_whose_first_sibling_was_lost_heads_a_section():
    cited = labels(ARTICLE_NUMBER_LOST.format(cite=" subject to the conditions in Section 4.2"))
    assert cited == [FRONT_LABEL, "Article IV", "4.2", "Article V", "5.1"]
    # without the document citing it, "4.2" after "ARTICLE IV" stays text (a list, a quantity)
    assert "4.2" not in labels(ARTICLE_NUMBER_LOST.format(cite=""))


def test_schedules_numbered_for_their_section_and_attachments_are_units():
    text = (
        "IP AGREEMENT\n\nThis Agreement is made between the Company and the Agent.\n\n"
        '1. Definitions. "Assigned Patents" means the patents set forth on Schedule 1.1(e) '
        "and in Attachment A.\n\nSchedule 1.1(e) - Assigned Patents\n\nUS 1,234,567 Widget.\n\n"
        "Attachment A\n\nThe widget drawings.\n\nSCHEDULE 3.2   City Rights Agreements\n\n"
        "Access and License Agreement dated December 8, 2000."
    )
    assert labels(text)[2:] == ["Schedule 1.1(e)", "Attachment A", "Schedule 3.2"]


def test_flattened_filing_one_physical_line_holds_several_sections():
    text = (
        "ENDORSEMENT AGREEMENT\n\nThis Agreement is made between the Company and the Agent.\n\n"
        "1. Engagement. The Company engages the Agent to promote its products. "
        "2. Term of Agreement. The term of this Agreement is two (2) years from the date "
        "above. 3. Grant. The Agent grants the Company the right to use the name of the Agent "
        "within 30 days. 4. Time is of the Essence. Time is of the essence of each obligation."
    )
    found = sections(text)
    assert [s.label for s in found] == [FRONT_LABEL, "1", "2", "3", "4"]
    assert [s.heading for s in found[1:]] == [
        "Engagement",
        "Term of Agreement",
        "Grant",
        "Time is of the Essence",
    ]
    assert "within 30 days." in found[3].text  # a quantity opens no section
    rules = dict(heading_rules(lines_of(text), "text"))
    assert rules["2"] == "heading.numbered_title"


def test_article_heading_runs_into_its_first_subsection():
    text = (
        "SUPPLY AGREEMENT\n\n1. Scope\n\n1.1 The Supplier shall supply the Products.\n\n"
        "2. Fees 2.1 The Company shall pay the Fees within thirty days of invoice. "
        "2.2 Late Payment. Late amounts bear interest.\n\n"
        "2.2.1 Interest accrues daily on the amount due as set out in Section 2.2."
    )
    found = {s.label: s for s in sections(text)}
    assert list(found) == [FRONT_LABEL, "1", "1.1", "2", "2.1", "2.2", "2.2.1"]
    assert found["2"].heading == "Fees"
    assert found["2.1"].heading == ""  # a clause without a title
    assert found["2.1"].parent_id == found["2"].section_id
    assert found["2.2"].heading == "Late Payment"


def test_a_list_item_or_a_citation_inside_a_clause_opens_no_section():
    text = (
        "1. Services\n\n1.1 The Supplier shall: (a) deliver the goods. (b) install them. "
        "2. The Supplier shall also train staff as set out in Section 1.2 The training plan.\n\n"
        "1.2 Training. The Supplier shall train the staff of the Company."
    )
    assert labels(text) == ["1", "1.1", "1.2"]


def test_keyword_and_roman_articles_run_in():
    text = (
        "AGREEMENT\n\nThe parties agree as follows: ARTICLE I DEFINITIONS Section 1.1 Defined "
        "Terms. Words have the meanings given. Section 1.2 Interpretation. Headings are for "
        "convenience. ARTICLE II TERM Section 2.1 Duration. This Agreement lasts one year."
    )
    assert labels(text) == [FRONT_LABEL, "Article I", "1.1", "1.2", "Article II", "2.1"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1. Scope\n\n1.1 Text here.\n\n2.LICENSE GRANT\n\n2.1 The Licensor grants.", "2"),
        ("6. Term\n\n6.1 Text here.\n\n7 Confidentiality\n\n7.1 Each party shall.", "7"),
    ],
)
def test_numbers_set_tight_or_without_their_dot(text: str, expected: str):
    assert expected in labels(text)


def test_a_numbered_definition_is_titled_by_its_term():
    text = (
        '1. Definitions\n\n1.1 "BOM" means the bill of materials for a Product.\n\n'
        '1.2 "Lead Time" or "LT" means the time between an order and its delivery.'
    )
    found = {s.label: s.heading for s in sections(text)}
    assert found["1.1"] == '"BOM"'
    assert found["1.2"] == '"Lead Time" or "LT"'


def test_cited_labels_are_the_documents_own_citations():
    texts = ["as provided in Section 2.4.1 and Sections 4.1 and 4.2", "under Clause 9"]
    assert cited_labels(texts) == {"2.4.1", "4.1", "4.2", "9"}


def test_a_lettered_name_in_an_exhibit_does_not_break_the_scan():
    text = (
        "1. Scope\n\n1.1 The Supplier shall maintain the Software.\n\nEXHIBIT A\n\n"
        "A. Software\n\nThe software listed below is covered by this Agreement in full.\n\n"
        "A.1 Support Levels. Support is given on business days."
    )
    assert "Exhibit A" in labels(text)


def test_a_heading_runs_into_its_first_subsection_after_a_sentence():
    text = (
        '1. Definitions\n\n1.1 "Term" means one year.\n\n'
        '1.2 "Fees" means the amounts due. 2. Conditions Precedent 2.1 Conditions to this '
        "Agreement are the following: 2.1.1 Execution of the License. 2.1.2 Payment of the Fees."
    )
    assert labels(text) == ["1", "1.1", "1.2", "2", "2.1", "2.1.1", "2.1.2"]


def test_a_long_title_joined_by_semicolons_runs_into_its_first_subsection():
    """A heading whose title joins topics by semicolons ("Governing Law; Dispute Settlement"),
    up to 80 characters, run into its first subsection on a flattened filing's one line."""
    text = (
        "1. Grant 1.1 License. Acme grants the license. 1.2 Fees. Fees are due monthly. "
        "2. Governing Law; Dispute Settlement 2.1 The execution of this Agreement is governed "
        "by the laws of Ohio. 2.2 Any dispute goes to arbitration. 3. Notices 3.1 Form. In writing."
    )
    assert labels(text) == ["1", "1.1", "1.2", "2", "2.1", "2.2", "3", "3.1"]
    text = (
        "1. Grant 1.1 License. Acme grants the license. 1.2 Fees. Fees are due monthly. "
        "2. Marks 2.1 Use. The Franchisee uses the marks as the Franchisor directs. 2.2 Claims. "
        "The provisions of this Section 2.2 survive the end of this Agreement. "
        "3. Third Party Infringements; Attacks on Use of the Trademarks; Cooperation "
        "3.1 Third Party Infringements. (a) Mutual Information. Each party shall inform the "
        "other of any infringement. 3.2 Attacks on Use. Each party shall inform the other of "
        "any attack. 4. Notices 4.1 Form. In writing."
    )
    assert labels(text) == ["1", "1.1", "1.2", "2", "2.1", "2.2", "3", "3.1", "3.2", "4", "4.1"]
    found = {s.label: s.heading for s in sections(text)}
    assert found["3"] == "Third Party Infringements; Attacks on Use of the Trademarks; Cooperation"


def test_a_numbered_definition_runs_in_after_any_word():
    text = (
        '1. Definitions\n\n1.1 "Data" has the meaning set out in Exhibit A 1.2 "Product" means '
        'the tablets as defined in Section 1.1 "Data" above.'
    )
    assert labels(text) == ["1", "1.1", "1.2"]


def test_an_exhibit_named_in_a_wrapped_sentence_is_no_heading():
    text = (
        "1. Supply\n\n1.1 Prices are those of the initial\n\n"
        "APPENDIX C shall be updated accordingly each quarter.\n\n"
        "1.2 Orders. The Company orders by purchase order."
    )
    assert labels(text) == ["1", "1.1", "1.2"]


def test_a_list_item_in_lower_case_never_carries_the_outline_off():
    text = (
        "SERVICES AGREEMENT\n\nThis Agreement is made between the Company and the Vendor.\n\n"
        "3.17 Infringement\n\nThe Vendor shall indemnify the Company against claims based on:\n\n"
        "1. infringement of any patent in connection with the Services;\n\n"
        "4. the relevant specifications being of the Vendor's own design.\n\n"
        "3.18 Insurance\n\nThe Vendor shall maintain insurance at its own cost."
    )
    assert labels(text) == [FRONT_LABEL, "3.17", "3.18"]


def test_a_bare_number_over_a_title_in_capitals_continues_the_outline():
    text = (
        "LICENSE AGREEMENT\n\nThis Agreement is made between the Company and the Agent.\n\n"
        "8 INDEMNIFICATION.\n\n8.1 By the Company. The Company shall indemnify the Agent.\n\n"
        "9 LIMITATION OF LIABILITY.\n\nIn no event shall either party be liable for lost "
        "profits.\n\n10 CONFIDENTIALITY.\n\nEach party shall keep the other's information "
        "confidential.\n\n30 DAYS\n\nThe notice period is thirty days."
    )
    assert labels(text) == [FRONT_LABEL, "8", "8.1", "9", "10"]


def test_a_later_page_of_the_contents_heads_no_sections():
    text = (
        "LICENSE AGREEMENT\n\nTable of Contents 1. Definitions 1 2. Grant 4 2.1. Rights 4\n\n"
        "ii\n\nLicense Agreement\n\n"
        "3. Fees 5 3.1. Upfront Payment 5 3.2. Royalties 6 4. Term 7\n\n"
        "This Agreement is made between the Company and the Agent.\n\n"
        "1. Definitions. Terms have the meanings below.\n\n2. Grant. The Company grants a "
        "licence.\n\n3. Fees. The Agent shall pay the fees."
    )
    assert [x for x in labels(text) if x[0].isdigit()] == ["1", "2", "3"]


def test_a_running_page_header_before_a_heading_is_not_its_text():
    page = "Confidential Execution Version"
    text = (
        f"SUPPLY AGREEMENT\n\n{page} This Agreement is made between the Company and the "
        f"Supplier.\n\n15.2 Termination\n\n15.2.1 Termination for Breach. Either Party may "
        f"terminate.\n\n{page} 15.2.2 Termination for Insolvency. Either Party may terminate "
        f"on insolvency.\n\n{page} The Supplier shall deliver the goods.\n\n15.2.3 Notice. "
        "Any notice shall be in writing."
    )
    assert labels(text)[-4:] == ["15.2", "15.2.1", "15.2.2", "15.2.3"]


def test_a_heading_in_capitals_run_in_after_a_sentence_with_its_text_below():
    text = (
        "AFFILIATE AGREEMENT\n\nThis Agreement is made between the Network and the Affiliate."
        "\n\n1. DEFINITIONS: The following terms have these meanings. 2. TERM: The term is "
        "two years. 3. DELIVERY OF THE SERVICE:\n(a) The Network shall deliver the Service."
    )
    assert labels(text) == [FRONT_LABEL, "1", "2", "3"]


def test_a_heading_printed_on_the_line_of_a_rule_drawn_above_it():
    rule_line = "-" * 40
    text = (
        "HOSTING AGREEMENT\n\nThis Agreement is made between the Customer and the Provider.\n\n"
        f"{rule_line} 1.0 Services\n\nThe Provider will perform the Services.\n\n"
        f"{rule_line} 2.0 Term and Termination\n\n2.1 Term\n\nThe term is two years."
    )
    assert labels(text) == [FRONT_LABEL, "1", "2", "2.1"]


def test_a_title_over_its_first_lettered_item_heads_a_run_in_section():
    text = (
        "AGENCY AGREEMENT\n\nThis Agreement is made between the Corporation and the Agents.\n\n"
        "1. Appointment. The Corporation appoints the Agents. 2. Rights of Termination (a) "
        "Regulatory Proceedings Out If, after the date hereof, an inquiry is commenced, any Agent "
        "may terminate."
    )
    assert labels(text) == [FRONT_LABEL, "1", "2"]


def test_keyword_headings_printed_in_one_block_above_their_text():
    text = (
        "ALLIANCE AGREEMENT\n\nThis Agreement is made between the Company and the Agent.\n\n"
        "SECTION 9 TRADEMARKS\n\n9.01 Use of Marks. The Agent may use the marks.\n\n"
        "SECTION 10 COMPENSATION AND EXPENSES\n\nSECTION 11 ADDITIONAL COVENANTS\n\n"
        "10.01 Compensation. The Agent shall not be paid.\n\n10.02 Expenses. Each Party pays "
        "its own costs.\n\n11.01 Covenants. The Company shall act in good faith."
    )
    assert labels(text) == [FRONT_LABEL, "9", "9.01", "10", "11", "10.01", "10.02", "11.01"]


def test_a_cited_exhibit_after_page_furniture_on_its_line_is_a_unit():
    text = (
        "AFFILIATION AGREEMENT\n\nThis Agreement is made between the Network and the Affiliate."
        "\n\n1. Fees. The Affiliate Share has the meaning set forth in Exhibit D.\n\n"
        "Execution Copy EXHIBIT D To Affiliation Agreement\n\nThe Affiliate Share is ten "
        "percent of net revenue.\n\nExecution Copy EXHIBIT E To Affiliation Agreement\n\n"
        "Contacts of the parties."
    )
    # Exhibit E is cited nowhere: its line stays text
    assert labels(text) == [FRONT_LABEL, "1", "Exhibit D"]


def test_an_exhibit_cited_in_capitals_or_quoted_opens_after_the_page_number():
    """'set forth on EXHIBIT A' cites it as much as 'Exhibit A'; 'Exhibit "B"' quotes its
    letter; the page number printed on the heading's line is furniture. A list of the
    exhibits ('EXHIBITS EXHIBIT "A" ...') opens none."""
    text = (
        "LICENSE AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n1. Managers. "
        "The managers are set forth on EXHIBIT A attached hereto.\n\n2. Territory. The "
        'Territory is set out in Exhibit "B" hereto.\n\nEXHIBITS EXHIBIT "A" - MANAGERS 9 '
        'EXHIBIT "B" - TERRITORY 10\n\n9                 EXHIBIT A\n\nJane Roe, John Doe.'
        '\n\n10. EXHIBIT "B" TO LICENSE AGREEMENT - TERRITORY\n\nThe State of Utah.'
    )
    assert labels(text) == [FRONT_LABEL, "1", "2", "Exhibit A", "Exhibit B"]


def test_a_citation_wrapped_onto_a_line_of_its_own_heads_no_section_again():
    text = (
        "OUTSOURCING AGREEMENT\n\nThis Agreement is made between NICE and the Contractor.\n\n"
        "12.6. Indemnification. The Contractor shall indemnify NICE.\n\n12.7. Fees. NICE pays "
        "the fees.\n\n12.8. Liability. The liability of the Contractor is limited, except under"
        "\n\nSection 12.6. This Section shall not be construed as imposing any liability.\n\n"
        "12.9. Limits. The liability of NICE is limited."
    )
    assert labels(text) == [FRONT_LABEL, "12.6", "12.7", "12.8", "12.9"]


def test_the_next_number_run_in_with_a_short_title_ending_the_line():
    text = (
        "ALLIANCE AGREEMENT\n\nThis Agreement is made between the Company and the Partner.\n\n"
        "11. Costs. Each party bears its own costs under this Agreement. 12. Publications\n"
        "Neither party shall publish the results without consent. See also: 14. Exhibits\n"
        "The exhibits form part of this Agreement."
    )
    # "14." skips a number: the title alone does not make it a heading
    assert labels(text) == [FRONT_LABEL, "11", "12"]


def test_a_top_level_number_without_its_dot_run_in_over_its_first_subsection():
    text = (
        "MANUFACTURING AGREEMENT\n\nThis Agreement is made between Kitov and Dexcel.\n\n"
        '1. Definitions\n\n1.1 "Year" shall mean twelve months from the Commencement Date. '
        "2 Basics of the Agreement 2.1 Grant of Rights. Kitov grants Dexcel a licence for "
        "2 years. 2.2 Exclusivity. The licence is exclusive."
    )
    assert labels(text) == [FRONT_LABEL, "1", "1.1", "2", "2.1", "2.2"]


def test_a_bare_number_run_in_with_a_title_joined_by_semicolons():
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n"
        "1. Term\n\n1.1 The term is one year. 1.2 Beta may renew it for 3 years. "
        "2 Quality; Complaints and Recalls 2.1 Acme shall keep records; Beta may inspect "
        "them. 2.2 Recalls. Acme shall bear the cost."
    )
    assert labels(text) == [FRONT_LABEL, "1", "1.1", "1.2", "2", "2.1", "2.2"]


def test_a_numbered_list_inside_a_keyword_section_never_takes_the_outline_on():
    """Sections said by their keyword ("Section 3.") and, inside one, a list of definitions
    numbered from 1: its items that reach the outline's number are still items."""
    text = (
        "AGENCY AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n"
        "Section 1. Offering. Acme offers the shares.\n\n"
        "Section 2. Compensation. Beta is paid a fee.\n\n"
        "Section 3. Representations. Acme represents that:\n\n"
        '1. "Time" means each date a buyer subscribed.\n\n'
        '2. "Prospectus" means the prospectus filed.\n\n'
        '3. "Free Writing Prospectus" means any such prospectus.\n\n'
        '4. "General Prospectus" means a prospectus for general use.\n\n'
        '5. "Permitted Prospectus" means a prospectus Beta approved.\n\n'
        "Section 4. Representations of Beta. Beta represents that it is licensed.\n\n"
        "Section 5. Covenants. Acme shall file the prospectus."
    )
    assert labels(text)[1:] == ["1", "2", "3", "4", "5"]


def test_a_run_of_subsections_a_few_numbers_on_continues_the_outline():
    """3.3 and 3.4 run into a line the text does not break: 3.5, 3.6, 3.7 go on."""
    text = (
        "LICENSE AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n"
        "3. ACME OBLIGATIONS\n\n3.1 Grant of License. Acme grants Beta a licence.\n\n"
        "3.2 Right of distribution N/A   3.3 Removed N/A   3.4 Content. Acme delivers it.\n\n"
        "3.5 Logo Trademarks. Beta may use the logos.\n\n"
        "3.6 Dedicated Personnel. Acme names one staff member.\n\n"
        "3.7 Responsibility. Acme bears the costs.\n\n4. ADVERTISING\n\nBeta sells advertising."
    )
    assert labels(text)[1:] == ["3", "3.1", "3.2", "3.5", "3.6", "3.7", "4"]


def test_an_article_numbered_in_words_heads_its_first_subsection():
    text = (
        "SERVICE AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n"
        "ARTICLE ONE SERVICES\n\nAcme provides the services. Beta pays for them.\n\n"
        "1.1 Acme shall give notice of any delay.\n\n"
        "ARTICLE TWO APPLICABLE LAW\n\n2.1 The law of New York governs this Agreement.\n\n"
        "2.2 Disputes go to arbitration in New York."
    )
    # labelled by their numbers as the text cites them ("Article Two"), GRAPH_GOLD's labels
    assert labels(text)[1:] == ["Article One", "1.1", "Article Two", "2.1", "2.2"]
    assert sections(text)[3].heading == "APPLICABLE LAW"


def test_the_page_number_before_a_dotted_heading_is_no_part_of_it():
    body = " The rights of the parties under this Agreement may not be assigned." * 3
    text = (
        "CONSULTING AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n"
        "ARTICLE 7 GENERAL 7.1 Waiver. No waiver binds a party unless written. 7.2 Notices. "
        "Notices are written.\n\n8 7.3 Assignment." + body + " 7.4 Severability. A clause "
        "held invalid leaves the rest in force."
    )
    assert labels(text)[1:] == ["Article 7", "7.1", "7.2", "7.3", "7.4"]


def test_a_run_in_number_one_on_when_the_next_run_in_number_follows_it():
    """5.5 ran in after an address (no sentence ends there): 5.6 and 5.7 go on."""
    text = (
        "LICENSE AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n"
        "5. MISCELLANEOUS\n\n5.1 Assignment. Beta shall not assign it. 5.2 Notices. Notices go "
        "to: Acme Inc., Attn: Chief Executive Officer 5.3. Governing Law. New York law governs. "
        "5.4. Amendment. Amendments are written. 5.5. No Waiver. No waiver binds a party."
    )
    assert labels(text)[1:] == ["5", "5.1", "5.2", "5.4", "5.5"]


def test_a_number_the_contents_list_runs_in_without_a_title_of_its_own_form():
    """A flattened filing: "4. Business plan prior to ..." has no title the text marks (no
    dot, no capitals, no title case), but the contents run together list "4. Business Plan":
    the outline's next number heads a section. A number the contents do not list stays text."""
    contents = (
        "Table of Content 1. Definitions 1 2. Grant 2 2.1. Rights 2 2.2. Limits 3 3. Fees 3 "
        "4. Business Plan 4 5. Development Work 5"
    )
    body = (
        "1. Definitions. Terms are defined here.\n\n2. Grant\n\n2.1. Rights. The Licensor "
        "grants rights.\n\n2.2. Limits. The rights are limited.\n\n3. Fees. The Licensee pays "
        "fees as set out by law. 4. Business plan prior to the signing the Licensee prepared a "
        "plan. 5. Development Work The Parties agree that development work will be done."
    )
    assert labels(contents + "\n\n" + body)[-3:] == ["3", "4", "5"]
    assert "4" not in labels(body)


def test_a_running_page_header_before_top_level_numbers_and_items_is_furniture():
    page = "Northwind Learning Group"
    text = (
        f"{page}\n\nSERVICE AGREEMENT\n\nThis Agreement is made between the Provider and the "
        "Recipient.\n\n1. Scope of Services\n\n(1) Technology Support Services\n\nThe Provider "
        f"shall support the Recipient.\n\n{page} (2) Enrollment Support Services\n\nThe Provider "
        f"shall help with enrolment.\n\n{page} 2. Non-exclusivity\n\nThe Services are not "
        f"exclusive.\n\n3. Assignment\n\nNo Party may assign.\n\n{page} 4. Service Fee\n\nThe "
        "Recipient shall pay the Service Fee."
    )
    secs = sections(text)
    assert [s.label for s in secs] == [FRONT_LABEL, "1", "2", "3", "4"]
    assert all(page not in s.text for s in secs)  # the header is no section's text


def test_a_header_that_never_stands_alone_may_be_words_of_the_text():
    page = "Confidential"
    text = (
        "NDA\n\nThis Agreement is made between the Parties.\n\n1. Purpose\n\nThe Parties "
        f"talk.\n\n{page} 2. Definitions\n\n{page} Information means all data disclosed.\n\n"
        f"{page} 3. Obligations\n\nEach Party keeps it secret.\n\n{page} Information stays "
        "with its owner."
    )
    secs = sections(text)
    assert [s.label for s in secs] == [FRONT_LABEL, "1", "2", "3"]
    assert "Confidential Information means" in secs[2].text


def test_roman_numbered_headings_in_capitals_and_a_letter_i_that_is_no_numeral():
    text = (
        "ALLIANCE AGREEMENT\n\nThis Agreement is made between the Parties.\n\nI. ENGAGEMENT\n\n"
        "The Company engages the Consultant.\n\nII. SERVICES\n\nThe Consultant shall:\n\n"
        "1. Attend meetings.\n\n2. Answer calls.\n\nIII. EXPENSES\n\nEach Party bears its own."
    )
    assert labels(text) == [FRONT_LABEL, "I", "II", "III"]
    lettered = (
        "AGENCY AGREEMENT\n\nThis Agreement is made between the Parties.\n\nA. AUTHORITY\n\n"
        "1. The Agency may sell.\n\n2. The Agency may bill.\n\nH. OPPORTUNITIES\n\n1. Other "
        "programs may follow.\n\nI. MISCELLANEOUS\n\n1. This Agreement may be amended.\n\n"
        "2. No waiver is implied."
    )
    got = labels(lettered)
    # the letter I after H is no numeral: the items under it, numbered again from 1, stay items
    assert "I" not in got and got.count("2") <= 1


def test_a_top_level_title_run_into_its_first_sentence_in_a_flattened_filing():
    text = (
        "FRANCHISE AGREEMENT\n\nThis Agreement is made between the Franchisor and the "
        "Franchisee.\n\n1. Grant 1.1 Rights. The Franchisor grants the rights. 1.2 Scope. The "
        "rights cover the Territory. 2. Term The term of this Agreement shall be five years. "
        "3. Compliance with Law Franchisee shall obey the law. The Franchisee shall pay 4. "
        "The Company shall not read this as a heading."
    )
    assert labels(text) == [FRONT_LABEL, "1", "1.1", "1.2", "2", "3"]


def test_a_running_page_header_with_a_number_in_it():
    page = "Contract No.: AB 2018-0044"
    text = (
        f"{page} COLLABORATION AGREEMENT This Agreement is made between the Parties.\n\n"
        "1. Definitions\n\n1.1 Platform means the system.\n\n"
        f"{page} 1.2 Rules means the rules of the platform.\n\n2. Cooperation\n\n2.1 Party A "
        f"shall provide the system.\n\n{page} 2.2 Party B shall pay the fees.\n\n{page} 3. "
        "Deposit\n\nParty B shall pay a deposit."
    )
    assert labels(text)[-7:] == ["1", "1.1", "1.2", "2", "2.1", "2.2", "3"]


def test_contents_set_one_entry_a_line_do_not_move_the_outline_on():
    entries = ((2, "SUPPLY"), (3, "PRICE"), (4, "TERM"))
    contents = "\n\n".join(
        ["SUPPLY AGREEMENT TABLE OF CONTENTS ARTICLE 1 DEFINITIONS 1"]
        + [f"ARTICLE {n} {title} {n + 2}" for n, title in entries]
    )
    body = (
        "SUPPLY AGREEMENT This Agreement is made between the Buyer and the Seller. ARTICLE 1 "
        "DEFINITIONS 1.1 Definitions. Terms have these meanings. 1.2 Other Terms. Other terms "
        "have their usual meaning.\n\nARTICLE 2 SUPPLY 2.1 Supply. The Seller shall supply.\n\n"
        "ARTICLE 3 PRICE 3.1 Price. The Buyer shall pay."
    )
    got = labels(contents + "\n\n" + body)
    assert {"1.1", "1.2", "2.1", "3.1"} <= set(got), got


def test_a_name_the_document_writes_again_is_no_title_run_into_a_sentence():
    text = (
        "SERVICE AGREEMENT\n\nThis Agreement is made between the Service Provider and the "
        "Service Recipient. Whereas: 1. Service Provider is a company with resources. 2. Service "
        "Recipient runs schools.\n\n1. Scope of Services\n\nThe Service Provider shall teach."
    )
    assert labels(text) == [FRONT_LABEL, "1"]


def test_an_exhibit_title_repeated_under_its_heading_is_no_section_of_its_own():
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between the Parties.\n\n1. Supply\n\nThe "
        "Seller shall supply.\n\nExhibit B - Form of Patent Assignment\n\nFORM OF PATENT "
        "ASSIGNMENT\n\nThe Assignor assigns the patents to the Assignee."
    )
    secs = sections(text)
    assert [s.label for s in secs] == [FRONT_LABEL, "1", "Exhibit B"]
    assert "The Assignor assigns" in secs[-1].text


def test_the_name_after_a_banner_version_line_or_legend_opens_the_title_block():
    """The document's name after a filing banner, a version line or a redaction legend is
    part of `Title` (GRAPH_GOLD: everything before the first heading), not a section of its
    own; a heading that is no document's name ("RECITALS") still heads one."""
    intro = 'This Agreement is made between Acme Inc. ("Acme") and Beta LLC ("Beta").\n\n'
    body = "1. Supply. Acme shall supply.\n\n2. Price. Beta shall pay.\n"
    for front in (
        "Exhibit 10.2\n\nExecution Version\n\nSUPPLY AGREEMENT\n\n",
        "Exhibit 10.2\n\nConfidential treatment has been requested for portions of this "
        "exhibit. The omitted portions have been filed separately with the Commission.\n\n"
        "SUPPLY AGREEMENT\n\n",
    ):
        assert labels(front + intro + body) == [FRONT_LABEL, "1", "2"]
    recitals = "SUPPLY AGREEMENT\n\nRECITALS\n\nWhereas Acme makes widgets and Beta wants them.\n\n"
    assert labels(recitals + body) == [FRONT_LABEL, "Recitals", "1", "2"]


def test_a_second_subsection_whose_first_lost_its_number_continues_the_outline():
    assert second_child((11, 2), (11,)) and not second_child((11, 3), (11,))
    text = (
        "MAINTENANCE AGREEMENT\n\nThis Agreement is made between the Owner and the Contractor."
        "\n\n10. Access\n\n10.1 The Owner shall allow access to the premises.\n\n"
        "11. Employees\n\n1l.1 The parties acknowledge the transfer of the employees.\n\n"
        "11.2 The Contractor shall pay the employees from the transfer date.\n\n"
        "11.3 The Owner shall pay the employees before it.\n\n12. Term\n\n"
        "12.1 The term is two years."
    )
    assert labels(text)[-6:] == ["10.1", "11", "11.2", "11.3", "12", "12.1"]
    # "11.2" with nothing numbered after it to continue it: no evidence, it stays text
    assert "11.2" not in labels(text.split("\n\n11.3")[0])


def test_a_number_without_its_dot_over_a_run_in_title_continues_the_outline():
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between the Buyer and the Supplier.\n\n"
        "1. Supply. The Supplier shall supply the products.\n\n"
        "2 Business Continuity. Supplier will develop and maintain a continuity plan.\n\n"
        "3 Intellectual Property. 3.1 Each Party shall retain its own rights.\n\n"
        "30 Days. The Buyer shall pay within the period."
    )
    # its first subsection run in after the title opens too; "30 Days" is no next number
    assert labels(text) == [FRONT_LABEL, "1", "2", "3", "3.1"]


def test_the_page_number_before_a_keyword_heading_is_no_part_of_it():
    body = "The Consultant's engagement may be terminated by either party on thirty days notice."
    text = (
        "CONSULTING AGREEMENT\n\nThis Agreement is made between the Company and the Consultant."
        f"\n\nARTICLE 3 TERM 3.1 Term. {body}\n\n4 ARTICLE 4 TERMINATION 4.1 Termination. {body}"
        "\n\nARTICLE 5 NOTICES 5.1 Notices. All notices are in writing."
    )
    assert labels(text)[1:] == ["Article 3", "3.1", "Article 4", "4.1", "Article 5", "5.1"]
    # a short line, as a page of contents sets its entries, is left as it is
    contents = "AGREEMENT\n\nCONTENTS\n\n1 ARTICLE II ENGAGEMENT\n\n6 ARTICLE III TERM\n\n"
    assert "Article II" not in labels(contents + "The parties agree as follows.")


def test_a_cited_number_run_in_a_few_numbers_on_heads_a_section():
    text = (
        "COLLABORATION AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n"
        "3. Intellectual Property. 3.1 Ownership. Each party owns its own inventions. The "
        "parties shall cooperate as set forth herein. 3.6 Joint Inventions. The parties will "
        "jointly own all joint inventions, subject to Section 3.6.\n\n4. Term. The term is "
        "two years. IN SECTION 9 OF THIS AGREEMENT THE PARTIES AGREE. 9. Notices. Notices are "
        "in writing, as Section 9 says."
    )
    assert labels(text) == [FRONT_LABEL, "3", "3.1", "3.6", "4", "9"]
    # without a citation the same number stays text
    assert "3.6" not in labels(text.replace("Section 3.6", "this clause"))


def test_a_subsection_title_run_into_its_first_three_level_clause():
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between the Buyer and the Supplier.\n\n"
        "3. Payment\n\n3.1 Invoices. The Supplier invoices monthly.\n\n"
        "3.2 Payment Terms 3.2.1 All payments shall be made by bank transfer. 3.2.2 Late "
        "payments bear interest.\n\n4. Term\n\n4.1 The term is two years."
    )
    assert labels(text)[1:] == ["3", "3.1", "3.2", "3.2.1", "3.2.2", "4", "4.1"]


def test_roman_headings_with_a_dash_before_their_title_keep_their_numeral():
    text = (
        "DEVELOPMENT AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n"
        "I - DEFINITIONS\n\n1.1 Terms have the meanings given here.\n\n"
        "II - COMPLIANCE WITH LAWS\n\nEach party complies with the law, as Article I says.\n\n"
        "III - TERM\n\nThe term is two years."
    )
    assert labels(text)[1:] == ["I", "1.1", "II", "III"]


def test_a_run_in_title_ending_in_a_colon_over_its_first_lettered_item():
    from raag_assets.ingest.sectioning import _titled

    title = "Sales and Marketing Plan and Line of Product Brand Trademarks"  # ten words
    assert _titled(f"{title}: (a) Acme shall use")
    assert _titled("Rights of Termination (a) Regulatory Proceedings")
    assert not _titled("the Company shall pay: (a) the fees")


def test_a_reserved_section_keeps_its_number_in_the_outline():
    text = (
        "MARKETING AGREEMENT\n\nThis Agreement is made between Acme and Beta.\n\n"
        "Section 1. Offering. Acme offers the shares. Section 2. Compensation. Beta pays the "
        "fee. Section 3. [Reserved] Section 4. General Provisions. 4.1 Term. The term is two "
        "years.\n\n5. Intentionally Omitted.\n\n6. Notices. Notices are in writing."
    )
    assert labels(text)[1:] == ["1", "2", "3", "4", "4.1", "5", "6"]


def test_the_first_child_of_the_next_number_at_any_depth_continues_the_outline():
    """A heading lost at any depth ("6.4" cut off with a page's last sentence, "ARTICLE VIII"
    read as text): its first child continues the outline, at a line's start or run in."""
    assert first_of_next((6, 4, 1), (6, 3)) and first_of_next((3, 2, 1), (3, 1, 4))
    assert first_of_next((8, 1), (7, 2)) and continues((6, 4, 1), (6, 3))
    assert not first_of_next((6, 3, 1), (6, 3))  # a first child: follows already
    assert not first_of_next((6, 5, 1), (6, 3)) and not first_of_next((6, 4, 2), (6, 3))
    text = (
        "SUPPLY AGREEMENT\n\n6. Products\n\n6.1. Quality. The Products shall be of good quality."
        "\n\n6.2. Supply. We shall supply the Products.\n\n"
        "6.3. Recipes. You agree to buy the Products "
        "only from us or from sources we approve and license 6.4 Sourcing of Other Products. "
        "6.4.1. Without limiting Section 6.3, we may approve other suppliers. 6.4.2. Approval "
        "Fees. You shall pay our costs of approval under Section 6.4.1."
    )
    assert labels(text) == [FRONT_LABEL, "6", "6.1", "6.2", "6.3", "6.4.1", "6.4.2"]


def test_headings_run_into_their_first_subsections_at_every_depth():
    """A flattened filing runs an article's heading into its first subsection's heading and
    that into its first clause ("3 Purchase of Product 3.1 Packaging 3.1.1 The Buyer ..."):
    each first child opens a section, and the clauses after it continue the outline."""
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between the Buyer and the Supplier.\n\n"
        "2. Licence\n\n2.1 The Supplier grants the Buyer a licence. 3 Purchase of Product "
        "3.1 Packaging 3.1.1 The Buyer shall provide packaging instructions. 3.1.2 The "
        "Supplier shall follow them. 3.2 Delivery. The Supplier delivers monthly."
    )
    assert labels(text)[1:] == ["2", "2.1", "3", "3.1", "3.1.1", "3.1.2", "3.2"]
    # a first child of another number is no run-in heading's child
    assert "3.1.1" not in labels(text.replace("3.1.1 The Buyer", "4.1.1 The Buyer"))


def test_a_dotted_number_a_few_on_opens_a_section_when_its_run_in_successor_follows():
    """ "14.3" ran into a line after a word with no full stop and "14.4" after it: "14.5" at
    the start of the next paragraph stands three numbers on; the number run into its own
    paragraph ("14.6") continues it, so the document's numbering goes on from there."""
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between the Buyer and the Supplier.\n\n"
        "14. MISCELLANEOUS 14.1 Notice. Notices are in writing. 14.2 Entire Agreement. This "
        "is the whole agreement of the parties and purchase orders are excluded 14.3 "
        "Conflicting Terms. These terms prevail\n\n"
        "14.5 No Waiver. A failure to enforce is no waiver. 14.6 Assignment. Neither party "
        "may assign this Agreement. 14.7 Force Majeure. Neither party is liable for delay."
    )
    assert labels(text)[1:] == ["14", "14.1", "14.2", "14.5", "14.6", "14.7"]
    # without a run-in successor the number stays text of 14.2
    alone = text.replace(" 14.6 Assignment.", " Assignment is").replace(" 14.7 Force", " Force")
    assert labels(alone)[1:] == ["14", "14.1", "14.2"]


def test_articles_numbered_in_words_and_chapters_head_their_subsections():
    """Translated contracts number their parts "ARTICLE ONE DEFINITION" or "Chapter 3
    Cooperation Term": keyword headings that place their subsections (1.1, 3.1) in the
    outline; "Chapter 11 of the Bankruptcy Code applies" is a sentence."""
    text = (
        "COOPERATION AGREEMENT\n\nWhereas,\n\n1. Party A owns a website.\n\n"
        "2. Party B runs a search engine.\n\n"
        "ARTICLE ONE DEFINITION\n\n1.1 Terms have the meanings given here.\n\n"
        "ARTICLE TWO TERM\n\n2.1 The term is two years.\n\n2.2 It may be renewed.\n\n"
        "Chapter 3 Cooperation Term\n\n3.1 The parties cooperate for the term.\n\n"
        "Chapter 11 of the Bankruptcy Code applies to neither party."
    )
    assert labels(text)[3:] == [
        "Article One",
        "1.1",
        "Article Two",
        "2.1",
        "2.2",
        "Chapter 3",
        "3.1",
    ]
    assert "Bankruptcy Code" in sections(text)[-1].text


def test_a_numbered_entry_term_colon_means_is_titled_by_its_term():
    """ "1.1.1 PRC Laws: means any law ...": the term titles the entry and its text is the
    meaning, so the entry reads as a headed definition of its own section."""
    text = (
        "COOPERATION AGREEMENT\n\nChapter 1 Definitions and Interpretations\n\n1.1 Definitions\n\n"
        "1.1.1 PRC Laws: means any present and future laws of the PRC.\n\n"
        "1.1.2 Trade Secrets: means any information owned by a party.\n\n"
        "1.1.3 Notice: All notices shall be in writing."
    )
    found = sections(text)
    assert [(s.label, s.heading) for s in found][3:5] == [
        ("1.1.1", "PRC Laws"),
        ("1.1.2", "Trade Secrets"),
    ]
    assert found[3].text.startswith("means any present and future laws")
    assert found[5].text.startswith("Notice: All notices")  # no meaning: the text keeps it


def test_a_dotted_number_one_on_ending_a_line_opens_a_section_when_the_next_paragraph_follows():
    """ "7.3" ran in after a word with no full stop; "7.4" after the next sentence ends the
    line, and the next paragraph opens with "7.5": the numbering goes on across the line."""
    text = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made between the Buyer and the Supplier.\n\n"
        "6. Term. The term is two years. 7 Confidential Information 7.1 Each party keeps the "
        "other's information secret. "
        "7.2 Information does not include what was received from a third Party 7.3 The "
        "Parties recognize its value. 7.4 The recipient "
        "Party shall protect it.\n\n7.5 The recipient Party may disclose it to its advisers."
    )
    assert labels(text)[1:] == ["6", "7", "7.1", "7.2", "7.4", "7.5"]
    # a paragraph that opens with no number is no evidence
    other = text.replace("7.5 The recipient", "The recipient")
    assert "7.4" not in labels(other)
