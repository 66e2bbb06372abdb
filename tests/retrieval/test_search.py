"""search() on the real store: expansion, definition propagation, dates, scopes, conflicts,
query analysis, caller candidates, determinism and tenant isolation."""

import itertools

import pytest

from raag_assets.core.errors import InvalidFilter
from raag_assets.core.model import DocInfo
from raag_assets.retrieval.query import analyze
from raag_assets.retrieval.search import search


@pytest.fixture
def run(demo_store, embedder):
    def go(query: str, tenant: str = "demo", **kw):
        with demo_store.connect() as conn:
            return search(query, tenant, conn=conn, embed=embedder.embed, **kw)

    return go


def where(result: dict) -> tuple[str, str]:
    return result["doc_id"], result["label"]


def test_definitions_and_overrides_come_in_with_their_edge(run):
    res = run("carry over unused leave", k=3)
    by = {where(r): r for r in res.results}
    year = by[("leave-policy", "2.3")]  # the definition of "Leave Year", used by the hit
    assert year["expansion_depth"] == 1
    assert year["provenance"]["edge_type"] == "uses_term"
    assert by[("leave-policy", "6")]["provenance"]["edge_type"] == "overrides"
    assert "overrides_candidate" in [
        a["kind"] for a in by[("leave-policy", "6")]["score_breakdown"]["adjustments"]
    ]
    returned = {where(r) for r in res.results}
    section_edges = [e for e in res.result_graph if e["src"]["label"] and e["dst"]["label"]]
    assert section_edges  # the result graph links returned sections, and only those
    for e in section_edges:
        assert (e["src"]["doc_id"], e["src"]["label"]) in returned
        assert (e["dst"]["doc_id"], e["dst"]["label"]) in returned


def test_as_of_date_decides_between_a_policy_and_its_later_amendment(run):
    before = run("maternity leave days", k=4, as_of_date="2024-06-01")
    after = run("maternity leave days", k=4, as_of_date="2025-06-01")

    def verdict(res):
        [c] = [
            c
            for c in res.retrieval_summary["conflicts"]
            if {(x["doc_id"], x["label"]) for x in c["between"]}
            == {("leave-policy", "4.1"), ("leave-amendment-2025", "2")}
        ]
        return (c["winner"]["doc_id"], c["rule"])

    assert verdict(before) == ("leave-policy", "exact date/event match")
    assert verdict(after) == ("leave-amendment-2025", "higher authority_level")


def test_superseded_revision_is_penalised_and_loses_its_conflict(run):
    res = run("carry over unused leave", k=4)
    old = next(r for r in res.results if where(r) == ("leave-policy-rev-a", "3.2"))
    assert old["superseded"] and old["conflict"]["rule"] == "non-superseded over superseded"
    assert "superseded" in [a["kind"] for a in old["score_breakdown"]["adjustments"]]


@pytest.mark.parametrize("k", [1, 2, 8])
@pytest.mark.parametrize("query", ["annual leave", "How many days of annual leave do I get?"])
def test_the_version_in_force_answers_above_the_superseded_one(run, query, k):
    res = run(query, k=k)
    ranks = {where(r): r["rank"] for r in res.results}
    current, old = ("leave-policy", "3.1"), ("leave-policy-rev-a", "3.1")
    assert current in ranks, f"the current entitlement is missing at k={k}"
    assert "30 days" in res.results[ranks[current] - 1]["text"]
    if k == 1:  # the one hit is the entitlement; its version in force leads
        assert where(res.results[0]) == current
    assert ranks[current] < ranks.get(old, 10**6)
    for c in res.retrieval_summary["conflicts"]:  # every winner outranks its loser
        loser = next(x for x in c["between"] if x != c["winner"])
        winner_key = (c["winner"]["doc_id"], c["winner"]["label"])
        assert ranks[winner_key] < ranks[(loser["doc_id"], loser["label"])]


