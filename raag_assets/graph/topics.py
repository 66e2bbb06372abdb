"""Topics per section (noun phrases by frequency) and topically_related edges (Jaccard)."""

import re
from collections import Counter
from collections.abc import Sequence

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.rules import rule

MAX_TOPICS = 8
MIN_JACCARD = 0.15  # measured on golden/graph/topic_pairs.jsonl (make graph-eval)
MIN_SHARED = 2
MAX_LINKS = 3  # per section
MAX_SPREAD = 0.3  # a topic in more than this share of sections says nothing particular
_GENERIC = {
    "section",
    "sections",
    "policy",
    "document",
    "this",
    "that",
    "which",
    "who",
    "it",
    "they",
    "you",
    "we",
    "he",
    "she",
    "them",
    "part",
    "way",
    "time",
    "thing",
    "case",
    "use",
    "term",
    "terms",
    "license",
    "condition",
    "conditions",
    "day",
    "days",
    "person",
}

SHARED_TOPICS = rule(
    "topically_related.shared_topics",
    "topic",
    f"a section of another document sharing at least {MIN_SHARED} topics, with a Jaccard "
    f"overlap of at least {MIN_JACCARD} (the {MAX_LINKS} best per section); the edge's "
    "confidence is the overlap",
    edge_type="topically_related",
)


def topics_from_chunks(noun_chunks: Sequence[Sequence[tuple[str, str, bool]]]) -> list[str]:
    """Topics from spaCy noun chunks given as [(lemma, pos, is_stop)] per chunk: the chunk's
    content words, lower-cased, most frequent first (ties alphabetical)."""
    counts: Counter[str] = Counter()
    for chunk in noun_chunks:
        words = [
            lemma.lower()
            for lemma, pos, stop in chunk
            if pos in ("NOUN", "PROPN", "ADJ")
            and not stop
            and re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)*", lemma)
            and len(lemma) > 2
        ]
        if not words or (len(words) == 1 and words[0] in _GENERIC):
            continue
        counts[" ".join(words)] += 1
    return [t for t, _ in sorted(counts.items(), key=lambda x: (-x[1], x[0]))[:MAX_TOPICS]]


def heading_topics(heading: str) -> list[str]:
    """The words of a section's heading as topics ("Choice of Law; Venue" -> law, venue): a
    heading says what the section is about more surely than its most frequent phrases. A
    plural is read as its singular, as spaCy's lemmas in the text are."""
    from spacy.lang.en.stop_words import STOP_WORDS

    out = []
    for word in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", heading.lower()):
        if len(word) <= 2 or word in STOP_WORDS or word in _GENERIC:
            continue
        if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 4:
            word = word[:-1]
        out.append(word)
    return list(dict.fromkeys(out))


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def topic_links(sections: Sequence[SectionInfo], topics: dict[str, list[str]]) -> list[Edge]:
    """Each section's most similar sections in other documents by topic overlap."""
    spread = Counter(t for s in sections for t in set(topics.get(s.section_id, [])))
    common = {t for t, n in spread.items() if n > MAX_SPREAD * len(sections) and n > 2}
    sets = {s.section_id: set(topics.get(s.section_id, [])) - common for s in sections}
    edges = []
    for s in sections:
        mine = sets[s.section_id]
        if not mine:
            continue
        scored = []
        for o in sections:
            if o.doc_id == s.doc_id:
                continue
            shared = mine & sets[o.section_id]
            score = jaccard(mine, sets[o.section_id])
            if len(shared) >= MIN_SHARED and score >= MIN_JACCARD:
                scored.append((-score, o.doc_id, o.ordinal, o, sorted(shared)))
        for neg, _, _, o, words in sorted(scored)[:MAX_LINKS]:
            edges.append(
                SHARED_TOPICS.edge(
                    src_doc_id=s.doc_id,
                    src_section_id=s.section_id,
                    matched_text="shared topics: " + ", ".join(words),
                    normalized_target=f"{o.doc_id} § {o.label}",
                    confidence=round(-neg, 3),
                    dst_doc_id=o.doc_id,
                    dst_section_id=o.section_id,
                )
            )
    return edges
