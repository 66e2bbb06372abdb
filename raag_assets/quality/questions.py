"""Written question sets: questions a reader wrote over a corpus, each answer given as the
document, the section as the document prints it, and a quote from the answering text.

The quote, not the section label, is the gold: it is located in the document's raw text (as
raag stores it), and a ranked span (a section, a passage or a baseline's chunk) answers it when
the two overlap. So the gold does not depend on how raag cut the document into sections, and a
system that cuts badly is scored for it.

Each question belongs to a half fixed once by its id (the rule of `quality.cuad.part_of`): the
"look" half is for tuning, the "scored" half only for scoring.
"""

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from raag_assets.core.errors import RaagError
from raag_assets.quality.cuad import part_of

Span = tuple[str, int, int]  # (doc_id, start, end) in the document's raw text
K = 10


@dataclass(frozen=True)
class Answer:
    doc: str  # the file name's stem, as the labeller named the document
    section: str
    quote: str
    hop: str | None = None


@dataclass(frozen=True)
class Question:
    id: str
    q: str
    answers: tuple[Answer, ...]
    names: str | None = None  # the one document the question names, if any
    family_only: bool = False  # names a family without its version

    @property
    def part(self) -> str:
        return part_of(self.id)


def load_questions(path: Path) -> list[Question]:
    """A set file: {"questions": [{id, q, names?, family_only?, answers: [{doc, section,
    quote, hop?}]}]}."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict) or not isinstance(raw.get("questions"), list):
        raise RaagError(f"{path} is not a question set: it needs a 'questions' list")
    out = []
    for item in raw["questions"]:
        answers = tuple(
            Answer(str(a["doc"]), str(a["section"]), str(a["quote"]), a.get("hop"))
            for a in item["answers"]
        )
        names = item.get("names")
        out.append(
            Question(
                str(item["id"]),
                str(item["q"]),
                answers,
                str(names) if names else None,
                bool(item.get("family_only", False)),
            )
        )
    return out


def locate(text: str, quote: str) -> tuple[int, int] | None:
    """The span of `quote` in `text`, any run of whitespace matching any other, case kept;
    failing that, case ignored (a PDF's small capitals, a heading in capitals)."""
    words = quote.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    m = re.search(pattern, text) or re.search(pattern, text, re.IGNORECASE)
    return (m.start(), m.end()) if m else None


def gold_spans(
    question: Question, texts: Mapping[str, str], doc_of: Mapping[str, str]
) -> list[Span | None]:
    """Each answer's span in its document's raw text (None where the quote is not found):
    `doc_of` maps a labeller's document name to raag's doc_id, `texts` doc_id -> raw text."""
    out: list[Span | None] = []
    for a in question.answers:
        doc_id = doc_of.get(a.doc)
        found = locate(texts[doc_id], a.quote) if doc_id is not None and doc_id in texts else None
        out.append((doc_id, found[0], found[1]) if doc_id and found else None)
    return out


def answered(span: Span, ranked: Sequence[Span]) -> bool:
    doc, a, b = span
    return any(d == doc and s < b and a < e for d, s, e in ranked)


@dataclass(frozen=True)
class QuestionScore:
    recall: float  # share of the answers a top-k span overlaps
    hit: bool  # any answer overlapped
    hop_found: int  # answers marked with a hop, found
    hops: int
    named_first: bool | None  # the first span is in the named document (None: names none)
    ndcg: float = 0.0  # nDCG@k, each answer a gain of 1 at the first rank that overlaps it


def score(
    question: Question,
    gold: Sequence[Span | None],
    ranked: Sequence[Span],
    named_doc: str | None = None,
) -> QuestionScore:
    """How a ranking of spans answers a question: `named_doc` is raag's doc_id of the
    document the question names."""
    top = list(ranked[:K])
    found = [g is not None and answered(g, top) for g in gold]
    first = [
        next((r for r, span in enumerate(top) if answered(g, [span])), None) if g else None
        for g in gold
    ]
    ideal = sum(1 / math.log2(r + 2) for r in range(min(len(gold), K)))
    dcg = sum(1 / math.log2(r + 2) for r in sorted({r for r in first if r is not None}))
    hop = [f for f, a in zip(found, question.answers, strict=True) if a.hop]
    return QuestionScore(
        recall=sum(found) / len(found) if found else 0.0,
        hit=any(found),
        hop_found=sum(hop),
        hops=len(hop),
        named_first=(bool(top) and top[0][0] == named_doc) if question.names else None,
        ndcg=dcg / ideal if ideal else 0.0,
    )