def test_a_superseded_hit_brings_in_the_section_that_replaced_it(run):
    res = run("25 days of paid annual leave in each calendar year", k=1)
    first, *rest = res.results
    by = {where(r): r for r in res.results}
    assert where(first) == ("leave-policy", "3.1")
    assert by[("leave-policy", "3.1")]["provenance"]["edge_type"] == "supersedes"
    assert by[("leave-policy", "3.1")]["retrieval_reason"].startswith("version in force")
    assert by[("leave-policy-rev-a", "3.1")]["conflict"]["lost_to"]["doc_id"] == "leave-policy"


def test_no_successor_when_as_of_falls_in_the_earlier_versions_period(run):
    res = run("25 days of paid annual leave in each calendar year", k=1, as_of_date="2022-06-01")
    assert where(res.results[0]) == ("leave-policy-rev-a", "3.1")
    assert not any(
        r["provenance"] and r["provenance"]["edge_type"] == "supersedes" for r in res.results
    )


def test_scope_context_boosts_matching_rules(run):
    res = run("annual leave entitlement", k=5, scope_context="part-time")
    part = next(r for r in res.results if where(r) == ("leave-policy", "3.2"))
    full = next(r for r in res.results if where(r) == ("leave-policy", "3.1"))
    assert "scope_match" in [a["kind"] for a in part["score_breakdown"]["adjustments"]]
    assert "scope_mismatch" in [a["kind"] for a in full["score_breakdown"]["adjustments"]]


def test_hops_and_expansion_limits(run):
    none = run("leave extension working from home", k=3, max_expansion_hops=0)
    assert none.retrieval_summary["expanded"] == 0
    two = run("leave extension working from home", k=3, max_expansion_hops=2, max_expanded=6)
    depths = [r["expansion_depth"] for r in two.results]
    assert max(depths) == 2 and two.retrieval_summary["expanded"] <= 6
    with pytest.raises(InvalidFilter, match="max_expansion_hops"):
        run("leave", max_expansion_hops=3)


def test_hashtag_and_document_filters_narrow_the_primary_hits(run):
    res = run("equipment #remote-work", k=3, max_expansion_hops=0)
    assert {r["doc_id"] for r in res.results} == {"wfh-policy"}
    assert res.retrieval_summary["query_analysis"]["tags"] == ["remote-work"]
    res = run("carry over in document leave-policy-rev-a", k=3, max_expansion_hops=0)
    assert {r["doc_id"] for r in res.results} == {"leave-policy-rev-a"}
    with pytest.raises(InvalidFilter, match="no document matching"):
        run("leave in document Travel Handbook")


def test_caller_candidates_replace_retrieval(run):
    res = run(
        "ignored",
        query_results=[
            {"doc_id": "wfh-policy", "chunk_index": 0, "score": 0.9},
            {"doc_id": "leave-policy", "chunk_index": 999, "score": 0.8},  # unknown: skipped
        ],
    )
    primaries = [r for r in res.results if r["expansion_depth"] == 0]
    assert [r["doc_id"] for r in primaries] == ["wfh-policy"]
    assert primaries[0]["score_breakdown"]["rrf"] == 0.9


def test_same_query_same_bytes(run):
    a = run(
        "Who approves leave of more than 10 days?", as_of_date="2025-01-01", max_expansion_hops=2
    )
    b = run(
        "Who approves leave of more than 10 days?", as_of_date="2025-01-01", max_expansion_hops=2
    )
    assert a.to_json() == b.to_json()


def test_never_another_tenants_rows(run):
    res = run(
        "annual leave entitlement and the approval process", tenant="licenses", max_expansion_hops=2
    )
    assert {r["doc_id"] for r in res.results} <= {"GPL-3", "MPL-2.0"}
    assert all(e["src"]["doc_id"] in {"GPL-3", "MPL-2.0"} for e in res.result_graph)


def test_query_analysis():
    docs = [DocInfo("leave-policy", "l.md", title="Leave Policy (Rev. B)")]
    a = analyze("  How long is   #maternity leave #hr in document Leave Policy?", docs)
    assert (a.query, a.tags, a.doc_ids) == (
        "How long is leave ?",
        ("maternity", "hr"),
        ("leave-policy",),
    )
    assert analyze("C# and F# are languages", docs).tags == ()
    # a quoted name runs to its closing quote: a doc_id keeps a file name's comma
    sonos = [*docs, DocInfo("Sonos, Inc. - Supply", "Sonos, Inc. - Supply.txt")]
    quoted = analyze('termination in document "Sonos, Inc. - Supply"', sonos)
    assert quoted.doc_ids == ("Sonos, Inc. - Supply",)
    with pytest.raises(InvalidFilter, match="empty"):
        analyze("#only-tags", docs)


