"""retrieve(): the canonical candidate stage (ragd spec §4).

Vector top-k by cosine through HNSW and Postgres full-text top-k ranked by BM25, pool 50 each,
fused by Reciprocal Rank Fusion (k=60), final 12; filters tags_any, tags_all and top-level
metadata equality; ties broken by (doc_id, chunk_index). No Dagster here.

For search(), `primary_hits` turns the chunks into section hits (or takes the caller's own
candidates), and the query embedder of a process is `default_embed()`.
"""

import functools
import os
import re
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from raag_assets.core.errors import InvalidFilter
from raag_assets.core.kept import Kept
from raag_assets.core.settings import hnsw_ef_search
from raag_assets.ingest.embedding import DEFAULT_MODEL, Embedder
from raag_assets.retrieval.model import Hit
from raag_assets.retrieval.query import QueryAnalysis
from raag_assets.retrieval.reads import Reads
from raag_assets.retrieval.vocabulary import with_document_words
from raag_assets.store.db import conninfo, load_sql, side_pool, tenant_reader

Mode = Literal["hybrid", "vector", "fulltext"]
FULLTEXT_CAP = 2000  # most rows full-text ranking looks at for one query
# Most rows ranked, as a multiple of the pool, when even the query's rarest lexeme is common
# (every lexeme matches more than FULLTEXT_CAP chunks): rows must then hold all of them, and
# which of the many that do are ranked is arbitrary (the first in the table's order) however
# many are, so fewer are read. At 1M chunks each ranked row cost ~20 us of heap reads and
# ~7 us of ranking; 2000 of them were half the time of a common-word query.
FULLTEXT_ALL_WORDS_POOLS = 10
RRF_K = 60  # Reciprocal Rank Fusion constant (ragd canonical)
Key = tuple[str, int]  # (doc_id, chunk_index)


def query_threads() -> int:
    """Torch threads for embedding one query: RAAG_QUERY_THREADS, else all cores but one (at
    most 4), since Postgres ranks full-text on another core meanwhile. On two loaded cores a
    query took 21 ms on one thread against 152 ms on two (OpenMP threads spinning for a core
    the database holds); one short text gains little from more threads."""
    value = os.environ.get("RAAG_QUERY_THREADS", "").strip()
    if value:
        return max(1, int(value))
    return min(4, max(1, (os.cpu_count() or 1) - 1))


