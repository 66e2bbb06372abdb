"""Query analysis (before retrieval): `#tag` becomes a tag filter, "in document X" a
document filter, whitespace is normalised."""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from raag_assets.errors import InvalidFilter
from raag_assets.graph.model import DocInfo
from raag_assets.graph.references import Corpus

_TAG = re.compile(r"(?<![\w#&])#([A-Za-z0-9][\w-]{0,63})")
_DOC = re.compile(
    r"\bin\s+(?:the\s+)?(?:document|doc)\s+[\"'“]?(?P<name>[^\"'”,;?!]+?)[\"'”]?\s*(?=$|[,;?!.])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class QueryAnalysis:
    query: str  # what is searched for, filters removed
    tags: tuple[str, ...]
    doc_ids: tuple[str, ...]


def analyze(query: str, docs: Sequence[DocInfo] | Callable[[], Sequence[DocInfo]]) -> QueryAnalysis:
    """`docs` may be a callable: the tenant's documents are only needed for "in document"."""
    tags = tuple(dict.fromkeys(m.group(1) for m in _TAG.finditer(query)))
    text = _TAG.sub(" ", query)
    doc_ids: list[str] = []
    mentions = list(_DOC.finditer(text))
    if mentions and callable(docs):
        docs = docs()
    corpus = Corpus(docs, []) if mentions else None  # type: ignore[arg-type]
    for m in mentions:
        name = m.group("name").strip()
        doc_id = next((d.doc_id for d in docs if d.doc_id.casefold() == name.casefold()), None)
        if doc_id is None:
            doc_id, _ = corpus.find_doc(name)  # type: ignore[union-attr]
        if doc_id is None:
            raise InvalidFilter(
                f"no document matching {name!r} in this tenant (from 'in document')"
            )
        doc_ids.append(doc_id)
    text = _DOC.sub(" ", text)
    clean = " ".join(text.split())
    if not clean:
        raise InvalidFilter("query is empty once #tags and 'in document' are taken out")
    return QueryAnalysis(clean, tags, tuple(dict.fromkeys(doc_ids)))
