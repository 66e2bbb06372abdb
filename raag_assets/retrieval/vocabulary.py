"""The words a document uses for what a query says in other words: British spellings in
American documents and back ("licence", "license"; breame's lists), and plain words for what
contracts say in drafting terms ("ends" for "termination" or "expiration", "hire" for
"employ"). They are added to the words a search matches (full text, and the query terms a
passage is chosen by), never to what the model embeds: the model reads the query as written."""

import functools
import re

import Stemmer
from breame.data.spelling_constants import AMERICAN_ENGLISH_SPELLINGS, BRITISH_ENGLISH_SPELLINGS

# (words a query may use, words a document writes for them). One direction: a query that
# says "terminate" does not also mean "ends". Each group is a general equivalence of
# contract drafting, not a phrasing of one document.
DRAFTING: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    # an agreement "ends" by termination or expiration
    (("end", "ends", "ended", "ending"), ("terminate", "termination", "expire", "expiration")),
    (("cancel", "cancels", "cancelled", "canceled", "cancellation"), ("terminate", "termination")),
    (("start", "starts", "begin", "begins", "beginning"), ("commence", "commencement")),
    (("renew", "renews", "renewal"), ("extend", "extension")),
    (("transfer", "transferred", "transfers"), ("assign", "assignment")),
    (("hire", "hires", "hiring", "hired", "poach", "poaching"), ("employ", "employment")),
    (("staff", "workers"), ("employees", "personnel")),
    (("buy", "buys", "bought"), ("purchase",)),
    (("sell", "sells", "sold"), ("sale",)),
    (("break", "breaks", "broken"), ("breach",)),
    (("cap", "capped"), ("exceed", "limitation", "aggregate")),
    (("penalty", "penalties", "fine", "fines"), ("liquidated", "damages")),
    (("refund", "refunds"), ("reimburse", "reimbursement")),
    (("own", "owns", "owned", "owner"), ("title", "ownership", "vest")),
    (("secret", "secrets"), ("confidential", "confidentiality")),
    (("guarantee", "guarantees", "guaranteed"), ("warrant", "warranty")),
    (("inspect", "inspection"), ("audit", "examine")),
    (("sue", "sues", "suing", "sued", "lawsuit"), ("action", "proceeding", "litigation")),
    (("court", "courts"), ("jurisdiction", "venue")),
    (("lawyer", "lawyers"), ("counsel", "attorney")),
    (("stop", "stops"), ("cease",)),
)

_WORD = re.compile(r"[A-Za-z]+")


@functools.cache
def _equivalents() -> dict[str, tuple[str, ...]]:
    """Each query word with the words a document may use for it."""
    out: dict[str, list[str]] = {}
    stem = Stemmer.Stemmer("english").stemWord
    for spellings in (BRITISH_ENGLISH_SPELLINGS, AMERICAN_ENGLISH_SPELLINGS):
        for word, other in spellings.items():
            # not a spelling whose stem is the word's, or the word's and more: it matches
            # nothing new, or another word ("programme": "programm", the stem of "programmer")
            if not stem(other).startswith(stem(word)):
                out.setdefault(word, []).append(other)
    for plain, drafted in DRAFTING:
        for word in plain:
            out.setdefault(word, []).extend(drafted)
    return {w: tuple(dict.fromkeys(ws)) for w, ws in out.items()}


def document_words(query: str) -> dict[str, str]:
    """The words a document may write for the query's words, each with the query word it
    stands for (lowercased), in the query's order; none the query already holds."""
    words = [w.lower() for w in _WORD.findall(query)]
    held = set(words)
    table = _equivalents()
    out: dict[str, str] = {}
    for w in words:
        for other in table.get(w, ()):
            if other not in held and other not in out:
                out[other] = w
    return out


def with_document_words(query: str) -> str:
    """The query with the words a document may write for its own (`document_words`) after
    it: what full-text search matches."""
    added = document_words(query)
    return f"{query} {' '.join(added)}" if added else query