def _on_query_threads(fn: Callable[..., Any], *args: Any) -> Any:
    """fn(*args) on this pool thread with torch limited to query_threads(). With torch's
    OpenMP backend the count is the calling thread's own: batch embedding in other threads
    (ingest) keeps every core. Only once torch is loaded: an embed function may not use it."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(query_threads())
    return fn(*args)


_EMBEDDER = ThreadPoolExecutor(max_workers=2, thread_name_prefix="raag-embed")
EmbedFn = Callable[[list[str]], np.ndarray]


@dataclass(frozen=True)
class RetrievalPlan:
    """How to retrieve. Defaults are the ragd canonical values."""

    k: int = 12
    pool: int = 50
    rrf_k: int = RRF_K
    mode: Mode = "hybrid"
    tags_any: tuple[str, ...] = ()
    tags_all: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    doc_ids: tuple[str, ...] = ()  # only these documents ("in document X")
    history: bool = False  # also earlier versions of changed documents (as-of search)

    def __post_init__(self) -> None:
        if not 1 <= self.k <= 1000:
            raise InvalidFilter(f"k must be between 1 and 1000, got {self.k}")
        if not 1 <= self.pool <= 1000:
            raise InvalidFilter(f"pool must be between 1 and 1000, got {self.pool}")
        if self.rrf_k < 0:
            raise InvalidFilter(f"rrf_k must be 0 or more, got {self.rrf_k}")
        if self.mode not in ("hybrid", "vector", "fulltext"):
            raise InvalidFilter(f"mode must be hybrid, vector or fulltext, got {self.mode!r}")
        for name in ("tags_any", "tags_all", "doc_ids"):
            tags = getattr(self, name)
            if isinstance(tags, str) or not all(isinstance(t, str) for t in tags):
                raise InvalidFilter(f"{name} must be a list of strings, e.g. ['hr']")
            for tag in tags:
                check_text(tag, name)
        for key, value in self.metadata.items():
            if not isinstance(key, str) or not isinstance(value, str | int | float | bool):
                raise InvalidFilter(
                    f"metadata filter {key!r} must map to a string, number or boolean "
                    "(top-level equality only)"
                )
            check_text(key, "metadata filter key")
            check_text(value, "metadata filter value")


QUERY_CACHE = 1024  # query embeddings kept by cached_queries()


def cached_queries(embed: EmbedFn, size: int = QUERY_CACHE) -> EmbedFn:
    """`embed`, with the embeddings of the last `size` single texts (queries) remembered;
    batches (ingest, baselines) go straight to the model."""
    one = functools.lru_cache(maxsize=size)(lambda text: np.asarray(embed([text])[0]))

    def embed_cached(texts: list[str]) -> np.ndarray:
        if len(texts) != 1:
            return embed(texts)
        return one(texts[0])[None, :]

    return embed_cached


def check_text(value: object, what: str) -> None:
    """Refuse text Postgres cannot hold (a NUL character) before it reaches a query."""
    if isinstance(value, str) and "\x00" in value:
        raise InvalidFilter(f"{what} contains a NUL character (\\x00); remove it")


class Candidate(NamedTuple):
    doc_id: str
    chunk_index: int
    content: str
    score: float
    tags: list[str]
    metadata: dict[str, Any]
    section_id: str
    label: str
    heading: str
    page_start: int | None
    page_end: int | None
    vector_rank: int | None  # 1-based rank in the vector pool, None if absent
    fulltext_rank: int | None  # 1-based rank in the full-text pool, None if absent
    char_start: int | None = None  # the chunk's span in its document's raw text
    char_end: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


class Fused(NamedTuple):
    key: Key
    score: float
    ranks: tuple[int | None, ...]


def rrf_fuse(ranked: Sequence[Sequence[Key]], rrf_k: int = RRF_K) -> list[Fused]:
    """Reciprocal Rank Fusion: score = sum(1 / (rrf_k + rank)), rank from 1.

    Ordered by score descending, then (doc_id, chunk_index) ascending.
    """
    scores: dict[Key, float] = {}
    ranks: dict[Key, list[int | None]] = {}
    for list_no, keys in enumerate(ranked):
        for rank, key in enumerate(keys, start=1):
            if key in ranks and ranks[key][list_no] is not None:
                continue  # a key listed twice in one list counts once, at its best rank
            scores[key] = scores.get(key, 0.0) + 1.0 / (rrf_k + rank)
            ranks.setdefault(key, [None] * len(ranked))[list_no] = rank
    fused = [Fused(key, scores[key], tuple(ranks[key])) for key in scores]
    fused.sort(key=lambda f: (-f.score, f.key))
    return fused


def retrieve(
    conn: psycopg.Connection,
    query: str,
    tenant: str,
    embed: EmbedFn,
    plan: RetrievalPlan | None = None,
) -> list[Candidate]:
    """Candidates for `query` in `tenant`'s chunks, best first. Deterministic for a store state."""
    concurrent = can_run_beside(conn)
    with tenant_reader(conn, tenant):  # Postgres lets this transaction see one tenant only
        return retrieve_as_reader(conn, query, tenant, embed, plan, concurrent=concurrent)


