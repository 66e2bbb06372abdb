"""Passage choice inside a section (pure): the sentences that answer, as raw-text spans."""

from itertools import pairwise

from raag_assets.ingest.chunking import ChunkPolicy, chunk_sections
from raag_assets.ingest.normalize import join_lines_mapped
from raag_assets.ingest.sectioning import Section
from raag_assets.retrieval.passages import (
    MAX_ITEM_CHARS,
    best_passage,
    best_passages,
    raw_items,
    raw_sentences,
)

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


def test_the_paragraph_that_answers_not_the_run_in_title():
    a, b = best_passage(
        RAW, "Which jurisdiction's law governs the agreement?", None, "Governing Law; Jurisdiction"
    )
    # the whole paragraph (the document's item) that holds the answer, without the title
    # above it or the paragraph after it
    assert RAW[a:b].startswith("This Agreement may") and RAW[a:b].endswith("courts of Delaware.")
    a, b = best_passage(RAW, "When was it signed?", None, "Governing Law; Jurisdiction")
    assert RAW[a:b] == "Dated as of September 30, 2019."  # a question of when: the date
    # nothing shared: the item where the retrieved chunk begins
    start = RAW.index("Dated")
    a, b = best_passage(RAW, "zebra", (start, len(RAW)), "Governing Law; Jurisdiction")
    assert RAW[a:b] == "Dated as of September 30, 2019."
    a, b = best_passage(RAW, "zebra", (RAW.index("Each"), len(RAW)), "Governing Law")
    assert RAW[a:b].startswith("This Agreement may") and RAW[a:b].endswith("of Delaware.")


def test_section_and_chunk_offsets_map_normalised_text_back_to_raw():
    # raw "Some   text that": the first line's shifts say where its collapsed spaces were
    lines = [("Some text that", 0, 16, ((5, 2),)), ("goes on here.", 17, 30, ())]
    text, where = join_lines_mapped(lines)
    assert text == "Some text that goes on here."
    assert where[0] == 0 and where[-1] == 29 and where[text.index("goes")] == 17
    assert where[text.index("text")] == 7  # exact, not in proportion to the line
    # without shifts (lines stored before they were kept) a line maps in proportion
    _, rough = join_lines_mapped([("Some text that", 0, 16, None), ("goes on here.", 17, 30, ())])
    assert rough[text.index("text")] == 5 and rough[-1] == 29
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


LETTERED = (
    "7.1 Restrictions on the Reseller.\n\n"
    "(a) During the Term, the Reseller shall not market any services to Customers without the "
    "prior written approval of the Supplier.   (b) The Reseller may market new services to "
    "customers of the Supplier with its approval, but only to the extent such services are "
    "offered on the Reseller's own site. It shall report each such sale monthly;   (c) the "
    "Reseller shall keep the Supplier's customer lists confidential."
)


def test_items_are_the_numbered_and_lettered_clauses_as_written():
    texts = [LETTERED[a:b] for a, b in raw_items(LETTERED)]
    assert texts[0] == "7.1 Restrictions on the Reseller."
    assert [t[:3] for t in texts[1:]] == ["(a)", "(b)", "(c)"]
    assert texts[2].endswith("each such sale monthly;")
    # a reference to an item is not one
    assert len(raw_items("as set out in clause (a) above; and Section 2.4.1 The Buyer")) == 1


def test_the_passage_is_the_whole_lettered_clause_not_its_neighbours():
    a, b, _ = best_passages(LETTERED, "Which sales must be reported?", None, "Restrictions")[0]
    # the sentence that answers lies in (b): the passage is all of (b), and only (b)
    assert LETTERED[a:b].startswith("(b) The Reseller may market")
    assert LETTERED[a:b].endswith("each such sale monthly;")
    # an item longer than MAX_ITEM_CHARS keeps the sentences that answer
    filler = " ".join(["The Buyer pays the fee."] * (MAX_ITEM_CHARS // 20))
    long = f"(a) {filler} Each sale is reported monthly."
    a, b, _ = best_passages(long, "Which sales must be reported?")[0]
    assert long[a:b] == "Each sale is reported monthly."


def test_words_that_differ_in_a_suffix_match():
    raw = "The Sponsor may use the race car.\n\nNo driver endorses a product in competition."
    a, b = best_passage(raw, "Is a party restricted from competing?")
    assert raw[a:b].endswith("in competition.")


def test_meaning_and_words_together_choose_among_clauses_sharing_a_word():
    raw = (
        "The fees are due monthly and the term of payment is thirty days.\n\n"
        "This Agreement runs for an initial term of five years from the Effective Date."
    )
    second = raw.index("This Agreement")
    asked = "When does the initial term end?"
    # words alone: both share "term"; "initial" makes the second one the answer
    a, b = best_passage(raw, asked)
    assert raw[a:b].startswith("This Agreement")
    # a chunk far from the query's meaning weighs its words less; no chunks, no change
    meaning = [(0, second - 2, 0.9), (second, len(raw), 0.2)]
    a, _, _ = best_passages(raw, "When is the term of payment?", meaning=meaning)[0]
    assert a == 0
    meaning = [(0, second - 2, 0.2), (second, len(raw), 0.9)]
    a, _, _ = best_passages(raw, "What term applies?", meaning=meaning)[0]
    assert a == second
    a, _, _ = best_passages(raw, "What term applies?")[0]
    assert a == 0  # the earliest among equals without meaning


def test_a_clause_in_drafting_terms_answers_a_plain_question():
    raw = (
        "The Franchisee shall submit an annual statement to the Franchisor.\n\n"
        "Upon termination or expiration of this Agreement, the Franchisee shall cease to use "
        "the Marks."
    )
    # no word shared as written: without "termination" for "ends", the first sentence
    a, b = best_passage(raw, "What must a party do after it ends?")
    assert raw[a:b].startswith("Upon termination")
    # the British spelling of a query finds the American one of the document
    raw = "Fees are paid monthly.\n\nThe license may not be transferred."
    a, b = best_passage(raw, "May the licence be assigned?")
    assert raw[a:b] == "The license may not be transferred."
