"""The terms a contract visibly defines, found without raag's extractor (graph.definitions), so
the corpus audit can check how many of them raag gives a `defines` edge.

Deliberately simple and precise rather than complete: a quoted term that starts with a capital,
in one of a few defining frames, over the raw text of the file (not raag's sections):

- means:        "X" means / shall mean / will mean / refers to / has the meaning ...
- parenthesis:  (the "X"), ("X"), (hereinafter "X"), (collectively, the "X"), (each a "X"),
                not after a number ('Section 6.0 ("Payment")': a section's title)
- referred:     ... referred to [herein] as [the] "X"
- entry:        a definitions-list entry at the start of a line: "X": ..., (a) "X" - ...
- headed:       a line opened by a term and a stop, then its meaning: X. means ..., "X". means
"""

import re
from dataclasses import dataclass

# a quoted capitalised term of at most six words, no quote or line break inside
_TERM = r"[\"“](?P<term>[A-Z0-9][^\"“”\n]{0,58}?)[,.]?[\"”]"
_ARTICLE = r"(?:(?i:the|a|an)\s+)?"

FORMS: dict[str, re.Pattern[str]] = {
    "means": re.compile(
        rf"{_TERM}\s*,?\s*(?:(?:shall|will|also)\s+)?(?:means?\b|refers?\s+to\b|"
        r"(?:shall\s+|will\s+)?(?:has|have)\s+the\s+meanings?\b)"
    ),
    "parenthesis": re.compile(
        r"\(\s*(?i:(?:hereinafter|hereafter)\s+(?:(?:referred\s+to|called)\s+as\s+)?)?"
        r"(?i:(?:collectively|together|each|individually|jointly)\s*,?\s*)?"
        rf"{_ARTICLE}{_TERM}\s*[),;]"
    ),
    "referred": re.compile(rf"\b(?i:referred\s+to\s+(?:[\w,]+\s+){{0,4}}?as)\s+{_ARTICLE}{_TERM}"),
    "entry": re.compile(
        rf"^[ \t]*(?:\(?(?:[a-z]{{1,2}}|[ivx]{{1,5}}|\d{{1,3}}(?:\.\d{{1,3}})*)[.)]?[ \t]+)?"
        rf"{_TERM}[ \t]*(?::|-{{1,2}}|–|—)[ \t]+\S",
        re.MULTILINE,
    ),
    "headed": re.compile(
        r"^[ \t]*(?:\(?(?:[a-z]{1,2}|[ivx]{1,5}|\d{1,3}(?:\.\d{1,3})*)[.)]?[ \t]+)?[\"“]?"
        r"(?P<term>[A-Z][\w'&/-]*(?:[ \t]+(?:[A-Z][\w'&/-]*|of|or|and|the|for|to|in|on)){0,5})"
        r"[\"”]?[ \t]*[.:][\"”]?[ \t]+(?:means|shall\s+mean|refers\s+to)\b",
        re.MULTILINE,
    ),
}


# a section's title after its number is no definition: 'Section 6.0 ("Payment") is amended'
_SECTION_BEFORE = re.compile(r"(?i)\b(?:section|article|clause|paragraph)\s+[\d.]+\s*$")


@dataclass(frozen=True)
class Visible:
    term: str
    form: str  # the key of FORMS that found it
    position: int
    snippet: str  # the text around it, on one line, for reading a miss


def fold(term: str) -> str:
    """How a term is compared: case-folded, without a leading article, quotes or stops."""
    # a soft hyphen is invisible (the parser drops it); "Product(s)" is the term "Product"
    term = re.sub(r"(?i)(?<=\w)\((?:s|es)\)$", "", term.replace("\xad", "").strip())
    term = re.sub(r"^(?:the|a|an)\s+", "", term.strip("\"“”'’ ,.;:"), flags=re.IGNORECASE)
    term = term.strip("\"“”'’ ,.;:")
    return " ".join(term.casefold().split())


def visible_definitions(text: str) -> list[Visible]:
    """The first place each term is visibly defined, in the order of the text."""
    first: dict[str, Visible] = {}
    for form, pattern in FORMS.items():
        for m in pattern.finditer(text):
            term = " ".join(m.group("term").split()).strip(" ,.")
            key = fold(term)
            if not key or len(key.split()) > 6 or not re.match(r"[a-z]", key):
                continue  # "(1)", "($)": a number or a sign, no term
            if form == "parenthesis" and _SECTION_BEFORE.search(
                text[max(0, m.start() - 30) : m.start()]
            ):
                continue
            at = m.start("term")
            if key not in first or at < first[key].position:
                snippet = " ".join(text[max(0, at - 80) : at + 100].split())
                first[key] = Visible(term, form, at, snippet)
    return sorted(first.values(), key=lambda v: v.position)
