"""Topics per section (phrases by frequency) and topically_related edges (Jaccard)."""

import functools
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


def text_topics(text: str) -> list[str]:
    """A section's topics without a parser: its phrases of content words (runs of words
    between punctuation, numbers and stop words), singular and lower-cased, most frequent
    first (ties alphabetical). A noun phrase is such a run; so is a verb phrase, but those
    seldom recur across documents, and the topic pairs measure the same or better than with
    spaCy's noun chunks (make graph-eval), at no parse."""
    counts: Counter[str] = Counter()
    run: list[str] = []
    for m in _TOKEN.finditer(text.lower()):
        word = m.group()
        if word[0].isalpha() and word not in _stop_words():
            if len(word) > 2:
                run.append(singular(word))
            continue
        _count(run, counts)
        run = []
    _count(run, counts)
    return [t for t, _ in sorted(counts.items(), key=lambda x: (-x[1], x[0]))[:MAX_TOPICS]]


_TOKEN = re.compile(r"[^\W\d_]+(?:[-‐–][^\W\d_]+)*|[^\s]")  # a word, or one other character


def _count(run: list[str], counts: Counter[str]) -> None:
    if run and not (len(run) == 1 and run[0] in _GENERIC):
        counts[" ".join(run)] += 1


@functools.cache
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def singular(word: str) -> str:
    """A plural read as its singular ("parties" -> "party", "notices" -> "notice"), so a
    phrase counts once however it is written; "-ics" nouns ("logistics") are singular."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ics")) and len(word) > 4:
        return word[:-1]
    return word


def heading_topics(heading: str) -> list[str]:
    """The words of a section's heading as topics ("Choice of Law; Venue" -> law, venue): a
    heading says what the section is about more surely than its most frequent phrases. A
    plural is read as its singular, as in the text's topics."""
    out = []
    for word in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", heading.lower()):
        if len(word) <= 2 or word in _stop_words() or word in _GENERIC:
            continue
        out.append(singular(word))
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