def can_run_beside(conn: psycopg.Connection) -> bool:
    """Whether a second connection sees what `conn` sees: only when `conn` holds no transaction
    of its own (it could hold uncommitted rows another connection cannot read)."""
    return conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def retrieve_as_reader(
    conn: psycopg.Connection,
    query: str,
    tenant: str,
    embed: EmbedFn,
    plan: RetrievalPlan | None = None,
    *,
    concurrent: bool = False,
) -> list[Candidate]:
    """retrieve() for a caller already inside `db.tenant_reader(conn, tenant)`. `concurrent`:
    the vector candidates run on a pooled connection at the same time as the full-text ones
    (`can_run_beside(conn)` must have held before the caller's transaction began)."""
    plan = plan or RetrievalPlan()
    check_text(query, "query")
    query = " ".join(query.split())
    if not query:
        raise InvalidFilter("query is empty")
    params = {
        "tenant": tenant,
        "pool": plan.pool,
        "tags_any": list(plan.tags_any) or None,
        "tags_all": list(plan.tags_all) or None,
        "metadata": Jsonb(dict(plan.metadata)),
        "doc_ids": list(plan.doc_ids) or None,
        "history": plan.history,
    }
    lists: list[list[Key]] = []
    if plan.mode == "hybrid" and concurrent:
        # Embedding the query and the vector query (on a pooled connection, as this tenant's
        # reader) run while Postgres ranks full-text on `conn`: the two candidate lists cost
        # about the slower of the two instead of their sum.
        vector = _EMBEDDER.submit(
            _on_query_threads, _pooled_vector_keys, conn, tenant, query, embed, params
        )
        text_keys = _fulltext_keys(conn, query, params)
        lists = [vector.result(), text_keys]
    elif plan.mode == "hybrid":
        # The model embeds the query (it releases the GIL) while Postgres runs full-text.
        embedding = _EMBEDDER.submit(_on_query_threads, lambda: embed([query])[0])
        text_keys = _fulltext_keys(conn, query, params)
        lists = [_vector_keys(conn, embedding.result(), params), text_keys]
    elif plan.mode == "vector":
        lists.append(_vector_keys(conn, embed([query])[0], params))
    else:
        lists.append(_fulltext_keys(conn, query, params))
    fused = rrf_fuse(lists, plan.rrf_k)[: plan.k]
    if plan.mode == "fulltext":
        fused = [Fused(f.key, f.score, (None, *f.ranks)) for f in fused]
    elif plan.mode == "vector":
        fused = [Fused(f.key, f.score, (*f.ranks, None)) for f in fused]
    return _load(conn, tenant, fused)


def _vector_keys(conn: psycopg.Connection, embedding: np.ndarray, params: dict) -> list[Key]:
    # Enough of the HNSW graph is searched to fill the pool, and with filters the scan goes on
    # (iteratively, in exact distance order) until the pool is full or the index is exhausted.
    ef_search = max(hnsw_ef_search(), params["pool"])
    conn.execute(load_sql("set_vector_search"), {"ef_search": str(ef_search)})
    rows = conn.execute(load_sql("retrieve_vector"), {**params, "embedding": embedding}).fetchall()
    rows.sort(key=lambda r: (r[2], r[0], r[1]))  # distance, then the canonical tie-break
    return [(r[0], r[1]) for r in rows]


def _pooled_vector_keys(
    conn: psycopg.Connection, tenant: str, query: str, embed: EmbedFn, params: dict
) -> list[Key]:
    embedding = embed([query])[0]
    with side_pool(conn).connection() as side, tenant_reader(side, tenant):
        return _vector_keys(side, embedding, params)


