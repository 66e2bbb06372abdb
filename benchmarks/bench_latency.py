"""Latency of retrieve() and search() at scale: one tenant with 100k chunks (synthetic text
drawn from the licence texts' vocabulary, random unit vectors, a random reference graph) next
to two smaller tenants. Prints p50/p95, the overhead of search() over retrieve(), common-word
full-text queries against the unbounded ranking baseline, and the query plans.

Run: make bench-latency   (about 5 minutes; CHUNKS=20000 for a quicker look)
"""

import os
import re
import shutil
import statistics
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
HOME = Path(tempfile.mkdtemp(prefix="raag-latency-"))
os.environ["RAAG_HOME"] = str(HOME)
os.environ.pop("RAAG_DATABASE_URL", None)

import numpy as np  # noqa: E402
from psycopg.types.json import Jsonb  # noqa: E402

from raag_assets.core.identity import sha256_hex  # noqa: E402
from raag_assets.ingest.embedding import shared_embedder  # noqa: E402
from raag_assets.retrieval.candidates import (  # noqa: E402
    FULLTEXT_CAP,
    RetrievalPlan,
    cached_queries,
    retrieve,
)
from raag_assets.retrieval.search import search  # noqa: E402
from raag_assets.store import db  # noqa: E402
from raag_assets.store import documents as store  # noqa: E402

CHUNKS = int(os.environ.get("CHUNKS", 100_000))
TENANTS = {"big": CHUNKS, "small-a": 5_000, "small-b": 5_000}
CHUNKS_PER_SECTION, SECTIONS_PER_DOC, WORDS_PER_CHUNK = 4, 40, 60
QUERIES = [
    "termination of the license for patent litigation",
    "distribution of modified source code",
    "warranty disclaimer and limitation of liability",
    "conveying object code in a user product",
    "installation information for consumer products",
    "additional permissions and further restrictions",
    "the license and the work",  # common words: matches most rows
    "you may convey the program",  # common words
    "copyright notice of the covered work",
    "sublicensing is not allowed",
]
COMMON = ["the license and the work", "you may convey the program", "work license program"]


def vocabulary() -> tuple[list[str], np.ndarray]:
    """Real words with Zipf-like frequencies, from the licence texts on the machine."""
    text = " ".join(
        p.read_text(errors="ignore") for p in Path("/usr/share/common-licenses").glob("*GPL-3")
    )
    words = re.findall(r"[a-z]{2,}", text.lower())
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    vocab = sorted(counts, key=lambda w: (-counts[w], w))
    weights = np.array([counts[w] for w in vocab], dtype=np.float64)
    return vocab, weights / weights.sum()


