"""retrieve(): RRF fusion, filters, modes, tie-break, determinism and tenant isolation, on the
real store built from the example corpus."""

from dataclasses import replace

import pytest

from raag_assets.core.errors import InvalidFilter, TenantNotFound
from raag_assets.retrieval import candidates
from raag_assets.retrieval.candidates import (
    Candidate,
    RetrievalPlan,
    distinctive,
    document_hits,
    document_order,
    document_rankings,
    document_word_counts,
    retrieve,
    rrf_fuse,
    section_hits,
)
from raag_assets.store.db import tenant_reader
from tests.conftest import Store


def test_rrf_scores_and_ranks():
    fused = rrf_fuse([[("a", 0), ("b", 0)], [("b", 0), ("c", 0)]], rrf_k=60)
    assert [f.key for f in fused] == [("b", 0), ("a", 0), ("c", 0)]
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert fused[0].ranks == (2, 1)
    assert fused[1].ranks == (1, None)


def test_rrf_ties_break_by_doc_id_then_chunk_index():
    fused = rrf_fuse([[("b", 1), ("a", 2)], [("a", 2), ("b", 1)]])
    assert fused[0].score == fused[1].score
    assert [f.key for f in fused] == [("a", 2), ("b", 1)]
    fused = rrf_fuse([[("z", 3)], [("z", 1)]])
    assert [f.key for f in fused] == [("z", 1), ("z", 3)]


def test_rrf_counts_a_key_once_per_list():
    fused = rrf_fuse([[("a", 0), ("a", 0)]])
    assert fused == [fused[0]] and fused[0].score == pytest.approx(1 / 61)


def _search(store: Store, embedder, query: str, tenant: str = "demo", **plan) -> list[Candidate]:
    with store.connect() as conn:
        return retrieve(conn, query, tenant, embedder.embed, RetrievalPlan(**plan))


def test_hybrid_finds_the_answer_and_explains_its_ranks(demo_store, embedder):
    results = _search(
        demo_store, embedder, "How many days of annual leave do full-time employees get?"
    )
    assert len(results) == 12
    top = results[0]
    assert (top.doc_id, top.label, top.heading) == ("leave-policy", "3.1", "Entitlement")
    for c in results:
        expected = sum(1 / (60 + r) for r in (c.vector_rank, c.fulltext_rank) if r)
        assert c.score == pytest.approx(expected)
    keys = [(-c.score, c.doc_id, c.chunk_index) for c in results]
    assert keys == sorted(keys)


def test_pdf_results_carry_page_numbers(demo_store, embedder):
    results = _search(demo_store, embedder, "approval process escalation", k=5)
    pdf = [c for c in results if c.doc_id == "hr-processes-handbook"]
    assert pdf and all(c.page_start in (1, 2) for c in pdf)
    assert any(c.label == "5.1" and c.page_start == 2 for c in pdf)


def test_same_query_same_results(demo_store, embedder):
    query = "carry over unused leave"
    assert _search(demo_store, embedder, query) == _search(demo_store, embedder, query)


@pytest.mark.parametrize(
    ("plan", "allowed"),
    [
        ({"tags_any": ("remote-work",)}, {"wfh-policy"}),
        (
            {"tags_all": ("hr", "leave")},
            {"leave-policy", "leave-policy-rev-a", "leave-amendment-2025"},
        ),
        ({"metadata": {"doc_type": "amendment"}}, {"leave-amendment-2025"}),
        ({"metadata": {"authority_level": 40}}, {"wfh-policy"}),
        ({"tags_any": ("remote-work", "nothing")}, {"wfh-policy"}),
    ],
)
def test_filters(demo_store, embedder, plan, allowed):
    results = _search(demo_store, embedder, "leave while working from home", **plan)
    assert results
    assert {c.doc_id for c in results} <= allowed


def test_filters_that_match_nothing_return_nothing(demo_store, embedder):
    assert _search(demo_store, embedder, "leave", tags_all=("hr", "no-such-tag")) == []