def _fulltext_keys(conn: psycopg.Connection, query: str, params: dict) -> list[Key]:
    """Rows matching the query's rarest lexemes, ranked by BM25 over all of them.

    The rarest lexemes pick rows, as many as together match at most FULLTEXT_CAP chunks, so
    no match is cut off arbitrarily; commoner ones ("leave" in an HR corpus) only rank. If
    even the rarest lexeme is that common, rows must contain all of them. Either way at most
    FULLTEXT_CAP rows are ranked, so a common-word query costs about what a rare one does, and
    in the second case, where the rows ranked are an arbitrary few of many, fewer still
    (`ranking_cap`), read in table order without the index when that is cheaper
    (`scan_in_table_order`)."""
    wide = with_document_words(query)  # words the documents may write for the query's
    lexemes_read = query_lexemes(conn, wide, params["tenant"])
    if lexemes_read is None:
        return []
    generation, live_chunks, counts = lexemes_read
    lexemes = [lexeme for lexeme, _ in counts]
    match, op = pick_matching_lexemes(counts, FULLTEXT_CAP)
    if op == " & " and wide != query:  # rows must hold every word: the query's own, not added
        own = lexeme_counts(conn, query, params["tenant"])
        match, op = pick_matching_lexemes(counts, FULLTEXT_CAP, {lexeme for lexeme, _ in own})
    cap = ranking_cap(op, params["pool"])
    text = tsquery_text(match, op)
    scan = op.strip() == "&" and scan_in_table_order(
        conn, (params["tenant"], generation, text), live_chunks, cap
    )
    before = None
    if scan:
        before = conn.execute(
            load_sql("set_fulltext_scan"), {"bitmapscan": "off", "syncscan": "off"}
        ).fetchone()
    try:
        rows = conn.execute(
            load_sql("retrieve_fulltext"),
            {
                **params,
                "match": text,
                "rank": lexemes,
                "df": [n for _, n in counts],
                "cap": cap,
                # Rows the true-tf pass re-ranks. Measured at 100k chunks: 2x the pool kept
                # 0.97 of the top 10 that 4x gave and cut the common-word p95 by 8 ms; SciFact
                # nDCG@10 unchanged (full-text 0.685, hybrid 0.724).
                "rescore": 2 * params["pool"],
            },
        ).fetchall()
    finally:
        # the caller's transaction goes on (search()); one that failed ends, and SET LOCAL with it
        failed = conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR
        if before is not None and not failed:
            conn.execute(
                load_sql("set_fulltext_scan"), {"bitmapscan": before[0], "syncscan": before[1]}
            )
    return [(r[0], r[1]) for r in rows]


# Most rows a sequential scan may be expected to read to collect the rows holding every
# lexeme of an all-common-word query, rather than intersecting the lexemes' posting lists in
# the GIN index. At 1M chunks the scan read ~0.3-0.6 us a row (hot), while the GIN bitmap of
# three or four words each in a quarter of the chunks cost 15-30 ms whatever the matches.
FULLTEXT_SCAN_ROWS = 20_000


def scan_pays(cap: int, live_chunks: int, matches: float) -> bool:
    """Whether a scan in table order is expected to meet `cap` of `matches` rows (spread over
    `live_chunks`) within FULLTEXT_SCAN_ROWS rows."""
    return cap * max(live_chunks, 1) <= FULLTEXT_SCAN_ROWS * matches


LEXEME_CACHE = 100_000  # (database, tenant, generation, lexeme) counts kept in this process
_scan_plans: Kept[tuple[str, str, int, str], bool] = Kept(LEXEME_CACHE)


def scan_in_table_order(
    conn: psycopg.Connection, key: tuple[str, int, str], live_chunks: int, cap: int
) -> bool:
    """Whether the first `cap` rows holding all of an all-common-word query's lexemes are
    cheaper to find by reading the tenant's chunks in table order than through the GIN index:
    when the planner's estimate of the rows that match (from the column statistics, so
    without reading them) says a scan meets `cap` of them within FULLTEXT_SCAN_ROWS rows.
    Both give the same rows, the first matches in table order, so results do not change.
    Cached as the lexeme counts are, under the tenant's chunks generation."""
    tenant, generation, text = key
    cache_key = (conninfo(conn), tenant, generation, text)
    kept = _scan_plans.get(cache_key)
    if kept is not None:
        return kept
    plan = conn.execute(
        load_sql("estimate_fulltext_matches"), {"tenant": tenant, "match": text}
    ).fetchone()
    scan = scan_pays(cap, live_chunks, float(plan[0][0]["Plan"]["Plan Rows"]) if plan else 0.0)
    _scan_plans.put(cache_key, scan)
    return scan


_lexeme_counts: Kept[tuple[str, str, int, str], int] = Kept(LEXEME_CACHE)


def lexeme_counts(conn: psycopg.Connection, query: str, tenant: str) -> list[tuple[str, int]]:
    """The query's lexemes with how many of the tenant's chunks hold each (up to the cap)."""
    read = query_lexemes(conn, query, tenant)
    return read[2] if read is not None else []