def populate(conn, tenant: str, n_chunks: int, rng: np.random.Generator, vocab, probs) -> None:
    db.add_tenant(conn, tenant)
    n_sections = n_chunks // CHUNKS_PER_SECTION
    n_docs = -(-n_sections // SECTIONS_PER_DOC)
    words = rng.choice(len(vocab), size=(n_chunks, WORDS_PER_CHUNK), p=probs)
    vectors = rng.standard_normal((n_chunks, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with conn.transaction(), conn.cursor() as cur:
        with cur.copy(
            "COPY documents (tenant_id, doc_id, source_name, format, tags, metadata, "
            "content_hash, raw_text, text, lines) FROM STDIN"
        ) as copy:
            for d in range(n_docs):
                copy.write_row(
                    (
                        tenant,
                        f"doc-{d:05d}",
                        f"doc-{d:05d}.txt",
                        "text",
                        ["synthetic"],
                        Jsonb({}),
                        sha256_hex(str(d)),
                        "",
                        "",
                        Jsonb([]),
                    )
                )
        with cur.copy(
            "COPY sections (tenant_id, section_id, doc_id, ordinal, label, heading, level, text) "
            "FROM STDIN"
        ) as copy:
            for s in range(n_sections):
                d, o = divmod(s, SECTIONS_PER_DOC)
                copy.write_row(
                    (
                        tenant,
                        f"s{s:07d}",
                        f"doc-{d:05d}",
                        o,
                        str(o + 1),
                        f"Section {o + 1}",
                        1,
                        "",
                    )
                )
        with cur.copy(
            "COPY chunks (tenant_id, doc_id, chunk_index, section_id, content, content_hash, "
            "token_count, tags, embedding) FROM STDIN WITH (FORMAT BINARY)"
        ) as copy:
            copy.set_types(
                ["text", "text", "int4", "text", "text", "text", "int4", "text[]", "vector"]
            )
            for c in range(n_chunks):
                s = c // CHUNKS_PER_SECTION
                d = s // SECTIONS_PER_DOC
                content = " ".join(vocab[w] for w in words[c])
                copy.write_row(
                    (
                        tenant,
                        f"doc-{d:05d}",
                        c % (CHUNKS_PER_SECTION * SECTIONS_PER_DOC),
                        f"s{s:07d}",
                        content,
                        sha256_hex(content)[:32],
                        WORDS_PER_CHUNK,
                        ["synthetic"],
                        vectors[c],
                    )
                )
        with cur.copy(
            "COPY edges (tenant_id, edge_id, stage, ordinal, edge_type, layer, src_doc_id, "
            "src_section_id, dst_doc_id, dst_section_id, matched_text, normalized_target, "
            "confidence) FROM STDIN"
        ) as copy:
            kinds = ["references", "uses_term", "depends_on", "topically_related"]
            for s in range(n_sections):
                for j in range(2):
                    t = int(rng.integers(n_sections))
                    copy.write_row(
                        (
                            tenant,
                            f"e{s}-{j}",
                            "edges",
                            2 * s + j,
                            kinds[(s + j) % 4],
                            1,
                            f"doc-{s // SECTIONS_PER_DOC:05d}",
                            f"s{s:07d}",
                            f"doc-{t // SECTIONS_PER_DOC:05d}",
                            f"s{t:07d}",
                            "see Section 1",
                            "synthetic",
                            0.9,
                        )
                    )
    store.count_live_chunks(conn, tenant)  # what the sections stage keeps for full-text IDF
    # The steady state of a store that autovacuum has caught up with: statistics for the
    # planner and a visibility map, and no vacuum of the fresh rows running under the timings.
    for table in ("chunks", "sections", "edges", "documents"):
        conn.execute(f'VACUUM (ANALYZE) "{table}__{tenant}"')


def pct(values: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(values, n=100, method="inclusive")
    return q[49], q[94]


def timed(fn, repeat: int = 3) -> list[float]:
    out = []
    for _ in range(repeat):
        for query in QUERIES:
            start = time.perf_counter()
            fn(query)
            out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    rng = np.random.default_rng(7)
    vocab, probs = vocabulary()
    embed = shared_embedder("all-MiniLM-L6-v2", 32).embed
    with db.connect() as conn:
        for tenant, n in TENANTS.items():
            start = time.perf_counter()
            populate(conn, tenant, n, rng, vocab, probs)
            print(
                f"tenant {tenant}: {n} chunks loaded and indexed in "
                f"{time.perf_counter() - start:.1f} s"
            )

        plan = RetrievalPlan()
        for query in QUERIES:  # warm: caches, plans, the model
            retrieve(conn, query, "big", embed, plan)
            search(query, "big", conn=conn, embed=embed, max_expansion_hops=2)
        embed_ms = timed(lambda q: embed([q]))
        cached = cached_queries(embed)
        steps: dict[str, list[float]] = {}

        def search_steps(q: str) -> None:
            res = search(q, "big", conn=conn, embed=embed, max_expansion_hops=1)
            for step, ms in res.timings_ms.items():
                steps.setdefault(step, []).append(ms)

        rows = {
            "query embedding only": embed_ms,
            "retrieve()": timed(lambda q: retrieve(conn, q, "big", embed, plan)),
            "search() 1 hop": timed(
                lambda q: search(q, "big", conn=conn, embed=embed, max_expansion_hops=1)
            ),
            "search() 1 hop, query embedding cached": timed(
                lambda q: search(q, "big", conn=conn, embed=cached, max_expansion_hops=1)
            ),
            "retrieve(), query embedding cached": timed(
                lambda q: retrieve(conn, q, "big", cached, plan)
            ),
            "search() 2 hops": timed(
                lambda q: search(q, "big", conn=conn, embed=embed, max_expansion_hops=2)
            ),
            "full-text only": timed(
                lambda q: retrieve(conn, q, "big", embed, RetrievalPlan(mode="fulltext"))
            ),
            "vector only": timed(
                lambda q: retrieve(conn, q, "big", embed, RetrievalPlan(mode="vector"))
            ),
        }
        print(f"\nwarm latency, {len(QUERIES)} queries x 3, tenant 'big' ({CHUNKS} chunks)")
        print(f"{'call':<40} {'p50 ms':>8} {'p95 ms':>8}")
        for name, values in rows.items():
            p50, p95 = pct(values)
            print(f"{name:<40} {p50:>8.1f} {p95:>8.1f}")
        timed(search_steps)
        print("\nsearch() 1 hop, per step (EnrichedResults.timings_ms)")
        for step, values in steps.items():
            p50, p95 = pct(values)
            print(f"  {step:<20} {p50:>8.1f} {p95:>8.1f}")
        base = statistics.median(rows["retrieve()"])
        for name in ("search() 1 hop", "search() 2 hops"):
            print(f"{name} / retrieve(), medians: {statistics.median(rows[name]) / base:.2f}x")

        print("\ncommon-word full-text queries: bounded ranking vs ranking every match")
        unbounded = (
            "SELECT doc_id, chunk_index, ts_rank_cd(tsv, q) AS r FROM chunks__big, "
            "to_tsquery('simple', %(q)s) q WHERE tsv @@ q "
            "ORDER BY r DESC, doc_id, chunk_index LIMIT 50"
        )
        fulltext = RetrievalPlan(mode="fulltext")
        for query in COMMON:
            lexemes = conn.execute(
                "SELECT array_to_string(tsvector_to_array(to_tsvector('english', %s)), ' | ')",
                [query],
            ).fetchone()[0]
            matches = conn.execute(
                "SELECT count(*) FROM chunks "
                "WHERE tenant_id = 'big' AND tsv @@ to_tsquery('simple', %s)",
                [lexemes],
            ).fetchone()[0]
            times_b, times_u = [], []
            for _ in range(5):
                start = time.perf_counter()
                retrieve(conn, query, "big", lambda t: None, fulltext)  # no vector side
                times_b.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                conn.execute(unbounded, {"q": lexemes}).fetchall()
                times_u.append((time.perf_counter() - start) * 1000)
            b, u = statistics.median(times_b), statistics.median(times_u)
            print(
                f"  {query!r}: {matches} matching rows; bounded {b:.1f} ms, "
                f"unbounded {u:.1f} ms ({u / b:.1f}x)"
            )

        filters = {"tenant": "big", "pool": 50, "tags_any": None, "tags_all": None,
                   "metadata": Jsonb({}), "doc_ids": None, "history": False}  # fmt: skip
        explain(
            conn,
            "vector candidates",
            "retrieve_vector",
            {**filters, "embedding": embed([QUERIES[0]])[0]},
            setup=("SET LOCAL hnsw.ef_search = 50", "SET LOCAL hnsw.iterative_scan = strict_order"),
        )
        words = {"match": ["licens", "work"], "op": " & ", "rank": ["licens", "work"],
                 "df": [FULLTEXT_CAP + 1, FULLTEXT_CAP + 1], "rescore": 200}  # fmt: skip
        explain(
            conn,
            "full-text candidates for a common-word query",
            "retrieve_fulltext",
            {**filters, **words, "cap": FULLTEXT_CAP},
        )
        explain(
            conn,
            "graph expansion (edges touching 12 sections)",
            "select_edges_touching",
            {"tenant": "big", "ids": [f"s{i:07d}" for i in range(12)]},
        )


def explain(conn, title: str, query: str, params: dict, setup: tuple[str, ...] = ()) -> None:
    """The plan of a named query as retrieve() and search() run it: as the tenant's reader."""
    print(f"\nEXPLAIN, {title} (tenant 'big'):")
    with db.tenant_reader(conn, "big"):
        for statement in setup:
            conn.execute(statement)
        rows = conn.execute("EXPLAIN " + db.load_sql(query), params).fetchall()
    print("\n".join("  " + re.sub(r"'\[[^\]]*\]'", "'[…384 floats…]'", r[0]) for r in rows))


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(HOME, ignore_errors=True)
