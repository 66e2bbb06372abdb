"""Section-level version links: which section of a new document version replaces which
section of the version it superseded.

A document-level `supersedes` edge says a whole document was replaced; search needs to know,
for a hit in the old version, the clause that now answers instead. Each section of the old
version is paired with one section of the new version: the one with the same label when there
is one (numbering is how drafters keep clauses stable across revisions), else the best match
of heading and text, when that match is good enough to be the same clause reworded.
"""

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from rapidfuzz import fuzz

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.rules import Rule, rule

SAME_LABEL_AND_HEADING = rule(
    "supersedes.same_label_and_heading",
    "document",
    "the section of the new version with the old section's label and heading replaces it",
    edge_type="supersedes",
    confidence=1.0,
)
SAME_LABEL = rule(
    "supersedes.same_label",
    "document",
    "the section of the new version with the old section's label, its heading reworded, "
    "replaces it (unless it reads nothing alike and another section clearly matches better)",
    edge_type="supersedes",
    confidence=0.9,
)
# A fuzzy counterpart is a likely reading, never as certain as a same label: its confidence is
# its match score, capped at the rule's.
FUZZY_CAP = 0.95
HEADING_TEXT_MATCH = rule(
    "supersedes.heading_text_match",
    "document",
    "the section of the new version whose heading and opening text best match an old "
    "section's (score at least MIN_MATCH) replaces it",
    edge_type="supersedes",
    confidence=FUZZY_CAP,
)

# A fuzzy counterpart must score at least this (0-100) on heading and text together.
MIN_MATCH = 60.0
# Text is compared on its opening, which is where a reworded clause still reads the same.
_TEXT_CHARS = 1500
_HEADING_WEIGHT = 0.4


class Counterpart(NamedTuple):
    """The section of a new version that replaces an old one, how sure, why, and the rule."""

    new: SectionInfo
    old: SectionInfo
    confidence: float
    evidence: str
    rule: Rule


def version_links(pairs: Iterable[tuple[str, str]], sections: Sequence[SectionInfo]) -> list[Edge]:
    """Section-level `supersedes` edges for each (new doc_id, old doc_id) pair whose sections
    are among `sections`: new section -> the old section it replaces."""
    by_doc: dict[str, list[SectionInfo]] = {}
    for s in sections:
        by_doc.setdefault(s.doc_id, []).append(s)
    out: list[Edge] = []
    for new_doc, old_doc in sorted(set(pairs)):
        if new_doc == old_doc:
            continue
        for c in match_sections(by_doc.get(new_doc, []), by_doc.get(old_doc, [])):
            out.append(
                c.rule.edge(
                    src_doc_id=c.new.doc_id,
                    src_section_id=c.new.section_id,
                    matched_text=c.evidence,
                    normalized_target=f"{c.old.doc_id} § {c.old.label}",
                    confidence=c.confidence,
                    dst_doc_id=c.old.doc_id,
                    dst_section_id=c.old.section_id,
                )
            )
    return out


def match_sections(new: Sequence[SectionInfo], old: Sequence[SectionInfo]) -> list[Counterpart]:
    """The counterpart in `new` of every old section that has one, in the old version's
    order."""
    by_label: dict[str, list[SectionInfo]] = {}
    for s in new:
        by_label.setdefault(s.label, []).append(s)
    seen: dict[str, int] = {}
    out = []
    for o in sorted(old, key=lambda s: s.ordinal):
        # The n-th old section with a label pairs with the n-th new one ("Front matter", a
        # repeated unnumbered heading).
        n = seen.get(o.label, 0)
        seen[o.label] = n + 1
        same = by_label.get(o.label, [])
        best = _best_match(o, new)
        if n < len(same):
            s = same[n]
            # Renumbered revisions: a same-label section that reads nothing alike loses to a
            # clearly better match elsewhere.
            value = _similarity(o, s)
            if value >= MIN_MATCH or best is None or best[1] < value + 20:
                same_heading = s.heading.casefold() == o.heading.casefold()
                r = SAME_LABEL_AND_HEADING if same_heading else SAME_LABEL
                out.append(Counterpart(s, o, r.certainty, f"same label {o.label}", r))
                continue
        if best is not None:
            s, value = best
            evidence = f"heading and text match {value:.0f}: {s.heading}"
            confidence = round(min(value / 100, FUZZY_CAP), 3)
            out.append(Counterpart(s, o, confidence, evidence, HEADING_TEXT_MATCH))
    return out


def _similarity(a: SectionInfo, b: SectionInfo) -> float:
    heading = fuzz.token_set_ratio(a.heading.casefold(), b.heading.casefold())
    text = fuzz.token_set_ratio(a.text[:_TEXT_CHARS].casefold(), b.text[:_TEXT_CHARS].casefold())
    if not a.text or not b.text:
        return heading
    return _HEADING_WEIGHT * heading + (1 - _HEADING_WEIGHT) * text


def _best_match(o: SectionInfo, new: Sequence[SectionInfo]) -> tuple[SectionInfo, float] | None:
    scored = [(_similarity(o, s), -s.ordinal, s) for s in new]
    if not scored:
        return None
    value, _, s = max(scored, key=lambda t: (t[0], t[1]))
    return (s, value) if value >= MIN_MATCH else None