def query_lexemes(
    conn: psycopg.Connection, query: str, tenant: str
) -> tuple[int, int, list[tuple[str, int]]] | None:
    """The tenant's chunks generation and live chunk count, and the query's lexemes with how
    many of its chunks hold each (up to the cap); None when the query has no lexeme.
    Counting a common word costs ~10 ms at 100k chunks, and the same words recur across
    queries: counts are cached under the tenant's chunks generation, which every write to its
    chunks moves on (migration 012), so a cached count is always the count a query would get."""
    row = conn.execute(load_sql("fulltext_lexemes"), {"tenant": tenant, "query": query}).fetchone()
    if row is None or not row[1]:
        return None
    generation, lexemes, live_chunks = row
    database = conninfo(conn)
    keys = {lx: (database, tenant, generation, lx) for lx in lexemes}
    counts = {lx: _lexeme_counts.get(k) for lx, k in keys.items()}
    known = {lx: n for lx, n in counts.items() if n is not None}
    missing = [lx for lx in lexemes if lx not in known]
    if missing:
        rows = conn.execute(
            load_sql("fulltext_lexeme_counts"),
            {"tenant": tenant, "lexemes": missing, "cap": FULLTEXT_CAP},
        ).fetchall()
        for lx, n in rows:
            known[lx] = n
            _lexeme_counts.put(keys[lx], n)
    return generation, live_chunks, [(lx, known[lx]) for lx in lexemes]


def pick_matching_lexemes(
    counts: Sequence[tuple[str, int]], cap: int, own: Collection[str] | None = None
) -> tuple[list[str], str]:
    """The lexemes that select full-text rows, and how to join them: the rarest first while
    their match counts add up to at most `cap` (OR), else every lexeme (AND) of the query's
    `own` where some were added for it (a document's word for a query word is another way to
    match it, never one more word a row must hold)."""
    chosen, total = [], 0
    for lexeme, n in sorted(counts, key=lambda c: (c[1], c[0])):
        if n == 0:
            continue  # matches nothing; it cannot pick a row
        if total + n > cap:
            break
        chosen.append(lexeme)
        total += n
    if chosen:
        return chosen, " | "
    every = [lexeme for lexeme, _ in counts]
    return [lexeme for lexeme in every if own is None or lexeme in own] or every, " & "


def ranking_cap(op: str, pool: int) -> int:
    """Most rows the full-text query ranks: FULLTEXT_CAP when the rarest lexemes pick the rows
    (OR: every row they match fits), FULLTEXT_ALL_WORDS_POOLS x the pool (at most
    FULLTEXT_CAP) when all lexemes must match because none is rare (AND)."""
    if op.strip() == "|":
        return FULLTEXT_CAP
    return min(FULLTEXT_CAP, FULLTEXT_ALL_WORDS_POOLS * pool)


def tsquery_text(lexemes: Sequence[str], op: str) -> str:
    """The to_tsquery input joining `lexemes` by `op`, each quoted as SQL's quote_literal
    does (quotes and backslashes doubled, E'' where a backslash is): passed as one constant,
    the planner can read the lexemes' frequencies and choose the GIN index for a rare match."""
    quoted = []
    for lexeme in lexemes:
        literal = "'" + lexeme.replace("'", "''").replace("\\", "\\\\") + "'"
        quoted.append("E" + literal if "\\" in lexeme else literal)
    return op.join(quoted)


def _load(conn: psycopg.Connection, tenant: str, fused: list[Fused]) -> list[Candidate]:
    if not fused:
        return []
    rows = conn.execute(
        load_sql("select_candidates"),
        {
            "tenant": tenant,
            "doc_ids": [f.key[0] for f in fused],
            "chunk_indexes": [f.key[1] for f in fused],
        },
    ).fetchall()
    by_key = {(r[0], r[1]): r for r in rows}
    out = []
    for f in fused:
        r = by_key.get(f.key)
        if r is None:
            continue  # removed by an ingest that committed between the candidate queries
        out.append(
            Candidate(
                doc_id=r[0],
                chunk_index=r[1],
                content=r[2],
                score=f.score,
                tags=list(r[3]),
                metadata=r[4],
                section_id=r[5],
                label=r[6],
                heading=r[7],
                page_start=r[8],
                page_end=r[9],
                vector_rank=f.ranks[0],
                fulltext_rank=f.ranks[1],
                char_start=r[10],
                char_end=r[11],
            )
        )
    return out


