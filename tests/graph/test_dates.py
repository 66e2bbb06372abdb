"""A document's one effective date: stated phrases, precision, and the human CUAD answers for
the eight dev contracts; the date forms of a section as rules whose ids their edges carry."""

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from raag_assets.graph.dates import (
    calendar_limits,
    date_edges,
    document_dates,
    document_effective_date,
    document_name,
    find_dates,
)
from raag_assets.ingest.parsing import parse_file
from tests.conftest import DEV_LEGAL
from tests.graph._texts import licence, policy, rule_ids


@pytest.mark.parametrize(
    ("text", "date", "precision"),
    [
        ("Leave Policy\n\nEffective date: March 3, 2021\n\n1. Scope", dt.date(2021, 3, 3), "day"),
        ("GNU GENERAL PUBLIC LICENSE\nVersion 3, 29 June 2007", dt.date(2007, 6, 29), "day"),
        ("Apache License\nVersion 2.0, January 2004", dt.date(2004, 1, 1), "month"),
        (
            "This Agreement is effective as of 1 July 2022 between A and B.",
            dt.date(2022, 7, 1),
            "day",
        ),
        ("THIS AGREEMENT is made and entered into on May 5, 2015 by", dt.date(2015, 5, 5), "day"),
        (
            "THIS AGREEMENT dated for reference the 5th day of December 2008.",
            dt.date(2008, 12, 5),
            "day",
        ),
        ('This Agreement, dated as of [___], 2020 (the "Agreement")', dt.date(2020, 1, 1), "year"),
        ("This Services Agreement is entered into as of 3/15/2019 by", dt.date(2019, 3, 15), "day"),
        # the date named as the Effective Date wins over an earlier dated reference
        (
            "Under the Supply Agreement dated as of June 1, 2010, the parties, effective "
            'June 30, 2012 (the "Effective Date"), agree',
            dt.date(2012, 6, 30),
            "day",
        ),
        (
            "Network Working Group\nRequest for Comments: 3501\nObsoletes: 2060     March 2003",
            dt.date(2003, 3, 1),
            "month",
        ),
    ],
)
def test_stated_effective_dates(text: str, date: dt.date, precision: str):
    found = document_effective_date(text.splitlines())
    assert found is not None
    assert (found.date, found.precision) == (date, precision)
    assert re.sub(r"\s+", " ", found.evidence) in re.sub(r"\s+", " ", text)


def test_no_date_no_effective_date():
    assert document_effective_date(["Travel Rules", "", "Staff travel second class."]) is None
    # 2060 is an RFC number, not a day: "60 March 2003" is no date
    found = document_effective_date(["Obsoletes: 2060 March 2003"])
    assert found is not None and found.date == dt.date(2003, 3, 1)


def _cuad(answer: str) -> tuple[int, dt.date | None]:
    month, day, year = answer.split("/")
    year_n = int(year) + (2000 if int(year) < 50 else 1900) if len(year) == 2 else int(year)
    if "[]" in (month, day):
        return year_n, None
    return year_n, dt.date(year_n, int(month), int(day))


def test_dates_of_the_dev_contracts_match_cuad():
    """The effective date against CUAD's Effective Date, the agreement date (else the one
    date stated) against its Agreement Date; a blank day is not made up."""
    rows = [json.loads(x) for x in (DEV_LEGAL / "cuad_labels.jsonl").read_text().splitlines()]
    assert len(rows) == 8
    right = []
    for row in rows:
        doc = parse_file(DEV_LEGAL / "contracts" / row["file"], 50_000_000)
        for category, found in (
            ("Effective Date", doc.effective),
            ("Agreement Date", doc.agreement or doc.effective),
        ):
            if not row[category]["answer"]:
                continue
            year, day = _cuad(row[category]["answer"])
            ok = found is not None and (found.date == day if day else found.date.year == year)
            right.append(ok)
            if day is None and found is not None:
                assert found.precision == "year"  # a blank day is not made up
    assert all(right) and len(right) == 12


