"""uses_term: sections that use a term defined elsewhere in the tenant."""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from raag_assets.graph.model import Edge, SectionInfo


@dataclass(frozen=True)
class Term:
    key: str  # term_key(): case-folded, no article
    term: str  # as defined
    doc_id: str
    section_id: str


def term_pattern(term: str) -> re.Pattern[str]:
    """Capitalised terms ("Leave Year", "Program") match with their capitals, as drafted;
    lower-case ones ("covered work", "convey") in any case, with plural and verb endings. A
    multi-word term capitalised only because a sentence began with it ("Object code") is a
    lower-case term."""
    words = re.sub(r"^(?:the|a|an)\s+", "", term, flags=re.IGNORECASE).split()
    if (
        len(words) > 1
        and words[0][:1].isupper()
        and " ".join(words)[1:] == " ".join(words)[1:].lower()
    ):
        words[0] = words[0].lower()
    # "This License" and "this License" are one term: a demonstrative takes either case
    first_any_case = words[0].lower() in ("this", "these", "that")
    *head, last = words
    last_re = _inflected(last) if last.islower() and last.isalpha() else _plural(last)
    parts = [*(re.escape(w) for w in head), last_re]
    if first_any_case:
        parts[0] = f"(?i:{parts[0][0]}){parts[0][1:]}"
    body = r"\s+".join(parts)
    flags = 0 if any(c.isupper() for c in " ".join(words)) else re.IGNORECASE
    return re.compile(rf"(?<![\w-]){body}(?![\w-])", flags)


def _inflected(word: str) -> str:
    """A lower-case word with its plural and verb endings: convey(s|ed|ing), modif(y|ies|ied)."""
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return re.escape(word[:-1]) + r"(?:y|ies|ied|ying)"
    if word.endswith("e"):
        return re.escape(word[:-1]) + r"(?:e|es|ed|ing)"
    return re.escape(word) + r"(?:s|es|ed|ing)?"


def _plural(word: str) -> str:
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return re.escape(word[:-1]) + r"(?:y|ies)"
    return re.escape(word) + r"s?"


def term_uses(
    sections: Sequence[SectionInfo],
    terms: Sequence[Term],
    related_docs: dict[str, set[str]],
    superseded: set[str],
) -> list[Edge]:
    """One uses_term edge per (section, term), to the section that defines the term.

    A term's definition is looked for in the using section's own document first, then in
    documents it references, then (for multi-word capitalised terms only, which do not occur
    by accident) anywhere in the tenant, preferring documents not superseded.
    """
    by_key: dict[str, list[Term]] = {}
    for t in terms:
        by_key.setdefault(t.key, []).append(t)
    patterns: dict[str, re.Pattern[str]] = {}  # by definition: each is matched as it is drafted
    edges = []
    for s in sections:
        for key in sorted(by_key):
            definition = _definition_for(s, by_key[key], related_docs, superseded)
            if definition is None or definition.section_id == s.section_id:
                continue
            if any(t.section_id == s.section_id for t in by_key[key]):
                continue  # the section defines it itself
            if definition.term not in patterns:
                patterns[definition.term] = term_pattern(definition.term)
            m = patterns[definition.term].search(s.text)
            if m is None:
                continue
            edges.append(
                Edge(
                    "uses_term",
                    layer=1,
                    src_doc_id=s.doc_id,
                    src_section_id=s.section_id,
                    matched_text=m.group(0),
                    normalized_target=key,
                    confidence=1.0 if definition.doc_id == s.doc_id else 0.9,
                    dst_doc_id=definition.doc_id,
                    dst_section_id=definition.section_id,
                    term=definition.term,
                    position=m.start(),
                )
            )
    return edges


def _definition_for(
    s: SectionInfo, defs: list[Term], related: dict[str, set[str]], superseded: set[str]
) -> Term | None:
    own = [t for t in defs if t.doc_id == s.doc_id]
    if own:
        return own[0]
    cited = [t for t in defs if t.doc_id in related.get(s.doc_id, set())]
    distinctive = len(defs[0].term.split()) > 1 and any(c.isupper() for c in defs[0].term)
    pool = cited or (defs if distinctive else [])
    pool = sorted(pool, key=lambda t: (t.doc_id in superseded, t.doc_id, t.section_id))
    return pool[0] if pool else None