# --- section hits, for search() --------------------------------------------------------


# Sections of a named document taken as candidates, per result asked.
NAMED_DEPTH = 2


def primary_hits(
    reads: Reads,
    analysis: QueryAnalysis,
    plan: RetrievalPlan,
    embed: EmbedFn,
    k: int,
    query_results: Sequence[Mapping[str, Any]] | None = None,
    concurrent: bool = False,
) -> list[Hit]:
    """search()'s candidates, one hit per section, best first: the caller's own search
    (`query_results`), else retrieval's. A document the query names answers first, with up
    to NAMED_DEPTH times `k` of its sections (the answer is among its sections, so more of
    them are worth ranking); the best of the others stay, fewer, so a question that also
    needs another document can still reach it."""
    if query_results is not None:
        return caller_hits(query_results, reads.chunk_sections)[:k]
    conn, tenant = reads.conn, reads.tenant
    hits = section_hits(conn, analysis.asked, tenant, embed, plan, concurrent)[:k]
    if analysis.named is None:
        return hits
    depth = NAMED_DEPTH * k
    in_named = replace(plan, doc_ids=analysis.named.doc_ids, k=min(1000, NAMED_DEPTH * plan.k))
    whole = document_hits(conn, analysis.asked, tenant, embed, in_named)
    named = (
        whole
        if whole is not None
        else section_hits(conn, analysis.asked, tenant, embed, in_named, concurrent)
    )[:depth]
    seen = {h.section_id for h in named}
    others = [h for h in hits if h.section_id not in seen][: max(1, k // 2)]
    return named + others


def section_hits(
    conn: psycopg.Connection,
    query: str,
    tenant: str,
    embed: EmbedFn,
    plan: RetrievalPlan,
    concurrent: bool = False,
) -> list[Hit]:
    """retrieve_as_reader()'s chunks as section hits: a section's best chunk speaks for it."""
    return _section_hits(
        retrieve_as_reader(conn, query, tenant, embed, plan, concurrent=concurrent)
    )


def _section_hits(candidates: Sequence[Candidate]) -> list[Hit]:
    """Candidates as section hits, best first: a section's best chunk speaks for it."""
    hits: dict[str, Hit] = {}
    for cand in candidates:
        if cand.section_id not in hits:
            span = None if cand.char_start is None else (cand.char_start, cand.char_end or 0)
            hits[cand.section_id] = Hit(
                cand.section_id,
                cand.score,
                cand.vector_rank,
                cand.fulltext_rank,
                cand.chunk_index,
                span,
            )
    return list(hits.values())


# Most chunks the documents a query names may hold to be ranked whole, every chunk scored
# (rank_document_chunks); larger ones are searched through the indexes like a tenant.
NAMED_WHOLE_CAP = FULLTEXT_CAP


def document_hits(
    conn: psycopg.Connection, query: str, tenant: str, embed: EmbedFn, plan: RetrievalPlan
) -> list[Hit] | None:
    """The sections of the documents `plan.doc_ids` (those a query names), best first, from
    all their chunks ranked exactly, by meaning and words together (`document_order`): the
    answer is inside them, and the indexes' pools (50 each, over
    the whole tenant's graph and posting lists) rank only the chunks they reach. None when
    the documents hold more than NAMED_WHOLE_CAP chunks."""
    asked = " ".join(query.split())
    wide = with_document_words(asked)  # words the document may write for the query's
    shares = document_word_counts(conn, tenant, plan, wide)
    query = distinctive(asked, shares)
    read = query_lexemes(conn, distinctive(wide, shares), tenant)
    counts = read[2] if read is not None else []
    params = {
        "tenant": tenant,
        "doc_ids": list(plan.doc_ids),
        "tags_any": list(plan.tags_any) or None,
        "tags_all": list(plan.tags_all) or None,
        "metadata": Jsonb(dict(plan.metadata)),
        "history": plan.history,
        "embedding": None if plan.mode == "fulltext" else embed([query])[0],
        "rank": [lexeme for lexeme, _ in counts],
        "df": [n for _, n in counts],
        "cap": NAMED_WHOLE_CAP,
    }
    rows = conn.execute(load_sql("rank_document_chunks"), params).fetchall()
    if len(rows) > NAMED_WHOLE_CAP:
        return None
    fused = document_order([(r[0], r[1], r[2], r[3]) for r in rows], plan.mode, plan.rrf_k)
    fused = fused[: plan.k]
    if plan.mode == "fulltext":
        fused = [Fused(f.key, f.score, (None, *f.ranks)) for f in fused]
    elif plan.mode == "vector":
        fused = [Fused(f.key, f.score, (*f.ranks, None)) for f in fused]
    return _section_hits(_load(conn, tenant, fused))


# A word of the query held by at least this share of a named document's chunks (and by at
# least COMMON_MIN_CHUNKS of them) tells none of its chunks apart ('party' in a contract,
# 'intellectual property' in an IP agreement), and ranking them by it (words or meaning)
# draws whatever clause says it most. It is left out of what the document's chunks are
# ranked by. CUAD look hybrid+graph passages R@10 / hit@10 (after the framing-clause fix):
# look-A (built) 0.694 / 0.832 -> 0.704 / 0.844 at 0.3 (0.5: 0.700 / 0.838, 0.2: 0.708 /
# 0.844, 0.12: 0.683 / 0.815); look-B (checked) 0.730 / 0.845 -> 0.751 / 0.861 (0.2: 0.747 /
# 0.857).
COMMON_IN_DOCUMENT = 0.3
# In a short document a share is a few chunks: a word in 2 of 5 says what the query is about.
COMMON_MIN_CHUNKS = 8
_QUERY_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")


def document_word_counts(
    conn: psycopg.Connection, tenant: str, plan: RetrievalPlan, query: str
) -> dict[str, tuple[int, int]]:
    """Each word of `query` (lowercased; stop words left out) with how many chunks of the
    documents `plan.doc_ids` hold it, and how many they have."""
    words = sorted({m.group(0).lower() for m in _QUERY_WORD.finditer(query)})
    if not words:
        return {}
    rows = conn.execute(
        load_sql("select_document_word_shares"),
        {
            "tenant": tenant,
            "doc_ids": list(plan.doc_ids),
            "history": plan.history,
            "words": words,
            "cap": NAMED_WHOLE_CAP,
        },
    ).fetchall()
    return {w: (held, total) for w, held, total in rows}


def distinctive(query: str, counts: Mapping[str, tuple[int, int]]) -> str:
    """`query` without the words common in the named document (`counts`: a word's chunks
    and the document's, document_word_counts): COMMON_IN_DOCUMENT of its chunks, and at least
    COMMON_MIN_CHUNKS. The query as it is when that would leave no word the document's
    chunks are indexed by."""

    def common(word: str) -> bool:
        held, total = counts.get(word.lower(), (0, 0))
        return held >= COMMON_MIN_CHUNKS and held >= COMMON_IN_DOCUMENT * total

    if all(common(w) for w in counts):
        return query
    kept = _QUERY_WORD.sub(lambda m: "" if common(m.group(0)) else m.group(0), query)
    return " ".join(kept.split())


# Meaning and words together inside a named document: a chunk's cosine similarity plus this
# times its BM25 over the document's best. On CUAD look-A (built) R@10 0.669 -> 0.692 at
# 0.5 (0.2: 0.691, 0.3: 0.682, 1.0: 0.680; plain RRF of the two rankings: 0.676); look-B
# (checked) 0.731 -> 0.736, hit@10 0.840 -> 0.849 (plain RRF: 0.724 / 0.828).
# Written question sets' look half (hybrid + graph R@10): 0.944 -> 0.940, all from licenses
# (0.935 -> 0.919, hop@10 0.824 -> 0.765); plain RRF keeps licenses at 0.935 but loses on look-B.
NAMED_WORDS_WEIGHT = 0.5
DocRow = tuple[str, int, float | None, float]  # doc_id, chunk_index, cosine distance, BM25


def document_order(rows: Sequence[DocRow], mode: Mode, rrf_k: int = RRF_K) -> list[Fused]:
    """A named document's chunks best first. Hybrid: by cosine similarity plus
    NAMED_WORDS_WEIGHT x BM25 / the best BM25 (scores, not ranks: in one document a chunk
    far ahead by words or meaning keeps its lead, where RRF gives rank 1 and 2 nearly the
    same), each scored 2 / (rrf_k + its place), the RRF score of a chunk at that place in
    both lists, so the hits stand on the scale of the tenant's hits beside them. One mode
    alone: RRF of its ranking."""
    fused = rrf_fuse(document_rankings(rows, mode), rrf_k)
    if mode != "hybrid":
        return fused
    top = max((r[3] for r in rows), default=0.0) or 1.0
    value = {
        (r[0], r[1]): (0.0 if r[2] is None else 1.0 - r[2]) + NAMED_WORDS_WEIGHT * r[3] / top
        for r in rows
    }
    order = sorted(fused, key=lambda f: (-value[f.key], f.key))
    return [Fused(f.key, 2.0 / (rrf_k + n), f.ranks) for n, f in enumerate(order, start=1)]


def document_rankings(rows: Sequence[DocRow], mode: Mode) -> list[list[Key]]:
    """(doc_id, chunk_index, cosine distance, BM25) rows as the rankings a mode fuses: by
    distance (vector), by BM25 among the chunks sharing a word (full text); ties in key
    order."""
    embedded = [r for r in rows if r[2] is not None]
    by_meaning = [(r[0], r[1]) for r in sorted(embedded, key=lambda r: (r[2], r[0], r[1]))]
    by_words = [(r[0], r[1]) for r in sorted(rows, key=lambda r: (-r[3], r[0], r[1])) if r[3] > 0]
    if mode == "vector":
        return [by_meaning]
    if mode == "fulltext":
        return [by_words]
    return [by_meaning, by_words]


def caller_hits(
    query_results: Sequence[Mapping[str, Any]],
    chunk_sections: Callable[[list[tuple[str, int]]], Mapping[tuple[str, int], str]],
) -> list[Hit]:
    """The caller's own candidates: {"section_id", "score"} or {"doc_id", "chunk_index",
    "score"}, best first; a chunk stands for its section (`chunk_sections`)."""
    by_chunk = chunk_sections(
        [(r["doc_id"], int(r["chunk_index"])) for r in query_results if "section_id" not in r]
    )
    hits: dict[str, Hit] = {}
    for r in query_results:
        try:
            score = float(r["score"])
            section_id = r.get("section_id") or by_chunk.get((r["doc_id"], int(r["chunk_index"])))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidFilter(
                "query_results items need a score and either section_id or doc_id + chunk_index"
            ) from exc
        if section_id and section_id not in hits:
            hits[section_id] = Hit(section_id, score, chunk_index=r.get("chunk_index"))
    return list(hits.values())


# --- the query embedder -------------------------------------------------------------------


def default_embedder() -> Embedder:
    """The configured embedding model (RAAG_EMBED_MODEL), loaded once per process."""
    from raag_assets.ingest.embedding import configured_embedder

    return configured_embedder()


def default_embed() -> EmbedFn:
    """The configured model's embed(), remembering the last QUERY_CACHE single-text calls:
    a repeated query skips the model (about a third of a warm search's time)."""
    return _cached_embed(os.environ.get("RAAG_EMBED_MODEL", DEFAULT_MODEL))


@functools.lru_cache(maxsize=4)
def _cached_embed(model: str) -> EmbedFn:
    return cached_queries(default_embedder().embed_here)