@pytest.mark.parametrize(
    ("text", "effective", "agreement"),
    [
        # both stated: kept apart, as CUAD's Effective Date and Agreement Date
        (
            "This Services Agreement is entered into on October 1, 2024 and is made effective "
            'as of November 1, 2024 (the "Effective Date") by and between A and B.',
            (dt.date(2024, 11, 1), "day"),
            (dt.date(2024, 10, 1), "day"),
        ),
        # a blank day keeps the month: never the 1st of January
        (
            "THIS AGREEMENT is made this [ ] day of May, 2014 between A and B.",
            None,
            (dt.date(2014, 5, 1), "month"),
        ),
        ("This Lease is dated November ___, 2006.", None, (dt.date(2006, 11, 1), "month")),
        (
            "This Reseller Agreement is entered as of this ___ day of _________, 2004 by A.",
            None,
            (dt.date(2004, 1, 1), "year"),
        ),
        (
            "MARKETING AGREEMENT made and entered into this 8th day of May 2014 by A and B.",
            None,
            (dt.date(2014, 5, 8), "day"),
        ),
        # an amendment dates itself, not the agreement it amends
        (
            "Amendment No. 2 to the Supply Agreement dated as of June 1, 2010. This Amendment "
            "is made as of March 3, 2015 by the parties to the Supply Agreement.",
            None,
            (dt.date(2015, 3, 3), "day"),
        ),
        # the date line of a title block
        (
            "AGENCY AGREEMENT\nMay 14, 2014\nLadies and Gentlemen:",
            None,
            (dt.date(2014, 5, 14), "day"),
        ),
        # the commencement of the term is when the document takes effect
        (
            'This Lease is made on March 2, 2020. The term of this Lease (the "Term") shall '
            "commence on April 1, 2020.",
            (dt.date(2020, 4, 1), "day"),
            (dt.date(2020, 3, 2), "day"),
        ),
        (
            "The Effective Date of this Agreement shall be: Sept 29, 2004",
            (dt.date(2004, 9, 29), "day"),
            None,
        ),
        # effective on the last signature: the latest date of the signature block (and, with
        # no date stated, the date it bears)
        (
            "SERVICES AGREEMENT dated May 30, 2019. This Agreement is effective as of the last "
            'date signed below (the "Effective Date").\n1. Services. Vendor shall perform.\n'
            "IN WITNESS WHEREOF the parties have signed this Agreement.\nACME INC. By: /s/ J. "
            "Roe Date: 6/9/2019\nBETA LLC By: /s/ K. Poe Date: 6/2/2019",
            (dt.date(2019, 6, 9), "day"),
            (dt.date(2019, 5, 30), "day"),
        ),
        # a short year written day first, as a signatory abroad dates it
        (
            '"Effective Date" means the date on which the last Party signs this Agreement.\n'
            + "Each Party shall perform its obligations.\n" * 12
            + "IN WITNESS WHEREOF: Signature /s/ A. Lee Date 14/03/07",
            (dt.date(2007, 3, 14), "day"),
            (dt.date(2007, 3, 14), "day"),
        ),
        # "as of the date last written below": the later of the two dates below
        (
            'This Agreement is entered into as of the date last written below ("the Effective '
            'Date").\nIN WITNESS WHEREOF, the parties have signed.\nSeller By: /s/ A. Roe '
            "Date: 1/19/07 Buyer By: /s/ B. Poe Date: January 22, 2007",
            (dt.date(2007, 1, 22), "day"),
            (dt.date(2007, 1, 22), "day"),
        ),
        # a short year in the opening's own effective phrase
        (
            'DISTRIBUTOR AGREEMENT\nThis Agreement is effective 7/1/98 ("Effective Date") '
            "between Acme and Beta.",
            (dt.date(1998, 7, 1), "day"),
            None,
        ),
        # no date stated: the document bears the date its last party signed it
        (
            "ENDORSEMENT AGREEMENT\nThe Company engages the Athlete to endorse its products.\n"
            + "The Athlete shall appear at two events.\n" * 12
            + "IN WITNESS WHEREOF, the Parties execute this Agreement.\n/s/ G. Roe 5/17/12 "
            "Date /s/ H. Poe 5/14/12 Date",
            None,
            (dt.date(2012, 5, 17), "day"),
        ),
        # an Effective Date defined as an event, the date it fell on in the same sentence;
        # a date "for reference purposes"; another document's date is not this one's
        (
            "THIS AGREEMENT, dated for reference purposes as of July 12, 1999, is made under "
            "that certain Consent to Assignment and Amendment of Use Agreement dated January 7, "
            "1997.\nEFFECTIVE DATE shall mean the date of installation of the system at the "
            "site, i.e. December 10, 1998.",
            (dt.date(1998, 12, 10), "day"),
            (dt.date(1999, 7, 12), "day"),
        ),
        # an employment agreement: the appointment begins on its effective date
        (
            "THIS AGREEMENT is made on 1 October 2019 between Acme Ltd and Jane Doe.\n"
            "2.1 The Appointment will begin on 27 January 2020 or such other date as agreed.",
            (dt.date(2020, 1, 27), "day"),
            (dt.date(2019, 10, 1), "day"),
        ),
        # signature dates written with dashes: the document bears the later one
        (
            "SUPPLY AGREEMENT\nAcme supplies Beta.\n"
            + "Beta pays within thirty days.\n" * 12
            + "IN WITNESS WHEREOF, the parties have executed this Agreement as of the last date "
            "below.\nACME INC. BETA LLC\nDate: 3-29-2016 Date: 3-31-16",
            None,
            (dt.date(2016, 3, 31), "day"),
        ),
        # effective once both parties sign; signatures dated but for their day date it to
        # the month; another document's date, its parties between its name and its date
        (
            "DEVELOPMENT AGREEMENT\nThis Agreement refers to the Supply Agreement between Acme "
            "Inc. and Beta LLC dated as of April 8, 1993.\n7.1 This Agreement will be effective "
            "when signed by both Parties.\nIN WITNESS WHEREOF, the Parties have signed.\n"
            "Rockaway, April ____, 2003 Ballerup, April ____, 2003",
            (dt.date(2003, 4, 1), "month"),
            (dt.date(2003, 4, 1), "month"),
        ),
        # a form's fields: the contract's start, not its end; a dashed date after another
        # field's label is no signature's
        (
            "CONTENT LICENSE AGREEMENT\nSignature: /s/ A. Roe\n2 TERMS\n"
            "2.1 Contract start: 04-01-06\n2.2 Contract end: 04-01-08",
            (dt.date(2006, 4, 1), "day"),
            None,
        ),
        # a joint venture the document forms commences on a date
        (
            "JOINT VENTURE AGREEMENT\n8. Term. The Joint Venture shall commence on the 1st of "
            "March, 2003, and shall be effective until February 28, 2004.",
            (dt.date(2003, 3, 1), "day"),
            None,
        ),
        # no signature date to take: no effective date is made up
        (
            "This Agreement is effective as of the last date signed below.\n"
            "IN WITNESS WHEREOF: By: ________ Date: ________",
            None,
            None,
        ),
    ],
)
def test_effective_and_agreement_dates_apart(
    text: str, effective: tuple[dt.date, str] | None, agreement: tuple[dt.date, str] | None
):
    found = document_dates(text.splitlines())
    for date, expected, kind in (
        (found.effective, effective, "effective"),
        (found.agreement, agreement, "agreement"),
    ):
        assert (date.date, date.precision) == expected if date else expected is None
        assert date is None or date.kind == kind
    assert found.one == (found.effective or found.agreement)


