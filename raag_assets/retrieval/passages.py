"""Passages: the sentences of a section that answer the query (search()'s passages stage,
`section_passages`), and the optional blocks after search (ragd): compress results to the
sentences around the query's words, and pack them for the caller's LLM under a token budget
with [n] citations and optional PII redaction."""

import bisect
import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from raag_assets.graph.lexicon import DATE, MONTH
from raag_assets.graph.rules import rule
from raag_assets.ingest.chunking import SENTENCE_END
from raag_assets.retrieval.model import ScoredSection
from raag_assets.retrieval.vocabulary import document_words

TokenCounter = Callable[[str], int]
Span = tuple[int, int, float]  # start, end, weight relative to the section's best passage
Meaning = tuple[int, int, float]  # a chunk's start, end, and cosine similarity to the query
_WORD = re.compile(r"[A-Za-z][A-Za-z-]{2,}")
_STOP = {
    "the",
    "and",
    "for",
    "are",
    "was",
    "who",
    "what",
    "when",
    "how",
    "does",
    "with",
    "that",
    "this",
    "from",
    "have",
    "has",
    "can",
    "may",
    "any",
    "all",
    "get",
    "not",
    "but",
    "into",
}


def _stems(text: str) -> set[str]:
    return {w.lower()[:5] for w in _WORD.findall(text) if w.lower() not in _STOP}


# Sentence ends in raw text: a stop then whitespace (line breaks included) before a capital,
# a digit or an opening mark; or a blank line (paragraph, heading or list item ends).
_RAW_BREAK = re.compile(r"(?<=[.!?;:])\s+(?=[\"'“(\[A-Z0-9])|\n[ \t\f\v]*\n\s*")
MAX_PASSAGE_SENTENCES = 3
MAX_PASSAGE_CHARS = 700

# The items of a section's body: its paragraphs, and the numbered or lettered sub-clauses the
# document sets out ("(a)", "(iv)", "2.4.1", "b."), on a line of their own or run in after the
# end of a sentence or a clause, or after a run of spaces (a flattened list). A passage is the
# whole item that answers when the item is at most MAX_ITEM_CHARS long: the clause, not a
# sentence of it and not its neighbours.
_PAREN_ITEM = r"\((?:[a-z]{1,2}|[ivxlcIVXLC]{1,6}|\d{1,3}|[A-Z])\)"  # (a) (iv) (3) (B)
_DOTTED_ITEM = r"\d{1,3}(?:\.\d{1,3}){1,3}\.?(?=\s+[A-Z(\"“])"  # 2.4.1
_BARE_ITEM = r"[ \t]*(?:\d{1,3}|[a-zA-Z]|[ivx]{1,5})[.)](?=\s+[A-Z(\"“])"  # "b." "3)"
# a bare number or letter opens an item only at the start of a line
_ENUMERATOR = rf"(?:{_PAREN_ITEM}|{_DOTTED_ITEM}|(?<=\n){_BARE_ITEM})"
ITEM_START = rule(
    "heading.item",
    "heading",
    "a numbered or lettered item inside a section's body, on a line of its own, run in after "
    "a sentence or a clause, or after a run of spaces: where a passage (retrieval) may begin",
    pattern=rf"\n[ \t]*\n\s*|\n[ \t]*(?={_ENUMERATOR})|(?<=[.;:])[ \t]+(?={_ENUMERATOR})"
    rf"|[ \t]{{2,}}(?={_PAREN_ITEM}\s)",
    examples=(
        "the Licensee shall:\n(a) pay the fees;",
        "the following meanings. 2.4.1 The Supplier shall",
        "as set out below; (ii) the Buyer may",
        "on the race car;   (iii) making available",
        "first paragraph ends.\n\nSecond paragraph",
        "shall be terminated\n b. The Licensee",
    ),
    counter=(
        "as provided in Section 2.4.1 The Supplier",
        "subject to clause (a) above",
        "the Company (as defined)",
        "paid within 30 days. Each party",
    ),
)
MAX_ITEM_CHARS = 1500


_TERM = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
# A date, or a month or year standing alone ("5th day of December 2008", "[•], 2020").
_DATE_MENTION = re.compile(rf"{DATE}|\b{MONTH}\.?\s+(?:19|20)\d{{2}}\b|\b(?:19|20)\d{{2}}\b", re.I)
_ASKS_DATE = re.compile(r"\b(?:when|dates?|dated)\b", re.I)
_QUESTION_WORDS = {"which", "whose", "whom", "where", "why", "between", "under", "about", "did"}
DATE_WORD = "<date>"  # what a sentence with a date "contains" for a query asking when


