"""A document's one effective date: stated phrases, precision, and the human CUAD answers for
the eight dev contracts; the date forms of a section as rules whose ids their edges carry."""

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from raag_assets.graph.dates import date_edges, document_effective_date
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


def test_effective_dates_of_the_dev_contracts_match_cuad():
    rows = [json.loads(x) for x in (DEV_LEGAL / "cuad_labels.jsonl").read_text().splitlines()]
    assert len(rows) == 8
    right = []
    for row in rows:
        answer = row["Effective Date"]["answer"] or row["Agreement Date"]["answer"]
        year, day = _cuad(answer)
        doc = parse_file(DEV_LEGAL / "contracts" / row["file"], 50_000_000)
        found = doc.effective
        ok = found is not None and (found.date == day if day else found.date.year == year)
        right.append(ok)
        if day is None and found is not None:
            assert found.precision == "year"  # a blank day is not made up
    assert sum(right) == 8


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
