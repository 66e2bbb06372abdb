"""How extracted phrases are compared: terms by `term_key`, scopes by `normalize_scope`.
Retrieval matches scopes with the same function the extraction rules wrote them with."""

import re

from raag_assets.graph.lexicon import PEOPLE_SINGULAR


def term_key(term: str) -> str:
    """How terms are compared: case-folded, without a leading article or quotes."""
    term = re.sub(r"^(?:the|a|an)\s+", "", term.strip().strip("“”\"'"), flags=re.IGNORECASE)
    return " ".join(term.casefold().split())


def normalize_scope(scope: str) -> str:
    """'all Full-Time Employees' -> 'full-time employee'."""
    phrase = re.sub(r"^(?:all|every|any|to)\s+", "", scope.strip(), flags=re.IGNORECASE)
    words = phrase.casefold().split()
    # the head noun, before any place it is qualified by ("customers located in the EU")
    return " ".join(PEOPLE_SINGULAR.get(w, w) for w in words)


def split_scopes(scope: str) -> list[str]:
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?(?:to\s+)?|\s+(?:and|or)\s+(?:to\s+)?", scope)
    return [p for p in (normalize_scope(x) for x in parts) if p]