def test_a_date_in_a_clause_or_of_another_document_dates_no_document():
    """Past the opening, "effective from" dates a clause unless the document is its subject;
    "the Supply Agreement dated as of" dates another document."""
    filler = "The parties shall cooperate in good faith. " * 300
    text = "SUPPLY AGREEMENT\n" + filler + "New prices are effective from March 1, 2021."
    assert document_dates(text.splitlines()).one is None
    text = "Under the Supply Agreement dated as of June 1, 2010, the parties agree as follows."
    assert document_dates([text]).one is None
    text = "Under the Supply Agreement between Acme Inc. and Beta LLC dated as of June 1, 2010."
    assert document_dates([text]).one is None
    # past the opening, a sentence whose subject is the document itself
    text = "SUPPLY AGREEMENT\nJuly 20, 2018\n" + filler + "This letter agreement will be "
    found = document_dates((text + "effective as of July 1, 2018.").splitlines())
    assert found.effective and found.effective.date == dt.date(2018, 7, 1)
    assert found.agreement and found.agreement.date == dt.date(2018, 7, 20)
    # "It" after a sentence whose subject is the document; another document's date first
    text = (
        "SUPPLY AGREEMENT\n" + filler + "This contract replaces the annex of the original "
        "License Contract, made effective on 06 April 1998. It shall be effective on 06 October "
        "2000 and shall have a duration of two years."
    )
    found = document_dates(text.splitlines())
    assert found.effective and found.effective.date == dt.date(2000, 10, 6)
    text = filler + "The Services begin soon. It shall be effective on 06 October 2000."
    assert document_dates(text.splitlines()).one is None
    # a document dated only in its closing words
    text = "SUPPLY AGREEMENT\n" + filler + "This Agreement is dated April 29, 2010."
    found = document_dates(text.splitlines())
    assert found.agreement and found.agreement.date == dt.date(2010, 4, 29)


