"""Passage choice inside a section (pure): the sentences that answer, as raw-text spans."""

from raag_assets.chunking import ChunkPolicy, chunk_sections
from raag_assets.context import best_passage, raw_sentences
from raag_assets.normalize import join_lines_mapped
from raag_assets.sectioning import Section

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