def test_modes(demo_store, embedder):
    vector = _search(demo_store, embedder, "maternity leave weeks", mode="vector")
    assert vector and all(c.fulltext_rank is None and c.vector_rank for c in vector)
    assert [c.vector_rank for c in vector] == list(range(1, len(vector) + 1))
    text = _search(demo_store, embedder, "maternity", mode="fulltext")
    assert text and all(c.vector_rank is None for c in text)
    assert all("maternity" in c.content.lower() for c in text)


def test_full_text_finds_a_query_word_as_the_documents_write_it(demo_store, embedder):
    # the licences spell it the American way; as written, "licence" matches no chunk
    text = _search(demo_store, embedder, "licence", mode="fulltext", tenant="licenses")
    assert text and all("license" in c.content.lower() for c in text)


def test_tenant_isolation(demo_store, embedder):
    results = _search(demo_store, embedder, "GNU General Public License conveying source code")
    assert results and not {c.doc_id for c in results} & {"GPL-3", "MPL-2.0"}
    licenses = _search(demo_store, embedder, "annual leave entitlement", tenant="licenses")
    assert {c.doc_id for c in licenses} <= {"GPL-3", "MPL-2.0"}


def test_licence_question_lands_in_the_right_section(demo_store, embedder):
    results = _search(
        demo_store, embedder, "What happens when the license is terminated?", tenant="licenses"
    )
    top = {(c.doc_id, c.label) for c in results[:5]}
    assert ("GPL-3", "8") in top or ("MPL-2.0", "5.1") in top or ("MPL-2.0", "5") in top


def test_hostile_query_text_is_just_text(demo_store, embedder):
    results = _search(demo_store, embedder, "leave'); DROP TABLE chunks; -- & | ! :*")
    assert all(c.doc_id for c in results)
    assert demo_store.rows("SELECT count(*) FROM chunks__demo")[0][0] > 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 0}, "k must be between"),
        ({"mode": "semantic"}, "mode must be"),
        ({"tags_any": "hr"}, "list of strings"),
        ({"metadata": {"nested": {"a": 1}}}, "top-level equality"),
    ],
)
def test_bad_plans_are_refused(kwargs, message):
    with pytest.raises(InvalidFilter, match=message):
        RetrievalPlan(**kwargs)


def test_unknown_tenant_and_empty_query(demo_store, embedder):
    with pytest.raises(TenantNotFound, match="raag ingest"):
        _search(demo_store, embedder, "leave", tenant="nobody")
    with pytest.raises(InvalidFilter, match="query is empty"):
        _search(demo_store, embedder, "   \n ")


def test_the_rarest_lexemes_pick_fulltext_rows_up_to_the_cap():
    from raag_assets.retrieval.candidates import pick_matching_lexemes

    counts = [("leav", 1900), ("carri", 40), ("unus", 300), ("zebra", 0), ("year", 1500)]
    # 40 + 300 + 1500 = 1840 <= 2000; adding 1900 would pass the cap
    assert pick_matching_lexemes(counts, 2000) == (["carri", "unus", "year"], " | ")
    # every lexeme too common on its own: rows must contain all of them
    assert pick_matching_lexemes([("a", 2001), ("b", 2001)], 2000) == (["a", "b"], " & ")
    assert pick_matching_lexemes([("zebra", 0)], 2000) == (["zebra"], " & ")
    # a document's word for a query word ("termin" for "end") may pick rows when rare, but
    # is never one more word every row must hold
    counts = [("end", 2001), ("termin", 2001), ("expir", 0)]
    assert pick_matching_lexemes(counts, 2000, own={"end"}) == (["end"], " & ")
    assert pick_matching_lexemes([("end", 2001), ("expir", 5)], 2000, own={"end"}) == (
        ["expir"],
        " | ",
    )


def test_all_common_lexemes_rank_fewer_rows():
    from raag_assets.retrieval.candidates import FULLTEXT_CAP, ranking_cap

    # rare lexemes pick the rows: every row they match is ranked
    assert ranking_cap(" | ", 50) == FULLTEXT_CAP
    # every lexeme common: an arbitrary few of the rows holding all of them, ten pools' worth
    assert ranking_cap(" & ", 50) == 500
    assert ranking_cap(" & ", 1000) == FULLTEXT_CAP