@pytest.mark.parametrize(
    ("lines", "name"),
    [
        (
            ["Exhibit 10.27", "MARKETING AFFILIATE AGREEMENT", "Between:", "Acme Inc.", "And"],
            "MARKETING AFFILIATE AGREEMENT",
        ),
        # a title that adds its maker's name before the name the document gives itself
        (
            ["NORTHWIND TRADING INC. SUPPLY AGREEMENT", 'This Supply Agreement ("Agreement") is'],
            "SUPPLY AGREEMENT",
        ),
        (["Exhibit 99.1", "Strategic Alliance Agreement", "AGREEMENT made as of"], None),
        (['This Reseller Agreement (the "Agreement") is entered into by A and B.'], None),
        # a legend before the title on the same (flattened) line
        (
            [
                "EXHIBIT 10.2 CERTAIN PORTIONS OF THIS EXHIBIT HAVE BEEN OMITTED. "
                "DISTRIBUTION AGREEMENT This Distribution Agreement is made by A and B."
            ],
            "DISTRIBUTION AGREEMENT",
        ),
        (["AMENDMENT NO. 3 TO THE VALUE ADDED RESELLER AGREEMENT", "This Amendment No. 3"], None),
        # a title in title case after a legend's sentences on the same line
        (
            [
                "Exhibit 10.1 CERTAIN PORTIONS OF THIS EXHIBIT HAVE BEEN OMITTED. Execution "
                "Version Network Services Agreement Between Northwind LLC And Blue River LLC"
            ],
            "Network Services Agreement",
        ),
        (["Travel Rules", "", "Staff travel second class."], None),
        # a cover page before the title: the first agreement's name further on; a heading
        # there is no name
        (
            [f"Northwind Holdings Ltd, Report {n}" for n in range(10)]
            + ["DISTRIBUTION AGREEMENT", "1. Appointment"],
            "DISTRIBUTION AGREEMENT",
        ),
        ([f"Northwind Holdings Ltd, Report {n}" for n in range(10)] + ["PAYMENT TERMS"], None),
        # a title in title case that begins with what the document is, before a quoted
        # short name; before what the agreement is about; a contract's number is no title
        (
            [
                'Exhibit 10.14 License and Development Agreement "Agreement" between Acme AG and '
                "Beta S.A."
            ],
            "License and Development Agreement",
        ),
        (
            [
                "Exhibit 10.47 Cooperation Agreement of the Solar Power Project in Northwind "
                "County Party A: Northwind County Party B: Blue River Energy Co., Ltd."
            ],
            "Cooperation Agreement",
        ),
        (["Contract No. 017 between Acme and Beta"], None),
        # a schedule issued under an agreement names itself
        (
            ["SCHEDULE A", "This Product License Schedule is issued under the Supply Agreement."],
            "Product License Schedule",
        ),
    ],
)
def test_the_document_names_itself(lines: list[str], name: str | None):
    expected = {
        "Strategic Alliance Agreement": "Strategic Alliance Agreement",
        "AGREEMENT made as of": "Strategic Alliance Agreement",
        "This Reseller Agreement": "Reseller Agreement",
        "This Amendment No. 3": "AMENDMENT NO. 3 TO THE VALUE ADDED RESELLER AGREEMENT",
    }
    wanted = name or next((v for k, v in expected.items() if any(k in t for t in lines)), None)
    assert document_name(lines) == wanted


def test_a_title_without_the_parties_names_set_before_it():
    """Each party's name a title sets before the document's name is left out, not only the
    first ('ACME - BETA CO-BRANDING AGREEMENT')."""
    lines = ["ACME - BETA CO-BRANDING AGREEMENT", "This agreement is entered into by the parties."]
    assert document_name(lines, ["Acme", "Beta"]) == "CO-BRANDING AGREEMENT"
    assert document_name(lines, ["Acme"]) == "BETA CO-BRANDING AGREEMENT"


def test_every_date_edge_names_its_form(tmp_path: Path) -> None:
    """A policy's effective date, period, open-ended limit and whole year: each edge carries
    its form's id ("Receipts dated prior to ..." dates receipts: no limit)."""
    edges = [e for s in policy(tmp_path) for e in date_edges(s)]
    assert rule_ids(edges) == {
        "effective_on.effective_from",
        "applies_to.period",
        "applies_to.calendar_limit",
        "applies_to.whole_year",
    }
    assert sorted((e.rule, e.normalized_target) for e in edges) == [
        ("applies_to.calendar_limit", "/2025-03-31"),
        ("applies_to.period", "2021-01-01/2023-12-31"),
        ("applies_to.whole_year", "2024-01-01/2024-12-31"),
        ("effective_on.effective_from", "2025-03-01"),
    ]
    # a licence's calendar limit ("prior to 28 March 2007")
    assert rule_ids(e for s in licence("GPL-3") for e in date_edges(s)) == {
        "applies_to.calendar_limit"
    }


