"""The CUAD measure: a fixed split, and answers compared to the precision CUAD gives."""

import datetime as dt

from raag_assets.quality import cuad


def test_the_split_is_fixed_and_about_half() -> None:
    names = [f"contract-{n}.txt" for n in range(400)]
    parts = [cuad.part_of(n) for n in names]
    assert parts == [cuad.part_of(n) for n in names]  # a rule, not a draw
    assert 150 < parts.count(cuad.SCORED) < 250


def test_dates_match_to_the_precision_cuad_gives() -> None:
    day = cuad.cuad_date("5/8/14")
    assert day == cuad.CuadDate(2014, 5, 8)
    assert day.matches(dt.date(2014, 5, 8)) and not day.matches(dt.date(2014, 8, 5))
    year = cuad.cuad_date("[]/[]/1999")
    assert year == cuad.CuadDate(1999, None, None) and year.matches(dt.date(1999, 7, 1))
    assert cuad.cuad_date("") is None and cuad.cuad_date("upon execution") is None
    assert not day.matches(None)


def test_names_and_parties() -> None:
    assert cuad.name_matches("MARKETING AFFILIATE AGREEMENT", "Marketing Affiliate Agreement")
    assert not cuad.name_matches("MARKETING AFFILIATE AGREEMENT", "Supply Agreement")
    parties = cuad.cuad_parties(
        'Birch First Global Investments Inc. ("Company"); Mount Kowledge Holdings Inc. ("MA")'
    )
    assert parties == ["Birch First Global Investments Inc.", "Mount Kowledge Holdings Inc."]
    assert cuad.parties_match(
        parties, ["BIRCH FIRST GLOBAL INVESTMENTS INC", "Mount Kowledge Holdings"]
    )
    assert not cuad.parties_match(parties, ["Birch First Global Investments Inc."])
    # semicolons inside brackets or parentheses part no entries; an answer set in
    # parentheses as a whole is read inside them
    assert cuad.cuad_parties(
        'Acme Ltd ("Acme"); Beta Ltd ("Beta"), solely for Section 1(c) [Confidentiality; '
        "Non-solicitation]"
    ) == ["Acme Ltd", "Beta Ltd , solely for Section 1 [Confidentiality; Non-solicitation]"]
    assert cuad.cuad_parties('(Acme Inc. (the "Company"); Beta LLC ("Beta"))') == [
        "Acme Inc.",
        "Beta LLC",
    ]


def test_the_parties_named_one_by_one() -> None:
    """CUAD's entries that name the parties together ("Lender, Endorser and Fitness", each named
    on its own elsewhere in the answer) or no one ('each a "Party"') are no party; a company
    form after a comma is part of its name."""
    answer = (
        'Acme Lending, LLC ("Lender"); Jane Roe ("Endorser"); Fitness Media, Inc. ("Fitness"); '
        'Lender, Endorser and Fitness ("AS Parties"); Beta Corp. ("Beta"); Acme and Beta (each a '
        '"Party")'
    )
    assert cuad.named_parties(answer) == [
        "Acme Lending, LLC",
        "Jane Roe",
        "Fitness Media, Inc.",
        "Beta Corp.",
    ]


def test_look_half_splits_the_look_half_about_evenly() -> None:
    names = [f"contract-{i}.txt" for i in range(400)]
    look = [n for n in names if cuad.part_of(n) == cuad.LOOK]
    a = [n for n in look if cuad.look_half(n) == "A"]
    assert 0.35 < len(a) / len(look) < 0.65
    assert {cuad.look_half(n) for n in look} == {"A", "B"}
