"""Written question sets: quotes located whitespace-insensitively, spans scored by overlap,
halves fixed by the question's id."""

from pathlib import Path

from raag_assets.quality import questions as qs

ROOT = Path(__file__).resolve().parents[2]


def test_quotes_are_found_across_line_breaks_and_scored_by_overlap():
    text = "1. Grant\nThe Licensor grants\n   you a licence.\n2. Term\nIt lasts a year."
    assert qs.locate(text, "grants you a licence") == (text.index("grants"), text.index(".\n2"))
    assert qs.locate(text, "no such words") is None
    q = qs.Question(
        "t-1",
        "What is granted, and for how long?",
        (
            qs.Answer("d", "1", "grants you a licence"),
            qs.Answer("d", "2", "lasts a year", "next_step"),
        ),
        names="d",
    )
    gold = qs.gold_spans(q, {"doc-d": text}, {"d": "doc-d"})
    assert all(g is not None for g in gold)
    first = ("doc-d", 0, text.index("2. Term"))
    got = qs.score(q, gold, [first], "doc-d")
    assert (got.recall, got.hit, got.hop_found, got.hops, got.named_first) == (
        0.5,
        True,
        0,
        1,
        True,
    )
    other = qs.score(q, gold, [("elsewhere", 0, 999), first], "doc-d")
    assert other.named_first is False and other.recall == 0.5


def test_every_written_question_has_a_half_and_answers():
    files = sorted((ROOT / "golden" / "questions").glob("*.yaml"))
    assert {f.stem for f in files} >= {"licenses", "contracts", "policies"}
    questions = [q for f in files for q in qs.load_questions(f)]
    assert len(questions) >= 150
    assert len({q.id for q in questions}) == len(questions)
    parts = {q.part for q in questions}
    assert parts == {"look", "scored"}
    assert all(q.answers and all(a.quote.split() for a in q.answers) for q in questions)
