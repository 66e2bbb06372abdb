"""The result JSON names the extraction rule behind each edge: in the result graph, in a
result's provenance, and in the explanations where an edge is the reason for an expansion,
a boost or a conflict's outcome."""

from raag_assets.retrieval.assemble import Request, assemble
from raag_assets.retrieval.model import Pool, ScoredSection
from raag_assets.retrieval.passages import section_passages
from raag_assets.retrieval.query import QueryAnalysis
from raag_assets.retrieval.scoring import score_and_resolve
from tests.retrieval.builders import edge, hit, section


def run(pool: Pool):
    ordered, found = score_and_resolve(pool, None, None)
    request = Request("q", "t", QueryAnalysis("q", (), ()), None, None)
    return assemble(request, ordered, pool, found, section_passages(ordered, "q", "section"))


def test_edges_carry_their_rule_into_the_json_and_the_explanations():
    top = hit(section("top", label="1"), 0.03)
    cites = edge("e1", "references", "top", "ref", rule="references.section_label")
    ref = ScoredSection(section("ref", label="2"), 1, 0.024, via=cites, via_from="top")
    over = edge("e2", "overrides", "x", "top", rule="overrides.notwithstanding")
    x = hit(section("x", label="3"), 0.02)
    plain = edge("e3", "references", "x", "ref")  # made before rules had ids
    res = run(Pool([top, ref, x], [cites, over, plain], []))
    graph = {e["edge_id"]: e for e in res.result_graph}
    assert graph["e1"]["rule"] == "references.section_label"
    assert graph["e2"]["rule"] == "overrides.notwithstanding"
    assert graph["e3"]["rule"] is None
    by = {r["section_id"]: r for r in res.results}
    assert by["ref"]["provenance"]["rule"] == "references.section_label"
    assert "via references (references.section_label) from doc § 1" in by["ref"]["retrieval_reason"]
    [boost] = by["ref"]["score_breakdown"]["adjustments"]
    assert boost["detail"].startswith("references (references.section_label) from a top hit")
    [wins] = by["x"]["score_breakdown"]["adjustments"]
    assert wins["detail"] == "overrides doc § 1 (overrides.notwithstanding)"
    [conflict] = res.retrieval_summary["conflicts"]
    assert conflict["reason"] == "doc § 3 says 'overrides' (overrides.notwithstanding)"


def test_an_edge_without_a_rule_reads_as_before():
    top = hit(section("top", label="1"), 0.03)
    cites = edge("e1", "references", "top", "ref")
    ref = ScoredSection(section("ref", label="2"), 1, 0.024, via=cites, via_from="top")
    res = run(Pool([top, ref], [cites], []))
    reason = res.results[1]["retrieval_reason"]
    assert reason.startswith("expanded at depth 1 via references from doc § 1: 'references'")
