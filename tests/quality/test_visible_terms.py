"""The corpus audit's own finder of visibly defined terms (quality.visible_terms)."""

import pytest

from raag_assets.quality.visible_terms import fold, visible_definitions


@pytest.mark.parametrize(
    ("text", "term", "form"),
    [
        ('1.2 "Business Day" means any weekday.', "Business Day", "means"),
        ('"Net Sales" shall have the meaning set out below.', "Net Sales", "means"),
        ('"Affiliate" refers to any entity.', "Affiliate", "means"),
        ('Acme Inc. (the "Supplier") and', "Supplier", "parenthesis"),
        ('Acme Inc. (hereinafter "Acme") and', "Acme", "parenthesis"),
        ('dated May 1, 2020 (the "Effective Date")', "Effective Date", "parenthesis"),
        ('costs (collectively, the "Costs");', "Costs", "parenthesis"),
        ('is referred to herein as the "Buyer".', "Buyer", "referred"),
        ('(xxv) "SHIPMENT DATE" - the date of delivery', "SHIPMENT DATE", "entry"),
        ('"Affiliate": any entity it controls', "Affiliate", "entry"),
        ("1.1.2 Trade Secrets: means any technical information", "Trade Secrets", "headed"),
    ],
)
def test_finds_a_definition(text: str, term: str, form: str) -> None:
    found = visible_definitions(text)
    assert [(v.term, v.form) for v in found] == [(term, form)]


@pytest.mark.parametrize(
    "text",
    [
        'Section 6.0 ("Payment") of the Agreement is amended.',  # a section's title
        'The word "Title" is set in capitals.',
        '"software" means the programs.',  # not capitalised
        "(3) three days",
        'He said "Stop" and left.',
    ],
)
def test_finds_nothing(text: str) -> None:
    assert visible_definitions(text) == []


def test_first_place_only() -> None:
    found = visible_definitions('Acme (the "Seller") ... "Seller" means Acme.')
    assert [(v.term, v.form) for v in found] == [("Seller", "parenthesis")]


def test_fold() -> None:
    assert fold("CUSTOMER(S)") == "customer"
    assert fold("Mid\xadTier") == "midtier"
    assert fold('the "Agreement,"') == "agreement"