@functools.lru_cache(maxsize=1)
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


def passage_terms(text: str) -> set[str]:
    """Snowball stems of a text's words, stop words left out ("governs", "governed" ->
    "govern")."""
    words = [w.lower().replace("’", "'").split("'")[0] for w in _TERM.findall(text)]
    keep = [w for w in words if len(w) > 2 and w not in _STOP and w not in _QUESTION_WORDS]
    return set(_stemmer().stemWords(keep))


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z0-9]+", text) if not w.isdigit()}


def raw_sentences(raw: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a piece of raw text, without surrounding whitespace."""
    spans, cut = [], 0
    for m in [*_RAW_BREAK.finditer(raw), None]:
        stop = m.start() if m else len(raw)
        piece = raw[cut:stop]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.append((cut + lead, cut + len(piece.rstrip())))
        if m:
            cut = m.end()
    return spans


def raw_items(raw: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each item of a piece of raw text (ITEM_START), without surrounding
    whitespace; with `start`/`end`, those lying wholly inside raw[start:end] (a piece cut
    off at either bound is not an item, unless the bound is the text's own)."""
    end = len(raw) if end is None else end
    spans, cut, whole = [], start, start == 0
    for m in [*ITEM_START.regex.finditer(raw, start, end), None]:
        stop = m.start() if m else end
        piece = raw[cut:stop]
        if piece.strip() and (whole and (m is not None or end == len(raw))):
            lead = len(piece) - len(piece.lstrip())
            spans.append((cut + lead, cut + len(piece.rstrip())))
        if m:
            cut, whole = m.end(), True
    return spans


def best_passage(
    raw: str, query: str, prefer: tuple[int, int] | None = None, heading: str = ""
) -> tuple[int, int] | None:
    """The span of `raw` (a section's body as written) that answers `query`: the first of
    `best_passages`; with no shared word, the first sentence of `prefer`, else of the
    section."""
    found = best_passages(raw, query, prefer, heading, limit=1)
    return (found[0][0], found[0][1]) if found else None


# A further passage of the same section is returned only when it answers about as well as
# the best one on its own (a long section that states the answer twice, or two clauses that
# each answer part): at least this share of the best passage's matched query-word weight.
# 0.4 rather than 0.6 since passages are whole items: on the CUAD span set's look half, each
# of its two halves (by the file name's SHA-256) gains recall and hit@10; 0.3 adds nothing.
SEPARATE_ANSWER_SHARE = 0.4


def best_passages(
    raw: str,
    query: str,
    prefer: tuple[int, int] | None = None,
    heading: str = "",
    limit: int = 1,
    meaning: Sequence[Meaning] = (),
) -> list[Span]:
    """Up to `limit` non-overlapping spans of `raw` (a section's body as written) that
    answer `query`, best first, each with its weight relative to the best (1.0 for the
    first). A passage is a window of at most MAX_PASSAGE_SENTENCES sentences sharing the
    most distinctive query words (by Snowball stem, each weighted by how few sentences of
    the section have it; a question of when also counts a stated date), shortest first
    among equals, then inside `prefer` (the retrieved chunk), then earliest. Further
    passages must reach SEPARATE_ANSWER_SHARE of the best one's weight. With no shared
    word, the first sentence of `prefer`, else of the section. A sentence that only repeats
    the heading (a run-in title: "Section 11.03. Governing Law.") is not a passage. Each
    passage is then widened to the whole item it lies in (its paragraph or numbered
    sub-clause, `raw_items`) when that is at most MAX_ITEM_CHARS: the clause that answers,
    whose other sentences often state what the query's words do not (the term's length
    beside the word "term")."""
    spans = _answer_sentences(raw, heading)
    if not spans:
        return []
    found = _query_terms(raw, spans, query)
    near = _nearness(spans, meaning)
    windows = _windows(spans, found, _weights(found), prefer, near)
    if meaning:  # no word shared: the retrieval's chunk, else the chunk nearest in meaning
        prefer = prefer or max(meaning, key=lambda m: m[2])[:2]
    chosen = _separate_answers(windows, spans, limit) or [_first_sentence(spans, prefer)]
    return _whole_items(raw, chosen, spans)


# A clause's run-in title ("12.1 Term.", "(b) Audit Rights:"): a few capitalised words after
# its number, ending the sentence. A widened passage starts after it.
_ENUMERATOR_ANYWHERE = rf"(?:{_PAREN_ITEM}|{_DOTTED_ITEM}|{_BARE_ITEM})"
_RUN_IN_TITLE = re.compile(
    rf"[ \t]*(?:{_ENUMERATOR_ANYWHERE}\s+)?(?:[A-Z][\w'’&/-]*[ \t]+){{0,5}}[A-Z][\w'’&/-]*[.:]"
)


def _whole_items(raw: str, chosen: Sequence[Span], spans: Sequence[tuple[int, int]]) -> list[Span]:
    """Each passage widened to the items it lies in, from their first answer sentence (a
    run-in title is not one) to their end, where that is at most MAX_ITEM_CHARS long; a
    passage that overlaps one chosen before it is dropped (the same clause)."""
    out: list[Span] = []
    for a, b, share in chosen:
        items = raw_items(raw, max(0, a - MAX_ITEM_CHARS), min(len(raw), b + MAX_ITEM_CHARS))
        inside = [(s, e) for s, e in items if s < b and a < e]
        if inside and inside[0][0] <= a:  # the item it begins in is whole
            lo, hi = inside[0][0], inside[-1][1]
            starts = [
                s
                for s, e in spans
                if lo <= s < a and not (_RUN_IN_TITLE.fullmatch(raw, s, e) and e - s <= 80)
            ]
            lo = min(starts, default=a)
            if hi - lo <= MAX_ITEM_CHARS:
                a, b = lo, max(b, hi)
        if any(s < b and a < e for s, e, _ in out):
            continue
        out.append((a, b, share))
    return out


def _answer_sentences(raw: str, heading: str) -> list[tuple[int, int]]:
    """The sentences of `raw`, less those that only repeat the heading (all of them if
    nothing else is left)."""
    titled = _words(heading) | {"section", "article", "clause"}
    return [
        sp
        for sp in raw_sentences(raw)
        if not (_words(raw[sp[0] : sp[1]]) <= titled and sp[1] - sp[0] <= 150)
    ] or raw_sentences(raw)


def _query_terms(raw: str, spans: Sequence[tuple[int, int]], query: str) -> list[set[str]]:
    """The query's terms each sentence holds; a question of when finds DATE_WORD in a
    sentence stating a date."""
    wanted = passage_terms(query)
    heads: dict[str, list[str]] = {}
    for q in sorted(wanted):
        if len(q) >= SHARED_PREFIX:
            heads.setdefault(q[:SHARED_PREFIX], []).append(q)
    # a word the document writes for a query word ("termination" for "ends") counts as it
    stands_for = {
        t: q
        for word, source in document_words(query).items()
        for q in passage_terms(source) & wanted
        for t in passage_terms(word)
    }
    found = []
    for s, e in spans:
        terms = passage_terms(raw[s:e])
        found.append(
            _shared(terms, wanted, heads) | {stands_for[t] for t in terms & stands_for.keys()}
        )
    if _ASKS_DATE.search(query):
        for n, (s, e) in enumerate(spans):
            if _DATE_MENTION.search(raw, s, e):
                found[n].add(DATE_WORD)
    return found


# Stems that differ only in a suffix Snowball leaves on one of them ("compet" of competing,
# "competit" of competition; "transfer", "transferor") are one word: a query stem matches a
# stem it begins or that begins it, both of at least this many letters.
SHARED_PREFIX = 4


def _shared(terms: set[str], wanted: set[str], heads: Mapping[str, Sequence[str]]) -> set[str]:
    """The `wanted` stems that `terms` holds, as themselves or one beginning the other (both
    at least SHARED_PREFIX letters; `heads`: the wanted stems by their first letters)."""
    out = terms & wanted
    for t in terms:
        for q in heads.get(t[:SHARED_PREFIX], ()):
            if q not in out and len(t) >= SHARED_PREFIX and (t.startswith(q) or q.startswith(t)):
                out.add(q)
    return out


def _weights(found: Sequence[set[str]]) -> dict[str, float]:
    """A term's weight: the fewer sentences hold it, the more it tells them apart."""
    df: dict[str, int] = {}
    for terms in found:
        for t in terms:
            df[t] = df.get(t, 0) + 1
    return {t: math.log(1 + len(found) / n) for t, n in df.items()}


# A window of sentences i..j: its sort key (weight, -width, inside `prefer`, -i), i and j.
Window = tuple[tuple[float, int, bool, int], int, int]


# Meaning and words together: a window's word weight is scaled by exp(MEANING_WEIGHT * (its
# chunk's similarity to the query - the section's best chunk's)), so in a long section a
# clause where the query's meaning lies outranks one that shares a word more by chance.
MEANING_WEIGHT = 10.0
# A section this long (raw characters) may hold more than one chunk (ChunkPolicy: 200 tokens).
MULTI_CHUNK_CHARS = 700


def _nearness(spans: Sequence[tuple[int, int]], meaning: Sequence[Meaning]) -> list[float]:
    """Each sentence's factor: exp(MEANING_WEIGHT * (similarity of the nearest chunk holding
    it - the best chunk's)); 1.0 for all without chunks."""
    if not meaning:
        return [1.0] * len(spans)
    chunks = sorted(meaning)
    starts = [a for a, _, _ in chunks]
    best = max(m[2] for m in chunks)
    out = []
    for s, e in spans:
        first = max(0, bisect.bisect_right(starts, s) - 1)
        held = [sim for a, b, sim in chunks[first : bisect.bisect_left(starts, e)] if s < b]
        out.append(math.exp(MEANING_WEIGHT * (max(held, default=best) - best)))
    return out


def _windows(
    spans: Sequence[tuple[int, int]],
    found: Sequence[set[str]],
    weight: dict[str, float],
    prefer: tuple[int, int] | None,
    near: Sequence[float],
) -> list[Window]:
    """Every window that answers something, best first: from each sentence, grown while
    a sentence adds a query term, up to MAX_PASSAGE_SENTENCES and MAX_PASSAGE_CHARS; its
    words' weight scaled by its nearest sentence's meaning factor (`_nearness`)."""
    windows: list[Window] = []
    for i in range(len(spans)):
        matched: set[str] = set()
        for j in range(i, min(i + MAX_PASSAGE_SENTENCES, len(spans))):
            wide = j > i
            if wide and spans[j][1] - spans[i][0] > MAX_PASSAGE_CHARS:
                break
            grown = matched | found[j]
            if wide and grown == matched:
                break  # a sentence that adds no query word only loosens the passage
            matched = grown
            value = round(sum(weight[t] for t in matched) * max(near[i : j + 1]), 9)
            if value <= 0:
                break
            inside = prefer is not None and prefer[0] <= spans[i][0] and spans[j][1] <= prefer[1]
            windows.append(((value, -(j - i + 1), inside, -i), i, j))
    windows.sort(key=lambda w: w[0], reverse=True)
    return windows


def _separate_answers(
    windows: Sequence[Window], spans: Sequence[tuple[int, int]], limit: int
) -> list[Span]:
    """The best windows that do not overlap, while they reach SEPARATE_ANSWER_SHARE of the
    best one's weight, each with its share of it."""
    chosen: list[Span] = []
    used: set[int] = set()
    for key, i, j in windows:
        if len(chosen) >= limit:
            break
        if chosen and key[0] < SEPARATE_ANSWER_SHARE * windows[0][0][0]:
            break
        if used & set(range(i, j + 1)):
            continue  # overlapping windows are one answer, not two
        used.update(range(i, j + 1))
        chosen.append((spans[i][0], spans[j][1], key[0] / windows[0][0][0]))
    return chosen


def _first_sentence(spans: Sequence[tuple[int, int]], prefer: tuple[int, int] | None) -> Span:
    """With no query word shared: the first sentence of the retrieved chunk, else of the
    section."""
    if prefer is not None:
        inside = [sp for sp in spans if prefer[0] <= sp[0] < prefer[1]]
        if inside:
            return (inside[0][0], inside[0][1], 1.0)
    return (spans[0][0], spans[0][1], 1.0)


# With granularity "passage", a section gives up to this many passages, each a result of its
# own, when they answer separately (see assemble.passage_results).
PASSAGES_PER_SECTION = 3


def section_passages(
    ordered: Sequence[ScoredSection],
    query: str,
    granularity: str,
    meaning: Mapping[str, Sequence[Meaning]] | None = None,
) -> list[list[Span]]:
    """Each section's passages, as spans of its document's raw text: the sentences of the
    section that answer the query (the retrieved chunk breaks ties), one per section, or up
    to PASSAGES_PER_SECTION with granularity "passage"; none for a section whose raw text is
    not known. `meaning`: a section's chunks and how near each lies to the query (by
    section id; see best_passages)."""
    limit = PASSAGES_PER_SECTION if granularity == "passage" else 1
    out: list[list[Span]] = []
    for c in ordered:
        s = c.section
        if s.body_raw is None or s.text_start is None:
            out.append([])
            continue
        prefer = c.hit.chunk_span if c.hit else None
        local = (prefer[0] - s.text_start, prefer[1] - s.text_start) if prefer else None
        near = [
            (a - s.text_start, b - s.text_start, sim)
            for a, b, sim in (meaning or {}).get(s.section_id, ())
        ]
        found = best_passages(s.body_raw, query, local, s.heading, limit, near)
        out.append([(s.text_start + a, s.text_start + b, share) for a, b, share in found])
    return out


def compress(
    results: Sequence[dict[str, Any]], query: str, window: int = 1
) -> list[dict[str, Any]]:
    """Each result's text cut to the sentences sharing a word (by 5-letter stem) with the
    query, plus `window` sentences either side; a result with no such sentence keeps its
    first sentence. Adds `compressed_from` (characters before)."""
    wanted = _stems(query)
    out = []
    for r in results:
        sentences = [s for s in SENTENCE_END.split(r["text"]) if s.strip()]
        hits = [i for i, s in enumerate(sentences) if _stems(s) & wanted]
        keep = sorted(
            {j for i in hits for j in range(i - window, i + window + 1) if 0 <= j < len(sentences)}
        ) or [0]
        parts, last = [], None
        for i in keep:
            if last is not None and i != last + 1:
                parts.append("…")
            parts.append(sentences[i])
            last = i
        out.append({**r, "text": " ".join(parts), "compressed_from": len(r["text"])})
    return out


_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_CARD = re.compile(r"\b(?:\d[ -]?){12,18}\d\b")
# International (+44 20 7946 0958), with an area code in brackets, or US 555-123-4567; never
# a piece of a longer run of digits.
_PHONE = re.compile(
    r"(?<![\w+])(?:\+\d{1,3}(?:[ .-]?\d{1,4}){2,4}|\(\d{2,4}\)[ .-]?\d{3,4}[ .-]?\d{3,4}"
    r"|\d{3}[ .-]\d{3}[ .-]\d{4})(?![ .-]?\d)"
)


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def redact_pii(text: str) -> tuple[str, dict[str, int]]:
    """Emails, US SSNs, card numbers (Luhn-valid) and phone numbers replaced by a tag."""
    counts = {"email": 0, "ssn": 0, "card": 0, "phone": 0}

    def sub(kind: str, pattern: re.Pattern[str], check: Callable[[str], bool] | None = None):
        def repl(m: re.Match[str]) -> str:
            if check and not check(m.group(0)):
                return m.group(0)
            counts[kind] += 1
            return f"[{kind.upper()}]"

        return lambda t: pattern.sub(repl, t)

    for step in (
        sub("email", _EMAIL),
        sub("ssn", _SSN),
        sub("card", _CARD, lambda s: _luhn(re.sub(r"\D", "", s))),
        sub("phone", _PHONE, lambda s: len(re.sub(r"\D", "", s)) >= 7),
    ):
        text = step(text)
    return text, counts


@dataclass(frozen=True)
class ContextPack:
    text: str
    citations: list[dict[str, Any]]  # [n] -> doc_id, label, heading, section_id, pages
    tokens: int
    dropped: list[dict[str, Any]]  # results that did not fit the budget
    redactions: dict[str, int]


def context_pack(
    results: Sequence[dict[str, Any]],
    budget_tokens: int,
    count_tokens: TokenCounter,
    redact: bool = False,
) -> ContextPack:
    """Passages in result order, each headed by its [n] citation, while they fit the budget.
    A passage that does not fit is skipped (a later, shorter one may still fit)."""
    if budget_tokens < 1:
        raise ValueError(f"budget_tokens must be positive, got {budget_tokens}")
    blocks: list[str] = []
    citations: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    used = 0
    redactions = {"email": 0, "ssn": 0, "card": 0, "phone": 0}
    for r in results:
        text = r["text"]
        if redact:
            text, found = redact_pii(text)
            redactions = {k: redactions[k] + found[k] for k in redactions}
        n = len(citations) + 1
        block = f"[{n}] {r['doc_id']} § {r['label']} {r['heading']}\n{text}"
        cost = count_tokens(block) + 1
        if used + cost > budget_tokens:
            dropped.append({"doc_id": r["doc_id"], "label": r["label"], "tokens": cost})
            continue
        used += cost
        blocks.append(block)
        citations.append(
            {
                "n": n,
                "doc_id": r["doc_id"],
                "label": r["label"],
                "heading": r["heading"],
                "section_id": r.get("section_id"),
                "page_start": r.get("page_start"),
                "page_end": r.get("page_end"),
            }
        )
    return ContextPack("\n\n".join(blocks), citations, used, dropped, redactions)
