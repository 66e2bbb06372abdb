"""Deterministic chunking: each section's text packed into chunks of whole sentences that fit
the embedding model's window, each chunk carrying its section's label and heading."""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from raag_assets.core.identity import sha256_hex
from raag_assets.ingest.sectioning import Section

CHUNKER_VERSION = "2"  # 2: chunks carry character offsets into the raw text
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[\"'“(\[A-Z0-9])")

TokenCounter = Callable[[str], int]


@dataclass(frozen=True)
class ChunkPolicy:
    """How big a chunk may be, in the embedding model's tokens (its window less a margin)."""

    max_tokens: int = 200

    def __post_init__(self) -> None:
        if self.max_tokens < 32:
            raise ValueError(f"max_tokens must be at least 32, got {self.max_tokens}")


@dataclass(frozen=True)
class Chunk:
    doc_id: str
    chunk_index: int
    section_id: str
    content: str
    content_hash: str
    token_count: int
    char_start: int | None = None  # the body's span in the document's raw text
    char_end: int | None = None


def section_header(section: Section) -> str:
    """The context line every chunk of a section starts with: '4.2 Maternity Leave'."""
    if section.label == section.heading:
        return section.heading
    return f"{section.label} {section.heading}".strip()


def chunk_sections(
    sections: Sequence[Section], policy: ChunkPolicy, count_tokens: TokenCounter
) -> list[Chunk]:
    """Chunks for one document's sections, numbered 0.. in document order."""
    chunks: list[Chunk] = []
    for section in sections:
        if not section.text:
            continue
        header = section_header(section)
        budget = policy.max_tokens - count_tokens(header) - 1
        if budget < 16:  # an absurdly long heading: cut it rather than lose the body
            header = _truncate(header, policy.max_tokens // 4, count_tokens)
            budget = policy.max_tokens - count_tokens(header) - 1
        for body, (lo, hi) in _pack(section.text, budget, count_tokens):
            content = f"{header}\n{body}"
            char_start, char_end = raw_span(section, lo, hi)
            chunks.append(
                Chunk(
                    doc_id=section.doc_id,
                    chunk_index=len(chunks),
                    section_id=section.section_id,
                    content=content,
                    content_hash=sha256_hex(content)[:32],
                    token_count=count_tokens(content),
                    char_start=char_start,
                    char_end=char_end,
                )
            )
    return chunks


def raw_span(section: Section, lo: int, hi: int) -> tuple[int | None, int | None]:
    """The raw-text span of section.text[lo:hi] (None when the section has no offsets)."""
    where = section.offsets
    if hi <= lo or hi > len(where) or where[lo] < 0 or where[hi - 1] < 0:
        return None, None
    return where[lo], where[hi - 1] + 1


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a section's text, paragraphs kept apart."""
    spans = []
    pos = 0
    for paragraph in text.split("\n\n"):
        cut = pos
        for m in [*SENTENCE_END.finditer(paragraph), None]:
            stop = pos + (m.start() if m else len(paragraph))
            piece = text[cut:stop]
            if piece.strip():
                lead = len(piece) - len(piece.lstrip())
                spans.append((cut + lead, cut + len(piece.rstrip())))
            if m:
                cut = pos + m.end()
        pos += len(paragraph) + 2
    return spans


def _pack(text: str, budget: int, count_tokens: TokenCounter) -> list[tuple[str, tuple[int, int]]]:
    """Greedy packing of sentences (paragraph breaks kept) under `budget` tokens, each chunk
    with the span of `text` it covers."""
    pieces: list[tuple[str, int, int, int]] = []  # text, tokens, start, end
    sentences = sentence_spans(text)
    for n, (lo, hi) in enumerate(sentences):
        cursor = lo
        for part, tokens in _split_long(text[lo:hi], budget, count_tokens):
            at = text.find(part, cursor, hi)  # parts are consecutive pieces of the sentence
            at = cursor if at < 0 else at
            pieces.append((part, tokens, at, at + len(part)))
            cursor = at + len(part)
        following = sentences[n + 1][0] if n + 1 < len(sentences) else len(text)
        if "\n\n" in text[hi:following] or n + 1 == len(sentences):
            pieces.append(("\n", 0, hi, hi))  # paragraph boundary marker
    out: list[tuple[str, tuple[int, int]]] = []
    current: list[str] = []
    span = [0, 0]
    used = 0
    for piece, tokens, start, end in pieces:
        if piece == "\n":
            if current and current[-1] != "\n":
                current.append("\n")
            continue
        if current and used + tokens > budget:
            out.append((_join(current), (span[0], span[1])))
            current, used = [], 0
        if not current:
            span[0] = start
        current.append(piece)
        span[1] = end
        used += tokens
    if current:
        out.append((_join(current), (span[0], span[1])))
    return [(c, sp) for c, sp in out if c]


def _split_long(sentence: str, budget: int, count_tokens: TokenCounter) -> list[tuple[str, int]]:
    """A sentence over budget is cut at word boundaries (and a word over budget by characters);
    each part with its tokens. A sentence within budget (nearly all) is counted once: its
    count decides and is kept (the tokenizer was a third of the sections step's CPU)."""
    tokens = count_tokens(sentence)
    if tokens <= budget:
        return [(sentence, tokens)]
    parts: list[str] = []
    current: list[str] = []
    for word in sentence.split(" "):
        for piece in _split_word(word, budget, count_tokens):
            candidate = " ".join([*current, piece])
            if current and count_tokens(candidate) > budget:
                parts.append(" ".join(current))
                current = [piece]
            else:
                current.append(piece)
    if current:
        parts.append(" ".join(current))
    return [(part, count_tokens(part)) for part in parts]


def _split_word(word: str, budget: int, count_tokens: TokenCounter) -> list[str]:
    if count_tokens(word) <= budget:
        return [word]
    step = max(1, budget)  # a token is at least one character
    return [word[i : i + step] for i in range(0, len(word), step)]


def _truncate(text: str, max_tokens: int, count_tokens: TokenCounter) -> str:
    words = text.split(" ")
    while len(words) > 1 and count_tokens(" ".join(words)) > max_tokens:
        words.pop()
    return _split_word(" ".join(words), max_tokens, count_tokens)[0]


def _join(parts: list[str]) -> str:
    text = " ".join(parts).replace(" \n ", "\n").replace(" \n", "").strip()
    return text.rstrip("\n")
