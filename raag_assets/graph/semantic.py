"""Layer 3: references the patterns and the parse could not resolve ("the section on
approvals in the Expenses Guideline") matched to section headings by embedding similarity."""

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from raag_assets.core.model import Edge, SectionInfo, Unresolved
from raag_assets.graph.references import Corpus
from raag_assets.graph.rules import rule

THRESHOLD = 0.5  # cosine similarity a heading must reach
MARGIN = 0.03  # ... and by how much it must beat the runner-up
TOP = 3

EMBEDDING_SIMILARITY = rule(
    "references.embedding_similarity",
    "semantic",
    "a reference to a section by its subject ('the section on approvals') matched to the "
    f"heading most similar in embedding (cosine at least {THRESHOLD}, ahead of the runner-up "
    f"by {MARGIN}); the edge's confidence is the similarity",
    edge_type="references",
    layer=3,
)


def heading_text(s: SectionInfo) -> str:
    """A heading with the start of its text: "Approval" alone says little about what it
    approves."""
    first = s.text.split(". ", 1)[0][:200]
    return f"{s.heading}: {first}" if first else s.heading


def resolve_semantic(
    parked: Sequence[Unresolved],
    corpus: Corpus,
    embed: Callable[[list[str]], np.ndarray],
    heading_vectors: Callable[[list[str]], np.ndarray] | None = None,
) -> tuple[list[Edge], list[Unresolved]]:
    """Edges for the references whose best heading is similar enough; the rest stay parked
    with their ranked candidates and the reason.

    `heading_vectors` embeds heading texts (default `embed`); a caller may answer it from a
    cache keyed by the text's hash, since headings rarely change between runs. Only the
    headings some reference can reach are embedded: one naming its document needs that
    document's headings alone."""
    eligible = [p for p in parked if p.kind == "named_section"]
    if not eligible:
        return [], list(parked)
    sections = [s for s in corpus.sections if s.heading]
    pools = [_pool(p, corpus, sections) for p in eligible]
    needed = sorted(set().union(*pools))
    vectors = np.zeros((len(sections), 0), dtype=np.float32)
    if needed:
        found = (heading_vectors or embed)([heading_text(sections[i]) for i in needed])
        vectors = np.zeros((len(sections), found.shape[1]), dtype=np.float32)
        vectors[needed] = found
    queries = embed([p.normalized_target for p in eligible])
    edges: list[Edge] = []
    still: list[Unresolved] = [p for p in parked if p.kind != "named_section"]
    for p, q, pool in zip(eligible, queries, pools, strict=True):
        if not pool:
            still.append(replace(p, reason=f"{p.reason}; no candidate sections"))
            continue
        sims = vectors[pool] @ q
        order = sorted(range(len(pool)), key=lambda i: (-float(sims[i]), pool[i]))
        ranked = tuple(
            (sections[pool[i]].section_id, round(float(sims[i]), 4)) for i in order[:TOP]
        )
        best_id, best = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        if best >= THRESHOLD and best - runner_up >= MARGIN:
            target = corpus.by_id[best_id]
            edges.append(
                EMBEDDING_SIMILARITY.edge(
                    src_doc_id=p.src_doc_id,
                    src_section_id=p.src_section_id,
                    matched_text=p.matched_text,
                    normalized_target=f"{target.doc_id} § {target.label}",
                    confidence=round(best, 3),
                    dst_doc_id=target.doc_id,
                    dst_section_id=target.section_id,
                    raw_target=p.normalized_target,
                    position=p.position,
                )
            )
        else:
            why = (
                f"best heading match {corpus.by_id[best_id].heading!r} at {best:.2f}"
                + (f" (runner-up {runner_up:.2f})" if best >= THRESHOLD else "")
                + f" is below the {THRESHOLD} threshold"
                if best < THRESHOLD
                else f"ambiguous: {best:.2f} vs runner-up {runner_up:.2f}"
            )
            still.append(replace(p, reason=why, candidates=ranked))
    return edges, still


def _pool(p: Unresolved, corpus: Corpus, sections: Sequence[SectionInfo]) -> list[int]:
    """Indexes of the sections a reference may resolve to: not in its own document, and in
    the document it names if it names one."""
    target_doc = corpus.find_doc(p.target_doc)[0] if p.target_doc else None
    return [
        i
        for i, s in enumerate(sections)
        if s.doc_id != p.src_doc_id and (p.target_doc is None or s.doc_id == target_doc)
    ]
