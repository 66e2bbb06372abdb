"""Gold scoring per rule: each rule's edges are scored on their own, so a rule that misfires
is seen by name."""

import unicodedata
from pathlib import Path

from raag_assets.quality import graph_gold as golden


def _edge(rule: str, src: str, dst: str) -> dict[str, object]:
    return {
        "edge_type": "references",
        "src_doc_id": "d",
        "src_label": src,
        "dst_doc_id": "d",
        "dst_label": dst,
        "term": None,
        "rule": rule,
    }


def test_score_rules_scores_each_rule_on_its_own_edges() -> None:
    gold = golden.GoldDoc("d", "contracts", Path("d.jsonl"))
    for src, dst in (("1", "2"), ("1", "3"), ("4", "2")):
        gold.edges.append(
            golden.GoldEdge(golden.edge_key("references", "d", src, "d", dst, None), "", "")
        )
    edges = [
        _edge("references.section_label", "1", "2"),
        _edge("references.section_label", "1", "3"),
        _edge("references.bare_number", "4", "2"),
        _edge("references.bare_number", "4", "9"),  # a misfire
    ]
    scores = golden.score_rules([gold], edges)
    assert set(scores) == {"references.section_label", "references.bare_number"}
    label = scores["references.section_label"]
    assert (label.found, label.true_positives, label.precision) == (2, 2, 1.0)
    assert round(label.recall, 2) == 0.67  # two of the three gold references
    bare = scores["references.bare_number"]
    assert (bare.found, bare.true_positives, bare.precision) == (2, 1, 0.5)
    table = golden.rule_table(scores)
    assert "references.bare_number" in table and "0.50" in table


def test_a_gold_file_under_a_decomposed_name_is_the_same_document(tmp_path: Path) -> None:
    """A file system that keeps "É" as "E" + a combining accent (NFD) names the same document
    as raag's composed doc id: the gold's file name, doc fields and corpus list all match."""
    composed = "MÉTIVIER S.A. - JOINT AGREEMENT"
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    path = tmp_path / f"{decomposed}.jsonl"
    row = '{"doc": "%s", "src": "1", "type": "references", "dst_doc": "%s", "dst": "2"}'
    path.write_text(row % (decomposed, decomposed) + "\n", encoding="utf-8")
    gold = golden.load_jsonl(path, "blind")
    assert gold.doc_id == composed
    found = golden.edge_key("references", composed, "1", composed, "2", None)
    assert [g.key for g in gold.edges] == [found]


def test_outside_corpus_counts_certain_citations_of_absent_documents() -> None:
    """Citations of a document nobody supplied are counted apart (raag parks them unresolved):
    in-document and in-corpus targets, likely edges and definitions are not counted."""
    gold = golden.GoldDoc("supply", "contracts", Path("supply.jsonl"))
    rows = [
        ("references", "2.1", "Quality Agreement", "", "certain"),
        ("depends_on", "2.1", "Quality Agreement", "", "certain"),
        ("references", "3", "Master Services Agreement", "4", "likely"),
        ("references", "3", "supply", "2", "certain"),
        ("references", "3", "msa", "", "certain"),  # in the corpus
        ("uses_term", "3", "Quality Agreement", "", "certain"),
    ]
    for kind, src, dst_doc, dst, confidence in rows:
        key = golden.edge_key(kind, "supply", src, dst_doc, dst, "Products")
        gold.edges.append(golden.GoldEdge(key, "", confidence))
    assert golden.outside_corpus([gold], {"supply", "msa"}) == {"references": 1, "depends_on": 1}
    assert golden.outside_corpus([gold], {"supply", "msa", "Quality Agreement"}) == {}