def test_the_matching_tsquery_text_is_what_sql_quote_literal_builds(new_database):
    """The caller now builds the tsquery's text (a constant the planner can read); it must be
    the query SQL built before, lexemes with quotes, backslashes and hyphens included."""
    import psycopg

    from raag_assets.retrieval.candidates import tsquery_text

    lexemes = ["leav", "o'neil", "a\\b", "non-exclusive", "x'\\y"]
    with psycopg.connect(new_database(), autocommit=True) as conn:
        for op in (" | ", " & "):
            built_by_sql, built_here = conn.execute(
                "SELECT to_tsquery('simple', array_to_string(ARRAY(SELECT quote_literal(x)"
                " FROM unnest(%s::text[]) AS x), %s))::text, to_tsquery('simple', %s)::text",
                (lexemes, op, tsquery_text(lexemes, op)),
            ).fetchone()
            assert built_here == built_by_sql
            assert "'non-exclusive'" in built_here


def test_candidates_on_a_pooled_connection_equal_the_sequential_ones(demo_store, embedder):
    """The vector query runs on a second, pooled connection beside full-text; same rows, same
    order as both on one connection; the pooled connection reads as the tenant's reader too."""
    from raag_assets.retrieval.candidates import can_run_beside, retrieve_as_reader
    from raag_assets.store import db

    queries = ["How many days of annual leave do full-time employees get?", "patent license"]
    with demo_store.connect() as conn:
        assert can_run_beside(conn)
        for query in queries:
            runs = []
            for concurrent in (False, True):
                with db.tenant_reader(conn, "demo"):
                    assert not can_run_beside(conn)  # inside a transaction: never pooled
                    runs.append(
                        retrieve_as_reader(
                            conn, query, "demo", embedder.embed, concurrent=concurrent
                        )
                    )
            assert runs[0] == runs[1] and runs[0]
        pool = db.side_pool(conn)
        with pool.connection() as side, db.tenant_reader(side, "demo"):
            tenants = {r[0] for r in side.execute("SELECT DISTINCT tenant_id FROM chunks")}
        assert tenants == {"demo"}


def test_lexeme_counts_are_cached_under_the_chunks_generation(demo_store):
    """Full-text lexeme counts are cached per (tenant, chunks generation): any write to the
    tenant's chunks moves the generation on (a trigger), so a cached count is never stale."""
    import psycopg

    from raag_assets.retrieval.candidates import lexeme_counts

    query = "annual leave entitlement"
    with demo_store.connect() as conn:

        def generation() -> int:
            sql = "SELECT chunks_generation FROM tenants WHERE tenant_id = 'demo'"
            return conn.execute(sql).fetchone()[0]

        before, g0 = lexeme_counts(conn, query, "demo"), generation()
        assert dict(before)["leav"] > 0
        assert lexeme_counts(conn, query, "demo") == before  # from the cache
        with conn.transaction():
            conn.execute("DELETE FROM chunks WHERE tenant_id = 'demo' AND content ILIKE '%leave%'")
            assert generation() > g0  # drawn from a sequence: never a value seen before
            assert dict(lexeme_counts(conn, query, "demo"))["leav"] == 0  # recounted
            raise psycopg.Rollback
        assert generation() == g0 and lexeme_counts(conn, query, "demo") == before
        other = "SELECT chunks_generation FROM tenants WHERE tenant_id = 'licenses'"
        g_other = conn.execute(other).fetchone()[0]
        with conn.transaction():
            conn.execute("UPDATE chunks SET live = live WHERE tenant_id = 'demo'")
            assert conn.execute(other).fetchone()[0] == g_other  # only the tenant written
            raise psycopg.Rollback