def test_the_words_matched_for_the_query_s_are_reported(run):
    res = run("When does the leave year end?", k=3)
    assert res.retrieval_summary["query_analysis"]["document_words"] == {
        "terminate": "end",
        "termination": "end",
        "expire": "end",
        "expiration": "end",
    }
    res = run("How many days of annual leave?", k=3)
    assert res.retrieval_summary["query_analysis"]["document_words"] == {}


def test_every_result_cites_its_passage_by_offsets_into_the_file(run, demo_store):
    from raag_assets.interfaces import service
    from tests.conftest import EXAMPLES

    files = {p.stem: p for p in EXAMPLES.iterdir()}
    res = run("Who approves working from home and how many days?", k=6, granularity="passage")
    assert res.results
    for r in res.results:
        a, b = r["char_start"], r["char_end"]
        assert a is not None and r["section_char_start"] <= a < b <= r["section_char_end"]
        assert r["text"] == r["passage"]  # passage granularity: the minimal span
        shown = service.show("demo", r["doc_id"], a, b, url=demo_store.url)
        assert shown["text"] == r["passage"]
        path = files[r["doc_id"]]
        if path.suffix != ".pdf":
            assert open(path, encoding="utf-8").read()[a:b] == r["passage"]  # noqa: SIM115
    sections = run("Who approves working from home and how many days?", k=6)
    # passages rank on their own score: as many results, best first, the top section's
    # best passage first; a section may give several passages, none overlapping
    assert len(res.results) == len(sections.results)
    assert res.results[0]["char_start"] == sections.results[0]["char_start"]
    assert [r["rank"] for r in res.results] == list(range(1, len(res.results) + 1))
    scores = [r["passage_score"] for r in res.results]
    assert scores == sorted(scores, reverse=True)
    spans = sorted((r["doc_id"], r["char_start"], r["char_end"]) for r in res.results)
    assert all(a[0] != b[0] or a[2] <= b[1] for a, b in itertools.pairwise(spans))
    assert sum(len(r["text"]) for r in sections.results) > sum(
        len(r["passage"]) for r in res.results
    )


def test_show_slices_the_raw_text(demo_store):
    from raag_assets.core.errors import DocumentNotFound
    from raag_assets.interfaces import service

    whole = service.show("demo", "wfh-policy", url=demo_store.url)
    assert whole["text"].startswith("---") and whole["char_end"] == whole["length"]
    part = service.show("demo", "wfh-policy", 4, 10, url=demo_store.url)
    assert part["text"] == whole["text"][4:10] and part["char_end"] == 10
    with pytest.raises(DocumentNotFound):
        service.show("demo", "no-such-doc", url=demo_store.url)
    with pytest.raises(InvalidFilter):
        service.show("demo", "wfh-policy", 10, 4, url=demo_store.url)


