"""Layer 1 sequences: sections headed "Step 1", "Step 2", ... and "after Step 1" in text, each
a rule of graph.rules whose id its `precedes` edges carry."""

import re
from collections.abc import Sequence

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.references import Corpus
from raag_assets.graph.rules import rule

STEP_SEQUENCE = rule(
    "precedes.step_sequence",
    "cue",
    'sections headed "Step 1", "Step 2", ... under one parent: each precedes the next',
    edge_type="precedes",
    confidence=0.95,
    pattern=r"^step\s+(\d{1,3})\b",
    flags=re.IGNORECASE,
    examples=("Step 2 Submit the form", "STEP 10: Close the account"),
    counter=("Follow the steps below", "Next step"),
)
STEP_MENTION = rule(
    "precedes.step_mention",
    "cue",
    "'after / once / following Step N': Step N precedes the section; 'before / prior to Step "
    "N': the section precedes Step N",
    edge_type="precedes",
    confidence=0.9,
    pattern=(
        r"\b(?P<cue>after|following|once|before|prior\s+to)\s+(?:completing\s+)?"
        r"step\s+(?P<n>\d{1,3})\b"
    ),
    flags=re.IGNORECASE,
    examples=("After completing Step 2, send the form.", "Do this before step 4."),
    counter=("Step 2 comes later.",),
)


def step_number(section: SectionInfo) -> int | None:
    m = STEP_SEQUENCE.search(section.heading)
    return int(m.group(1)) if m else None


def step_sequences(sections: Sequence[SectionInfo]) -> list[Edge]:
    """Sections headed "Step 1", "Step 2", ... under one parent: each precedes the next."""
    by_parent: dict[tuple[str, str | None], dict[int, SectionInfo]] = {}
    for s in sections:
        n = step_number(s)
        if n is not None:
            by_parent.setdefault((s.doc_id, s.parent_id), {}).setdefault(n, s)
    edges = []
    for steps in by_parent.values():
        for n, s in sorted(steps.items()):
            nxt = steps.get(n + 1)
            if nxt:
                edges.append(
                    STEP_SEQUENCE.edge(
                        src_doc_id=s.doc_id,
                        src_section_id=s.section_id,
                        matched_text=f"{s.heading} → {nxt.heading}",
                        normalized_target=f"{nxt.doc_id} § {nxt.label}",
                        dst_doc_id=nxt.doc_id,
                        dst_section_id=nxt.section_id,
                    )
                )
    return edges


def step_mentions(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'After Step 1, ...' in a section: Step 1 precedes it; 'before Step 3': it precedes Step 3."""
    steps = {step_number(s): s for s in corpus.by_doc.get(section.doc_id, []) if step_number(s)}
    edges = []
    for m in STEP_MENTION.finditer(section.text):
        other = steps.get(int(m.group("n")))
        if other is None or other.section_id == section.section_id:
            continue
        before = m.group("cue").lower() in ("before", "prior to")
        src, dst = (section, other) if before else (other, section)
        edges.append(
            STEP_MENTION.edge(
                src_doc_id=src.doc_id,
                src_section_id=src.section_id,
                matched_text=m.group(0),
                normalized_target=f"{dst.doc_id} § {dst.label}",
                dst_doc_id=dst.doc_id,
                dst_section_id=dst.section_id,
                position=m.start(),
            )
        )
    return edges
