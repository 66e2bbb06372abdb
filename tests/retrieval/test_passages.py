"""Passage choice inside a section (pure): the sentences that answer, as raw-text spans."""

from itertools import pairwise

from raag_assets.ingest.chunking import ChunkPolicy, chunk_sections
from raag_assets.ingest.normalize import join_lines_mapped
from raag_assets.ingest.sectioning import Section
from raag_assets.retrieval.passages import best_passage, best_passages, raw_sentences

RAW = (
    "Section 11.03. Governing Law; Jurisdiction.\n\n"
    "This Agreement may be executed in counterparts.  Any disputes relating to\n"
    "this Agreement shall be governed by the laws of the State of Delaware. Each\n"
    "Party submits to the courts of Delaware.\n\n"
    "Dated as of September 30, 2019."
)


def test_raw_sentences_keep_the_raw_spacing():
    spans = raw_sentences(RAW)
    texts = [RAW[a:b] for a, b in spans]
    assert any(t.startswith("Any disputes relating to\nthis Agreement") for t in texts)
    assert all(RAW[a:b] == RAW[a:b].strip() for a, b in spans)


def test_the_sentence_that_answers_not_the_run_in_title():
    a, b = best_passage(
        RAW, "Which jurisdiction's law governs the agreement?", None, "Governing Law; Jurisdiction"
    )
    assert RAW[a:b].startswith("Any disputes") and RAW[a:b].endswith("State of Delaware.")
    a, b = best_passage(RAW, "When was it signed?", None, "Governing Law; Jurisdiction")
    assert RAW[a:b] == "Dated as of September 30, 2019."  # a question of when: the date
    # nothing shared: the first sentence of the retrieved chunk
    start = RAW.index("Each")
    a, b = best_passage(RAW, "zebra", (start, len(RAW)), "Governing Law; Jurisdiction")
    assert RAW[a:b] == "Each\nParty submits to the courts of Delaware."


def test_section_and_chunk_offsets_map_normalised_text_back_to_raw():
    lines = [("Some text that", 0, 16), ("goes on here.", 17, 30)]  # raw "Some   text that"
    text, where = join_lines_mapped(lines)
    assert text == "Some text that goes on here."
    assert where[0] == 0 and where[-1] == 29 and where[text.index("goes")] == 17
    section = Section("s", "d", 0, "1", "Head", 1, None, text, None, None, 0, 30, tuple(where))
    [chunk] = chunk_sections([section], ChunkPolicy(64), lambda t: len(t.split()))
    assert (chunk.char_start, chunk.char_end) == (0, 30)


LONG = (
    "12.1 Term. This Agreement begins on the Effective Date and continues for three years.\n\n"
    "12.2 Fees. The Customer pays the fees in Schedule B within thirty days of invoice.\n\n"
    "12.3 Renewal. After the initial term this Agreement renews for further terms of one\n"
    "year each, unless either party gives notice of non-renewal.\n\n"
    "12.4 Audit. Either party may audit the records once a year."
)


def test_a_section_gives_each_clause_that_answers_as_its_own_passage():
    asked = "For how many years does the agreement continue or renew?"
    found = best_passages(LONG, asked, None, "", 3)
    assert [LONG[a:b] for a, b, _ in found][:1] == [
        "This Agreement begins on the Effective Date and continues for three years."
    ]
    # the renewal clause answers the other half on its own: a passage of its own
    assert any(LONG[a:b].startswith("After the initial term") for a, b, _ in found[1:])
    assert found[0][2] == 1.0 and all(0 < share <= 1.0 for _, _, share in found)
    spans = sorted((a, b) for a, b, _ in found)
    assert all(b1 <= a2 for (_, b1), (a2, _) in pairwise(spans))  # no overlap
    # the audit clause shares only "year": below the share a separate answer needs
    assert not any("audit" in LONG[a:b] for a, b, _ in found)
    assert best_passage(LONG, asked) == found[0][:2]
    assert len(best_passages(LONG, "zebra", None, "", 3)) == 1  # no match: one fallback