def test_a_query_is_embedded_on_fewer_threads_than_a_batch(demo_store, embedder, monkeypatch):
    """The query's embedding runs on RAAG_QUERY_THREADS torch threads in the pool thread; the
    caller's threads (ingest's batch embedding) keep their count."""
    import threading

    import torch

    seen: list[tuple[str, int]] = []

    def spy(texts: list[str]):
        seen.append((threading.current_thread().name, torch.get_num_threads()))
        return embedder.embed(texts)

    before = torch.get_num_threads()
    monkeypatch.setenv("RAAG_QUERY_THREADS", "1")
    with demo_store.connect() as conn:
        assert retrieve(conn, "annual leave", "demo", spy, RetrievalPlan(mode="hybrid"))
    assert seen and seen[0][0].startswith("raag-embed") and seen[0][1] == 1
    assert torch.get_num_threads() == before


def test_a_scan_in_table_order_pays_when_the_words_are_in_many_rows():
    from raag_assets.retrieval.candidates import FULLTEXT_SCAN_ROWS, scan_pays

    # 500 rows wanted of 1M chunks: 51,640 matches (5%) are met within ~10k rows read
    assert scan_pays(500, 1_000_000, 51_640)
    # 76 matches: a scan would read the whole table; the index finds them
    assert not scan_pays(500, 1_000_000, 76)
    assert scan_pays(500, 1_000_000, 500 * 1_000_000 / FULLTEXT_SCAN_ROWS)
    assert not scan_pays(500, 1_000_000, 0)


def test_all_common_words_read_in_table_order_rank_the_rows_the_index_gives(
    demo_store, monkeypatch
):
    """An all-common-word query reads its first matching rows by a scan in table order or
    through the GIN index, whichever the estimate says is cheaper: the same rows either way,
    so the same ranking; and the plan settings are back as they were for the rest of the
    caller's transaction (search() reads on in it)."""
    from raag_assets.retrieval import candidates
    from raag_assets.store import db

    monkeypatch.setattr(candidates, "FULLTEXT_CAP", 20)  # every lexeme below is then common
    # words common in both licences, none with another spelling a document may write
    query = "you may convey the work under this license"
    plan = RetrievalPlan(mode="fulltext", pool=10)
    runs = []
    with demo_store.connect() as conn:
        counts = candidates.lexeme_counts(conn, query, "licenses")
        assert candidates.pick_matching_lexemes(counts, 20)[1] == " & "
        for scan_rows in (0, 10**9):  # never a scan, then always
            monkeypatch.setattr(candidates, "FULLTEXT_SCAN_ROWS", scan_rows)
            candidates._scan_plans.clear()
            with db.tenant_reader(conn, "licenses"):
                found = candidates.retrieve_as_reader(conn, query, "licenses", None, plan)
                settings = conn.execute(
                    "SELECT current_setting('enable_bitmapscan'), "
                    "current_setting('synchronize_seqscans')"
                ).fetchone()
            assert settings == ("on", "on")
            assert list(candidates._scan_plans.values()) == [scan_rows > 0]
            runs.append([(c.doc_id, c.chunk_index, c.score) for c in found])
    assert runs[0] and runs[0] == runs[1]


def test_a_failing_full_text_query_raises_its_own_error_after_a_scan_setting(
    demo_store, monkeypatch
):
    """The plan settings are put back only on a transaction that goes on: after a failed
    query the caller sees that query's error, not one from putting them back."""
    import psycopg

    from raag_assets.retrieval import candidates
    from raag_assets.store import db

    monkeypatch.setattr(candidates, "FULLTEXT_CAP", 20)
    monkeypatch.setattr(candidates, "FULLTEXT_SCAN_ROWS", 10**9)  # a scan in table order
    real = candidates.load_sql
    monkeypatch.setattr(
        candidates,
        "load_sql",
        lambda name: (
            "SELECT 1 / 0 WHERE %(tenant)s::text IS NOT NULL"
            if name == "retrieve_fulltext"
            else real(name)
        ),
    )
    query = "you may convey the program and the work under this license"
    with (
        demo_store.connect() as conn,
        pytest.raises(psycopg.errors.DivisionByZero),
        db.tenant_reader(conn, "licenses"),
    ):
        candidates.retrieve_as_reader(conn, query, "licenses", None, RetrievalPlan(mode="fulltext"))