def test_a_query_that_names_its_document_is_answered_from_it():
    from raag_assets.retrieval.query import DocDescriptor, naming_words, resolve_document

    docs = [
        DocDescriptor(
            "ip-cerence",
            "INTELLECTUAL PROPERTY AGREEMENT by and between Nuance "
            "Communications, Inc. and Cerence Inc. Dated as of September 30, 2019",
        ),
        DocDescriptor(
            "ip-garrett",
            "INTELLECTUAL PROPERTY AGREEMENT by and between HONEYWELL "
            "INTERNATIONAL INC. and GARRETT MOTION INC. Dated as of September 27, 2018",
        ),
        DocDescriptor("rfc3501", "rfc3501 INTERNET MESSAGE ACCESS PROTOCOL - VERSION 4rev1"),
        DocDescriptor("supply", "SUPPLY AGREEMENT between Acme Corp and Beta LLC"),
    ]
    assert naming_words("How many days of annual leave do I get?") == []
    q = "Consider the Intellectual Property Agreement between Honeywell and Garrett; what is "
    q += "licensed?"
    assert resolve_document(q, docs).doc_ids == ("ip-garrett",)
    assert resolve_document("under RFC 3501, when is a mailbox selected?", docs).doc_ids == (
        "rfc3501",
    )
    named = resolve_document(
        "Consider the Supply Agreement between Acme Corp and Beta LLC; what is the notice period?",
        docs,
    )
    assert named.doc_ids == ("supply",) and {"acme", "beta"} <= set(named.words)
    # an ambiguous name keeps every document it fits; one no document carries, none
    assert resolve_document("What does the Intellectual Property Agreement say?", docs).doc_ids == (
        "ip-cerence",
        "ip-garrett",
    )
    assert resolve_document("Is Zorblat Corp bound by the Treaty of Ghent?", docs) is None
    # two versions of one name ('ip-1', 'ip-2') named without a version: the latest
    versions = [DocDescriptor(f"ip-{n}", d.names) for n, d in ((1, docs[0]), (2, docs[1]))]
    assert resolve_document(
        "What does the Intellectual Property Agreement say?", versions
    ).doc_ids == ("ip-2",)


def test_named_document_is_reported_and_ranked_first(run):
    res = run("Under the Work From Home Policy, who approves equipment?", k=4)
    named = res.retrieval_summary["query_analysis"]["named_document"]
    assert named["doc_ids"] == ["wfh-policy"]
    assert res.results[0]["doc_id"] == "wfh-policy"
    assert "named_document" in [a["kind"] for a in res.results[0]["score_breakdown"]["adjustments"]]
    plain = run("How many days of annual leave do I get?", k=2)
    assert plain.retrieval_summary["query_analysis"]["named_document"] is None


def test_topic_words_are_not_document_names():
    from raag_assets.retrieval.query import DocDescriptor, resolve_document

    docs = [
        DocDescriptor("21366394", "CX3CR1 on Th2 cells promotes T cell survival in asthma"),
        DocDescriptor("10536636", "Blindness in Southern Sudan: a survey of trachoma"),
    ]
    # a claim about a gene or a place speaks of no document: the whole tenant answers
    assert resolve_document("CX3CR1 on the Th2 cells promotes airway inflammation.", docs) is None
    assert resolve_document("Trachoma causes blindness in Southern Sudan.", docs) is None


# The README's examples (Using it: Command line, Python) answer what they say they answer.
@pytest.mark.parametrize(
    ("query", "kw", "first"),
    [
        (
            "maternity leave",
            {"as_of_date": "2025-06-01", "scope_context": "full-time", "max_expansion_hops": 2},
            ("leave-amendment-2025", "2"),
        ),
        (
            "How many days of maternity leave?",
            {"as_of_date": "2025-06-01", "scope_context": "full-time"},
            ("leave-amendment-2025", "2"),
        ),
        ("equipment #remote-work", {}, ("wfh-policy", "4")),
        ("carry over in document leave-policy-rev-a", {}, ("leave-policy-rev-a", "3.2")),
    ],
)
def test_the_readme_examples_answer_first_what_they_ask(run, query, kw, first):
    res = run(query, **kw)
    assert where(res.results[0]) == first, [where(r) for r in res.results[:5]]


def test_the_readme_carry_over_example_gives_the_rule_and_the_exception_that_overrides_it(run):
    res = run("carry over unused leave")
    top = [where(r) for r in res.results[:2]]
    assert set(top) == {("leave-policy", "3.3"), ("leave-policy", "6")}, top
    sick = next(r for r in res.results if where(r) == ("leave-policy", "6"))
    assert "overrides leave-policy § 3.3" in sick["retrieval_reason"]


