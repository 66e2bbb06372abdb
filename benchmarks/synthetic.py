"""Synthetic tenants for the scale benchmarks (bench_latency, bench_tenants): text drawn from
real words at their real frequencies, clustered unit vectors, a random reference graph, all
written with COPY. Nothing here is a model's output: figures from these rows measure the
store, not retrieval quality.

Vectors are clustered, not uniform: HNSW recall on uniform random 384-d vectors is far below
what real embeddings get (every point is about equally far from every other), so a recall
figure from them says little. Each document draws a cluster; a chunk is the cluster's centre
plus a step in a 24-dimensional subspace of its own family (64 families), plus a little
isotropic noise, normalised. Neighbours then lie on low-dimensional sheets, as sentence
embeddings do (their intrinsic dimension is a few dozen), and a chunk's cosine to its
cluster's centre is about 0.75. Centres share a common direction and one of 32 topics, as
real embeddings share a mean and themes: centres of one topic are about 0.45 alike, of two
topics about 0.15, so clusters are neighbours of clusters, not islands.
"""

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from psycopg.types.json import Jsonb

from raag_assets.core.identity import sha256_hex
from raag_assets.store import db
from raag_assets.store import documents as store

DIMS = 384
CHUNKS_PER_SECTION, SECTIONS_PER_DOC, WORDS_PER_CHUNK = 4, 40, 60
FAMILIES, FAMILY_DIMS = 64, 24
DOCUMENT_COLUMNS = (
    "tenant_id, doc_id, source_name, format, tags, metadata, content_hash, raw_text, text, lines"
)
SECTION_COLUMNS = "tenant_id, section_id, doc_id, ordinal, label, heading, level, text"
CHUNK_COLUMNS = (
    "tenant_id, doc_id, chunk_index, section_id, content, content_hash, token_count, tags, "
    "embedding"
)
CHUNK_TYPES = ["text", "text", "int4", "text", "text", "text", "int4", "text[]", "vector"]
EDGE_COLUMNS = (
    "tenant_id, edge_id, stage, ordinal, edge_type, layer, src_doc_id, src_section_id, "
    "dst_doc_id, dst_section_id, matched_text, normalized_target, confidence"
)


def vocabulary() -> tuple[list[str], np.ndarray]:
    """Real words with Zipf-like frequencies, from the licence texts on the machine."""
    text = " ".join(
        p.read_text(errors="ignore") for p in Path("/usr/share/common-licenses").glob("*GPL-3")
    )
    counts: dict[str, int] = {}
    for w in re.findall(r"[a-z]{2,}", text.lower()):
        counts[w] = counts.get(w, 0) + 1
    vocab = sorted(counts, key=lambda w: (-counts[w], w))
    weights = np.array([counts[w] for w in vocab], dtype=np.float64)
    return vocab, weights / weights.sum()


