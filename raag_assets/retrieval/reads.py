"""The store reads of one search, for one tenant, inside its reader transaction
(`db.tenant_reader`): documents and what names them (query analysis), the sections of caller
chunks (candidates), sections and the edges touching them (expansion). The SQL is in
sql/queries, loaded by name."""

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, cast

import numpy as np
import psycopg

from raag_assets.core.kept import Kept
from raag_assets.core.model import DocInfo
from raag_assets.graph.references import Corpus
from raag_assets.retrieval.model import GraphEdge, SectionView
from raag_assets.retrieval.query import DocDescriptor, NameIndex
from raag_assets.store import graph as graph_store
from raag_assets.store.db import conninfo, load_sql

OPENING_CHARS = 600  # of a document's text, where its title block names parties and date
KEPT_VALUES = 64  # name indexes and corpora kept in this process (~MBs at 5,000 documents)
_kept_values: Kept[tuple[str, str, int, str], object] = Kept(KEPT_VALUES)
T = TypeVar("T")


class Reads:
    """A tenant's rows as search reads them. `history`: earlier versions of changed
    documents count too (an as-of search)."""

    def __init__(self, conn: psycopg.Connection, tenant: str, *, history: bool = False) -> None:
        self.conn, self.tenant, self.history = conn, tenant, history

    def documents(self) -> list[DocInfo]:
        return graph_store.documents(self.conn, self.tenant)

    def descriptors(self) -> list[DocDescriptor]:
        rows = self.conn.execute(
            load_sql("select_document_descriptors"),
            {"tenant": self.tenant, "opening": OPENING_CHARS},
        )
        return [DocDescriptor(*r) for r in rows]

    def names(self) -> NameIndex:
        """What names each of the tenant's documents (a query naming one is resolved by it)."""
        return self._kept("names", lambda: NameIndex.of(self.descriptors()))

    def corpus(self) -> Corpus:
        """The tenant's documents indexed by the names a citation uses ("in document X")."""
        return self._kept(f"corpus {self.history}", lambda: Corpus(self.documents(), []))

    @functools.cached_property
    def generation(self) -> int:
        """The tenant's generation, which every write to its documents or chunks moves on
        (migrations 012, 018), read once per search."""
        row = self.conn.execute(
            load_sql("select_tenant_generation"), {"tenant": self.tenant}
        ).fetchone()
        return row[0] if row else -1

    def _kept(self, kind: str, build: Callable[[], T]) -> T:
        """`build()`, kept in this process under the tenant's generation: a kept value is
        always the one the documents would give. Built per query these cost ~0.3 s and ~70 ms
        at 5,000 documents."""
        key = (conninfo(self.conn), self.tenant, self.generation, kind)
        value = _kept_values.get(key)
        if value is None:
            value = build()
            _kept_values.put(key, value)
        return cast(T, value)

    @functools.cached_property
    def superseded(self) -> set[str]:
        """The documents another replaces, read once (not an earlier numbered version such as
        GPL-2 beside GPL-3: both stay in force)."""
        return graph_store.replaced_documents(self.conn, self.tenant)

    def chunk_sections(self, keys: Sequence[tuple[str, int]]) -> dict[tuple[str, int], str]:
        """The section of each (doc_id, chunk_index)."""
        if not keys:
            return {}
        rows = self.conn.execute(
            load_sql("select_chunk_sections"),
            {
                "tenant": self.tenant,
                "doc_ids": [d for d, _ in keys],
                "chunk_indexes": [i for _, i in keys],
            },
        ).fetchall()
        return {(r[0], r[1]): r[2] for r in rows}

    def sections(self, ids: Sequence[str]) -> dict[str, SectionView]:
        if not ids:
            return {}
        superseded = self.superseded
        rows = self.conn.execute(
            load_sql("select_search_sections"),
            {"tenant": self.tenant, "ids": list(ids), "history": self.history},
        )
        return {r[0]: _section(r, superseded) for r in rows}

    def chunk_similarities(
        self, sections: Sequence[SectionView], embedding: np.ndarray
    ) -> dict[str, list[tuple[int, int, float]]]:
        """Each section's chunks as (char_start, char_end, cosine similarity to `embedding`),
        in order."""
        if not sections:
            return {}
        rows = self.conn.execute(
            load_sql("select_chunk_similarities"),
            {
                "tenant": self.tenant,
                "doc_ids": sorted({s.doc_id for s in sections}),
                "ids": [s.section_id for s in sections],
                "embedding": embedding,
            },
        )
        out: dict[str, list[tuple[int, int, float]]] = {}
        for section_id, start, end, similarity in rows:
            out.setdefault(section_id, []).append((start, end, float(similarity)))
        return out

    def edges(self, ids: Iterable[str]) -> list[GraphEdge]:
        """Edges with a section endpoint among `ids`, in edge id order."""
        rows = self.conn.execute(
            load_sql("select_edges_touching"), {"tenant": self.tenant, "ids": list(ids)}
        )
        return [GraphEdge(*r) for r in rows]

    def document_edges(self, doc_ids: Iterable[str]) -> list[GraphEdge]:
        """Document-level edges from the given documents, in edge id order."""
        rows = self.conn.execute(
            load_sql("select_document_edges"), {"tenant": self.tenant, "doc_ids": list(doc_ids)}
        )
        return [GraphEdge(*r) for r in rows]


def _section(r: Sequence[Any], superseded: set[str]) -> SectionView:
    return SectionView(
        section_id=r[0],
        doc_id=r[1],
        ordinal=r[2],
        label=r[3],
        heading=r[4],
        text=r[5],
        page_start=r[6],
        page_end=r[7],
        parent_id=r[8],
        title=r[9],
        authority_level=r[10],
        effective_from=r[11],
        effective_to=r[12],
        topics=tuple(r[13]),
        superseded=r[1] in superseded,
        char_start=r[14],
        char_end=r[15],
        text_start=r[16],
        body_raw=r[17],
    )
