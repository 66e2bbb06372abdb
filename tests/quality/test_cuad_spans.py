"""The CUAD span set: queries that name the contract, clauses located in the file as read, the
fixed halves and subsample; hit@k and hits per category on hand-worked rankings."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

from raag_assets.quality import cuad, cuad_spans, evaluation, span_eval

ROOT = Path(__file__).resolve().parents[2]
CUAD = Path(os.environ.get("RAAG_SHARED", ROOT.parent / "shared")) / "data" / "cuad"

CONTRACT = (
    "SUPPLY AGREEMENT\n\n1. Term. This Agreement shall remain in effect for\n  five (5) years.\n\n"
    "2. Law. This Agreement is governed by the laws of Delaware. Each party waives a jury "
    "trial, and any action shall be brought in Delaware courts.\n"
)
ROW = {
    "file": "Acme_Supply.txt",
    "Document Name": {"clauses": "['SUPPLY AGREEMENT']", "answer": "SUPPLY AGREEMENT"},
    "Parties": {"clauses": "[]", "answer": 'Acme Corp. ("Acme"); Beta, LLC and its Affiliates'},
    "Effective Date": {"clauses": "['five (5) years']", "answer": ""},
    "Expiration Date": {
        "clauses": "['This Agreement shall remain in effect for five (5) years.']",
        "answer": "",
    },
    "Governing Law": {
        "clauses": "['This Agreement is governed by the laws of Delaware.<omitted>any action "
        "shall be brought in Delaware courts.']",
        "answer": "Delaware",
    },
    "Non-Compete": {"clauses": "[]", "answer": "No"},
}


def test_parties_are_the_organisations_not_their_defined_names() -> None:
    assert cuad_spans.organisations(
        'Birch First Global Investments Inc. ("Company"); Mount Kowledge Holdings Inc. ("MA")'
    ) == ["Birch First Global Investments Inc.", "Mount Kowledge Holdings Inc."]
    assert cuad_spans.organisations(
        '(Dragon Systems, Inc. ("Dragon Systems"); Modus Media International ("MMI")'
    ) == ["Dragon Systems, Inc.", "Modus Media International"]
    assert cuad_spans.organisations(
        'Pizza Fusion Holding, Inc. ("we", "us"); the individual or legal entity identified on '
        'the cover page ("Franchisee"); (collectively "Parties")'
    ) == ["Pizza Fusion Holding, Inc."]
    assert cuad_spans.organisations('Sekisui Diagnostics, LLC and its Affiliates ("Sekisui")') == [
        "Sekisui Diagnostics, LLC"
    ]
    assert cuad_spans.organisations("") == []


def test_query_names_the_contract_then_asks() -> None:
    name = cuad_spans.document_name("INTELLECTUAL PROPERTY AGREEMENT, d")
    assert name == "Intellectual Property Agreement"
    assert cuad_spans.document_name("Co-Branding  Agreement") == "Co-Branding Agreement"
    assert (
        cuad_spans.query(name, ["A Inc.", "B LLC", "C plc"], "which law governs it?")
        == "Consider the Intellectual Property Agreement between A Inc., B LLC and C plc; "
        "which law governs it?"
    )
    assert cuad_spans.query("The Deed", [], "who?") == "Consider The Deed; who?"


def test_clauses_located_in_the_text_as_read_piece_by_piece() -> None:
    tests, missing = cuad_spans.contract_tests(ROW, CONTRACT)
    assert missing == 0
    by_category = {t["category"]: t for t in tests}
    # Effective Date is a date, not a clause; Non-Compete has none
    assert list(by_category) == ["Governing Law", "Expiration Date"]
    assert by_category["Governing Law"]["query"] == (
        "Consider the Supply Agreement between Acme Corp. and Beta, LLC; "
        "which jurisdiction's law governs it?"
    )
    law = [CONTRACT[a:b] for a, b in (s["span"] for s in by_category["Governing Law"]["snippets"])]
    assert law == [
        "This Agreement is governed by the laws of Delaware.",
        "any action shall be brought in Delaware courts.",
    ]
    (term,) = by_category["Expiration Date"]["snippets"]
    a, b = term["span"]
    assert CONTRACT[a:b] == "This Agreement shall remain in effect for\n  five (5) years."
    assert {t["part"] for t in tests} == {cuad.part_of("Acme_Supply.txt")}
    _, lost = cuad_spans.clause_spans(CONTRACT, ["not in the text<omitted>(a)"])
    assert lost == 1  # "(a)" is too short to count as a piece


def test_the_subsample_is_fixed_and_within_its_half() -> None:
    files = [f"contract-{n}.txt" for n in range(60)]
    look = cuad_spans.sample(files, cuad.LOOK, 5)
    assert look == cuad_spans.sample(reversed(files), cuad.LOOK, 5)  # an order, not a draw
    assert look == cuad_spans.file_order(f for f in files if cuad.part_of(f) == cuad.LOOK)[:5]
    assert all(cuad.part_of(f) == cuad.LOOK for f in look)
    everything = cuad_spans.sample(files, cuad.SCORED, None)
    assert set(everything) == {f for f in files if cuad.part_of(f) == cuad.SCORED}
    with pytest.raises(ValueError, match="not a half"):
        cuad_spans.sample(files, "tuning", 5)


def test_committed_set_is_what_the_labels_give() -> None:
    committed = json.loads((ROOT / "golden" / "spans" / "cuad.json").read_text(encoding="utf-8"))
    tests, missing = cuad_spans.build(cuad.load_labels(CUAD / "labels.jsonl"), CUAD / "contracts")
    assert committed["tests"] == tests and missing == 0
    assert committed["corpus"] == "../shared/data/cuad/contracts"
    for t in tests[:: max(1, len(tests) // 150)]:  # a spread of tests, read from disk
        (file,) = {s["file_path"] for s in t["snippets"]}
        assert t["part"] == cuad.part_of(file) and t["category"] in cuad_spans.QUESTIONS
        with open(CUAD / "contracts" / file, encoding="utf-8") as fh:
            text = fh.read()
        for s in t["snippets"]:
            a, b = s["span"]
            assert 0 <= a < b <= len(text) and text[a:b].strip() == text[a:b]


def _set(tmp_path: Path) -> evaluation.SpanSet:
    def test(file: str, category: str, a: int, b: int) -> evaluation.SpanTest:
        return evaluation.SpanTest(f"{category}?", ((file, a, b),), category, cuad.part_of(file))

    return evaluation.SpanSet(
        tmp_path,
        (
            test("contract-0.txt", "Governing Law", 100, 200),
            test("contract-0.txt", "Insurance", 500, 600),
            test("contract-1.txt", "Governing Law", 0, 50),
        ),
    )


def test_hit_at_k_is_any_overlap_within_the_first_k() -> None:
    gold = [("a.txt", 100, 200)]
    assert evaluation.span_hit([("a.txt", 199, 300)], gold)
    assert not evaluation.span_hit([("a.txt", 200, 300), ("b.txt", 100, 200)], gold)  # touching
    assert not evaluation.span_hit([], gold)
    data = evaluation.SpanSet(Path("."), (evaluation.SpanTest("q", (("a.txt", 100, 200),)),))
    ranked = {"late": [[("a.txt", 0, 10)] * 4 + [("a.txt", 150, 160)]]}
    (row,) = evaluation.span_scores(data, ranked)
    assert (row["hit@1"], row["hit@4"], row["hit@10"]) == (0.0, 0.0, 1.0)


def test_hits_by_category(tmp_path: Path) -> None:
    data = _set(tmp_path)
    ranked = {
        "s": [
            [("contract-0.txt", 150, 160)],
            [("contract-0.txt", 0, 10)],
            [("contract-1.txt", 0, 5)],
        ]
    }
    assert evaluation.hits_by_category(data, ranked) == [
        {"category": "Governing Law", "tests": 2, "s": 1.0},
        {"category": "Insurance", "tests": 1, "s": 0.0},
    ]


def test_halves_keep_each_test_with_its_half_and_sample(tmp_path: Path) -> None:
    data = _set(tmp_path)
    halves = span_eval.halves(data, 1)
    assert set(halves) == set(cuad_spans.PARTS)
    for part, half in halves.items():
        assert all(t.part == part for t in half.tests)
        assert len({s[0] for t in half.tests for s in t.snippets}) <= 1
    assert sum(len(h.tests) for h in span_eval.halves(data, None).values()) == 3
    assert span_eval.halves(evaluation.SpanSet(tmp_path, (evaluation.SpanTest("q", ()),)), 1) == {}
    assert span_eval.half_tenant("spans-cuad", "look", 40) == "spans-cuad-look-40"
    assert span_eval.half_tenant("spans-cuad", "scored", None) == "spans-cuad-scored-all"


def test_chunk_vectors_are_embedded_once_across_runs(tmp_path: Path) -> None:
    # A stand-in embedder that counts its calls: what is tested is the cache, not a model.
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return np.array([[len(t), t.count("a")] for t in texts], dtype=np.float32)

    path = tmp_path / "vectors.npz"
    first = span_eval.VectorFile(path, embed)
    assert first(["aa", "b", "aa"]).tolist() == [[2, 2], [1, 0], [2, 2]]
    first.save()
    again = span_eval.VectorFile(path, embed)
    assert again(["b", "aa"]).tolist() == [[1, 0], [2, 2]]
    assert calls == [["aa", "b"]]  # the repeat within a call and the second run cost nothing