@dataclass
class Space:
    """Where clustered vectors come from: cluster centres and per-family subspaces."""

    centres: np.ndarray  # (clusters, DIMS), unit rows
    bases: np.ndarray  # (FAMILIES, FAMILY_DIMS, DIMS), orthonormal rows
    documents: dict[str, np.ndarray] = field(default_factory=dict)  # tenant -> doc clusters

    @classmethod
    def make(cls, clusters: int, rng: np.random.Generator) -> "Space":
        common = _unit(rng.standard_normal((1, DIMS)).astype(np.float32))
        topics = _unit(rng.standard_normal((32, DIMS)).astype(np.float32))
        own = _unit(rng.standard_normal((clusters, DIMS)).astype(np.float32))
        centres = _unit(0.4 * common + 0.6 * topics[np.arange(clusters) % 32] + 0.7 * own)
        bases = np.stack(
            [np.linalg.qr(rng.standard_normal((DIMS, FAMILY_DIMS)))[0].T for _ in range(FAMILIES)]
        ).astype(np.float32)
        return cls(centres, bases)

    def vectors(self, clusters: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One unit vector per entry of `clusters` (cluster numbers)."""
        steps = rng.standard_normal((len(clusters), FAMILY_DIMS)).astype(np.float32)
        sheet = np.einsum("nk,nkd->nd", steps, self.bases[clusters % FAMILIES]) * 0.17
        noise = rng.standard_normal((len(clusters), DIMS)).astype(np.float32) * 0.012
        return _unit(self.centres[clusters] + sheet + noise)

    def queries(self, tenant: str, n: int, rng: np.random.Generator) -> np.ndarray:
        """Query vectors drawn like the tenant's chunks, from the clusters of its documents (a
        question lands near the passages it asks about; one from a cluster the tenant lacks
        has a top 10 of near-ties, where recall says nothing)."""
        return self.vectors(rng.choice(self.documents[tenant], size=n), rng)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def populate(
    conn,
    tenant: str,
    n_chunks: int,
    rng: np.random.Generator,
    words: tuple[list[str], np.ndarray],
    space: Space,
    *,
    index_after_load: bool = False,
    sections_per_doc: int = SECTIONS_PER_DOC,
    vacuum: bool = True,
) -> dict[str, float]:
    """A registered tenant with `n_chunks` synthetic chunks (documents of `sections_per_doc`
    sections of CHUNKS_PER_SECTION chunks), two edges per section. `index_after_load`: the
    chunks partition is detached, loaded without its vector and full-text indexes, indexed,
    and attached again (how a bulk load is done; the index build is then timed on its own).
    Returns seconds per phase."""
    times: dict[str, float] = {}
    start = time.perf_counter()
    db.add_tenant(conn, tenant)
    part = f"chunks__{tenant}"
    if index_after_load:
        conn.execute(f'ALTER TABLE chunks DETACH PARTITION "{part}"')
        for (name,) in conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = %s AND indexdef ~ 'hnsw|gin'",
            [part],
        ).fetchall():
            conn.execute(f'DROP INDEX "{name}"')
    n_sections = -(-n_chunks // CHUNKS_PER_SECTION)
    n_docs = -(-n_sections // sections_per_doc)
    doc_cluster = space.documents[tenant] = rng.integers(len(space.centres), size=n_docs)
    with conn.transaction(), conn.cursor() as cur:
        with cur.copy(f"COPY documents ({DOCUMENT_COLUMNS}) FROM STDIN") as copy:
            for d in range(n_docs):
                copy.write_row(
                    (tenant, f"doc-{d:05d}", f"doc-{d:05d}.txt", "text", ["synthetic"],
                     Jsonb({}), sha256_hex(str(d)), "", "", Jsonb([]))
                )  # fmt: skip
        with cur.copy(f"COPY sections ({SECTION_COLUMNS}) FROM STDIN") as copy:
            for s in range(n_sections):
                d, o = divmod(s, sections_per_doc)
                copy.write_row(
                    (tenant, f"s{s:07d}", f"doc-{d:05d}", o, str(o + 1), f"Section {o + 1}", 1, "")
                )
        target = f'"{part}"' if index_after_load else "chunks"
        with cur.copy(f"COPY {target} ({CHUNK_COLUMNS}) FROM STDIN WITH (FORMAT BINARY)") as copy:
            copy.set_types(CHUNK_TYPES)
            rows = _chunk_rows(tenant, n_chunks, rng, words, space, doc_cluster, sections_per_doc)
            for row in rows:
                copy.write_row(row)
        with cur.copy(f"COPY edges ({EDGE_COLUMNS}) FROM STDIN") as copy:
            kinds = ["references", "uses_term", "depends_on", "topically_related"]
            for s in range(n_sections):
                for j in range(2):
                    t = int(rng.integers(n_sections))
                    copy.write_row(
                        (tenant, f"e{s}-{j}", "edges", 2 * s + j, kinds[(s + j) % 4], 1,
                         f"doc-{s // sections_per_doc:05d}", f"s{s:07d}",
                         f"doc-{t // sections_per_doc:05d}", f"s{t:07d}", "see Section 1",
                         "synthetic", 0.9)
                    )  # fmt: skip
    times["load"] = time.perf_counter() - start
    if index_after_load:
        times.update(_index_and_attach(conn, part, tenant))
    store.count_live_chunks(conn, tenant)  # what the sections stage keeps for full-text IDF
    if not vacuum:
        return times
    # The steady state of a store that autovacuum has caught up with: statistics for the
    # planner and a visibility map, and no vacuum of the fresh rows running under the timings.
    start = time.perf_counter()
    for table in ("chunks", "sections", "edges", "documents"):
        conn.execute(f'VACUUM (ANALYZE) "{table}__{tenant}"')
    times["vacuum"] = time.perf_counter() - start
    return times


def _chunk_rows(
    tenant: str,
    n_chunks: int,
    rng: np.random.Generator,
    words: tuple[list[str], np.ndarray],
    space: Space,
    doc_cluster: np.ndarray,
    sections_per_doc: int,
    batch: int = 20_000,
) -> Iterator[tuple]:
    vocab, probs = words
    per_doc = CHUNKS_PER_SECTION * sections_per_doc
    for lo in range(0, n_chunks, batch):
        hi = min(n_chunks, lo + batch)
        picks = rng.choice(len(vocab), size=(hi - lo, WORDS_PER_CHUNK), p=probs)
        vectors = space.vectors(doc_cluster[np.arange(lo, hi) // per_doc], rng)
        for i, c in enumerate(range(lo, hi)):
            s = c // CHUNKS_PER_SECTION
            content = " ".join(vocab[w] for w in picks[i])
            doc = f"doc-{c // per_doc:05d}"
            yield (tenant, doc, c % per_doc, f"s{s:07d}", content, sha256_hex(content)[:32],
                   WORDS_PER_CHUNK, ["synthetic"], vectors[i])  # fmt: skip


def _index_and_attach(conn, part: str, tenant: str) -> dict[str, float]:
    """Build the detached partition's vector and full-text indexes, then attach it: the
    partitioned indexes adopt the ones built (their definitions match)."""
    out = {}
    start = time.perf_counter()
    # as the store's own vector index is built (its WITH options, migration 017), so the
    # partitioned index adopts it on attach
    options = conn.execute(
        "SELECT coalesce(array_to_string(reloptions, ', '), '') FROM pg_class "
        "WHERE relname = 'chunks_embedding_hnsw'"
    ).fetchone()[0]
    conn.execute(
        f'CREATE INDEX ON "{part}" USING hnsw (embedding vector_cosine_ops)'
        + (f" WITH ({options})" if options else "")
    )
    out["hnsw_build"] = time.perf_counter() - start
    start = time.perf_counter()
    conn.execute(f'CREATE INDEX ON "{part}" USING gin (tsv)')
    conn.execute(f'CREATE INDEX ON "{part}" USING gin (tags)')
    conn.execute(f'CREATE INDEX ON "{part}" USING gin (metadata jsonb_path_ops)')
    out["gin_build"] = time.perf_counter() - start
    start = time.perf_counter()
    conn.execute(f"ALTER TABLE chunks ATTACH PARTITION \"{part}\" FOR VALUES IN ('{tenant}')")
    out["attach"] = time.perf_counter() - start
    return out