def test_a_named_documents_chunks_rank_by_meaning_and_words_together():
    # (doc, chunk, cosine distance, BM25): chunk 1 is nearest in meaning, chunk 2 shares the
    # query's words far more: with both, words lead by 0.5 x 1.0 against 0.1 of meaning
    rows = [("d", 0, 0.5, 0.0), ("d", 1, 0.2, 1.0), ("d", 2, 0.3, 4.0), ("d", 3, None, 2.0)]
    hybrid = document_order(rows, "hybrid")
    assert [f.key[1] for f in hybrid] == [2, 1, 0, 3]
    assert [f.score for f in hybrid] == pytest.approx([2 / 61, 2 / 62, 2 / 63, 2 / 64])
    assert hybrid[0].ranks == (2, 1)  # its place in each ranking, for the explanation
    assert document_rankings(rows, "vector") == [[("d", 1), ("d", 2), ("d", 0)]]
    assert document_rankings(rows, "fulltext") == [[("d", 2), ("d", 3), ("d", 1)]]
    assert [f.key[1] for f in document_order(rows, "fulltext")] == [2, 3, 1]


def test_a_named_document_is_ranked_whole(demo_store, embedder, monkeypatch):
    """Every chunk of the named document is scored: the full-text ranking inside it is the
    index search's (same BM25), and past the cap the index search answers instead."""
    query = "maternity leave weeks"
    plan = RetrievalPlan(k=1000, doc_ids=("leave-policy",))
    with demo_store.connect() as conn, tenant_reader(conn, "demo"):
        whole = document_hits(conn, query, "demo", embedder.embed, plan)
        text = document_hits(conn, query, "demo", embedder.embed, replace(plan, mode="fulltext"))
        # the index search asked what the named document is ranked by: its words less those
        # common in it ('leave' in the leave policy)
        asked = distinctive(query, document_word_counts(conn, "demo", plan, query))
        assert asked == "maternity weeks"
        pooled = section_hits(conn, asked, "demo", embedder.embed, replace(plan, mode="fulltext"))
        n = conn.execute(
            "SELECT count(DISTINCT section_id) FROM chunks WHERE doc_id = 'leave-policy'"
        ).fetchone()[0]
        monkeypatch.setattr(candidates, "NAMED_WHOLE_CAP", 1)
        assert document_hits(conn, query, "demo", embedder.embed, plan) is None
    assert whole is not None and text is not None
    assert len(whole) == n  # every section of the document, not only those the pools reached
    assert [h.section_id for h in text] == [h.section_id for h in pooled]
    assert all(h.vector_rank is None for h in text)


def test_words_common_in_the_named_document_are_not_what_ranks_its_chunks():
    # 'party' in 60 of 100 chunks tells none apart; 'exclusively' in 3 does
    counts = {"party": (60, 100), "bound": (9, 100), "exclusively": (3, 100), "other": (40, 100)}
    q = "is a party bound to deal exclusively with the other?"
    assert distinctive(q, counts) == "is a bound to deal exclusively with the ?"
    # a short document: 2 chunks of 5 are a share, not a common word
    assert distinctive("what is the notice period?", {"notice": (2, 5), "period": (1, 5)}) == (
        "what is the notice period?"
    )
    # every word common: the query stays as it is
    assert distinctive("party other", {"party": (60, 100), "other": (40, 100)}) == "party other"
    assert distinctive("the of", {}) == "the of"


def test_the_named_documents_word_counts_are_its_chunks(demo_store):
    plan = RetrievalPlan(doc_ids=("leave-policy",))
    with demo_store.connect() as conn, tenant_reader(conn, "demo"):
        counts = document_word_counts(conn, "demo", plan, "How many weeks of Leave? the")
        total, leave = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE tsv @@ to_tsquery('simple', 'leav'))"
            " FROM chunks WHERE doc_id = 'leave-policy' AND live"
        ).fetchone()
    assert set(counts) == {"many", "weeks", "leave"}  # stop words have no lexeme
    assert counts["leave"] == (leave, total) and 0 < leave <= total