@pytest.mark.parametrize(
    ("line", "effective", "agreement"),
    [
        (
            "This Agreement, with an effective date of March 1, 2003, is between A and B.",
            dt.date(2003, 3, 1),
            None,
        ),
        (
            "This Agreement has been concluded on 1 March 2003 between A and B.",
            None,
            dt.date(2003, 3, 1),
        ),
        ("As of March 1, 2003, Acme and Beta agree as follows.", None, dt.date(2003, 3, 1)),
        (
            'This Supply Agreement ("Agreement") commences on March 1, 2003.',
            dt.date(2003, 3, 1),
            None,
        ),
        # day first with dots, as contracts drafted outside the US date them
        ("This Agreement is made on 12.03.2015 between A and B.", None, dt.date(2015, 3, 12)),
        # "as of" dating something else in the opening dates no document
        (
            "Shares offered to depositors of the Bank as of February 28, 2013 (the Holders).",
            None,
            None,
        ),
    ],
)
def test_general_forms_of_a_documents_dates(
    line: str, effective: dt.date | None, agreement: dt.date | None
):
    found = document_dates(["SUPPLY AGREEMENT", line])
    assert (found.effective.date if found.effective else None) == effective
    assert (found.agreement.date if found.agreement else None) == agreement


@pytest.mark.parametrize(
    ("lines", "name"),
    [
        (["ACCORD DE COOPÉRATION AGREEMENT"], "ACCORD DE COOPÉRATION AGREEMENT"),
        (
            ["ÉNERGIE DU NORD SUPPLY AGREEMENT", "This Agreement is made between"],
            "ÉNERGIE DU NORD SUPPLY AGREEMENT",
        ),
    ],
)
def test_a_name_in_accented_capitals(lines: list[str], name: str):
    assert document_name(lines) == name


def test_a_date_forms_needed_words_are_in_every_text_it_matches():
    """_stated_effective skips a form where its needed words are missing: each form's examples,
    and every match of it in the dev contracts' opening text, hold them."""
    from raag_assets.graph import dates

    heads = [
        dates._head([ln.text for ln in parse_file(path, 50_000_000).lines])
        for path in sorted((DEV_LEGAL / "contracts").iterdir())
    ]
    forms = {f.id: f for f in (dates.DEFINED_EFFECTIVE, dates.TERM_COMMENCES)}
    assert set(forms) == set(dates._NEEDS)
    matched = 0
    for form_id, need in dates._NEEDS.items():
        assert forms[form_id].examples
        for text in [*forms[form_id].examples, *heads]:
            for m in forms[form_id].finditer(text):
                matched += 1
                assert need.search(m.group()), (form_id, m.group())
    assert matched > len(dates._NEEDS)


def test_a_deadline_with_its_hour_and_time_zone_is_a_calendar_limit() -> None:
    text = (
        "The order must reach the Seller no later than 5:00PM June 1, 2001, and the deposit "
        "not later than 4:30 p.m., Central European Time, on June 8, 2001. The notice is "
        "sent in no event later than July 2, 2001. Lunch is served after 1:00 p.m. daily."
    )
    assert [(c.text, c.date_from, c.date_to) for c in calendar_limits(text)] == [
        ("no later than 5:00PM June 1, 2001", None, dt.date(2001, 6, 1)),
        (
            "not later than 4:30 p.m., Central European Time, on June 8, 2001",
            None,
            dt.date(2001, 6, 8),
        ),
        ("in no event later than July 2, 2001", None, dt.date(2001, 7, 2)),
    ]


def test_another_documents_date_after_its_parties_or_made_is_not_this_ones() -> None:
    lines = [
        "SERVICES AGREEMENT",
        "This Agreement is made by Acme Ltd. and Beta Ltd. (the Parties).",
        '"Master Agreement" means the Master Agreement entered into by and between Acme '
        "(Asia) Ltd. and Beta Ltd., dated as of May 2, 2008.",
    ]
    assert document_effective_date(lines) is None
    text = (
        "This annex is part of the original Supply Contract, made effective on 6 April 1998. "
        "It shall be effective on 6 October 2000."
    )
    assert [d.date_from for d in find_dates(text)] == [dt.date(2000, 10, 6)]