def test_an_earlier_version_named_in_lower_case_answers_and_its_successor_follows(run):
    """'revision A of the leave policy': the revision says a document is meant, the plain
    words say which; the named version answers first, the section that replaced it follows
    one hop behind (not as a stand-in: the query asked for the earlier text)."""
    query = "Under revision A of the leave policy, could unused days be carried over?"
    res = run(query, k=2)
    named = res.retrieval_summary["query_analysis"]["named_document"]
    assert named["doc_ids"] == ["leave-policy-rev-a"]
    first = res.results[0]
    assert where(first) == ("leave-policy-rev-a", "3.2")
    # the old clause alone as the candidate: what replaced it comes in over the version link
    only = [{"doc_id": first["doc_id"], "chunk_index": first["chunk_index"], "score": 0.9}]
    res = run(query, query_results=only)
    by = {where(r): r for r in res.results}
    assert where(res.results[0]) == ("leave-policy-rev-a", "3.2")
    successor = by[("leave-policy", "3.3")]
    assert successor["expansion_depth"] == 1
    assert successor["provenance"]["edge_type"] == "supersedes"


def test_a_contract_named_by_its_kind_and_parties(make_store, embedder, tmp_path):
    """Two contracts of one kind between different parties: the parties the query names pick
    the contract (its parties are read into its metadata at ingest)."""
    body = (
        "DISTRIBUTION AGREEMENT\n\nThis Distribution Agreement is made on March 1, 2021 by and "
        'between {a}, a Delaware corporation ("Supplier"), and {b} ("Distributor").\n\n'
        "1. Term\n\nThis Agreement continues for three years.\n\n"
        "2. Territory\n\nThe Distributor may sell the Products in Ohio.\n"
    )
    for name, a, b in (
        ("dist-north", "Northwind Widgets Inc.", "Bluegate Trading LLC"),
        ("dist-south", "Southmark Gears Inc.", "Redfern Supply LLC"),
    ):
        (tmp_path / f"{name}.txt").write_text(body.format(a=a, b=b), encoding="utf-8")
    store = make_store()
    assert store.ingest([tmp_path], "contracts").success
    with store.connect() as conn:
        for query, doc in (
            ("the Distribution Agreement between Southmark and Redfern: its term", "dist-south"),
            (
                "territory under the Distribution Agreement between Northwind and Bluegate",
                "dist-north",
            ),
        ):
            res = search(query, "contracts", conn=conn, embed=embedder.embed, k=3)
            named = res.retrieval_summary["query_analysis"]["named_document"]
            assert named["doc_ids"] == [doc]
            assert res.results[0]["doc_id"] == doc


def test_a_contract_added_later_is_named_at_once(make_store, embedder, tmp_path):
    """What names each document, and the documents "in document" looks in, are kept between
    searches (under the tenant's documents generation): a contract ingested after a search
    must be nameable by the next."""
    body = (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made on May 1, 2022 by and between {a} "
        '("Supplier") and {b} ("Buyer").\n\n1. Price\n\nThe Buyer pays on delivery.\n'
    )
    (tmp_path / "supply-north.txt").write_text(
        body.format(a="Northwind Widgets Inc.", b="Bluegate Trading LLC"), encoding="utf-8"
    )
    (tmp_path / "supply-south.txt").write_text(
        body.format(a="Southmark Gears Inc.", b="Redfern Supply LLC"), encoding="utf-8"
    )
    store = make_store()
    assert store.ingest([tmp_path], "supply").success

    def named(query: str) -> list[str] | None:
        with store.connect() as conn:
            res = search(query, "supply", conn=conn, embed=embedder.embed, k=2)
        found = res.retrieval_summary["query_analysis"]["named_document"]
        return found and found["doc_ids"]

    ask = "the Supply Agreement between Eastgate Mills and Westport Foods: the price"
    assert named("the Supply Agreement between Southmark and Redfern: the price") == [
        "supply-south"
    ]
    assert named(ask) != ["supply-east"]
    with store.connect() as conn, pytest.raises(InvalidFilter, match="no document matching"):
        search("the price in document supply-east", "supply", conn=conn, embed=embedder.embed)
    (tmp_path / "supply-east.txt").write_text(
        body.format(a="Eastgate Mills Inc.", b="Westport Foods LLC"), encoding="utf-8"
    )
    assert store.ingest([tmp_path], "supply").success
    assert named(ask) == ["supply-east"]
    with store.connect() as conn:  # the documents "in document" looks in are kept alike
        res = search("the price in document supply-east", "supply", conn=conn, embed=embedder.embed)
    assert {r["doc_id"] for r in res.results} == {"supply-east"}
