"""Chunks fit the embedding model's window, are deterministic and keep their section context."""

from raag_assets.ingest.chunking import ChunkPolicy, chunk_sections, sentence_spans
from raag_assets.ingest.parsing import parse_file
from raag_assets.ingest.sectioning import Section, build_sections
from tests.conftest import LICENSES


def test_license_chunks_fit_the_window(embedder):
    doc = parse_file(LICENSES / "GPL-3", 50_000_000)
    sections = build_sections(doc.doc_id, doc.lines, doc.format)
    policy = ChunkPolicy(max_tokens=200)
    chunks = chunk_sections(sections, policy, embedder.count_tokens)
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    assert all(embedder.count_tokens(c.content) <= 200 for c in chunks)
    assert max(c.token_count for c in chunks) > 150  # packed, not one sentence each
    assert policy.max_tokens <= embedder.max_tokens
    again = chunk_sections(sections, policy, embedder.count_tokens)
    assert again == chunks


def test_every_chunk_starts_with_its_section_header(embedder):
    doc = parse_file(LICENSES / "MPL-2.0", 50_000_000)
    sections = build_sections(doc.doc_id, doc.lines, doc.format)
    by_id = {s.section_id: s for s in sections}
    for chunk in chunk_sections(sections, ChunkPolicy(), embedder.count_tokens):
        section = by_id[chunk.section_id]
        assert chunk.content.startswith(section.label)


def test_one_enormous_sentence_is_split_not_dropped(embedder):
    words = " ".join(f"word{n}" for n in range(3000))
    section = Section("s1", "doc", 0, "1", "Long", 1, None, words, None, None)
    chunks = chunk_sections([section], ChunkPolicy(max_tokens=64), embedder.count_tokens)
    assert len(chunks) > 10
    assert all(c.token_count <= 64 for c in chunks)
    kept = " ".join(c.content.split("\n", 1)[1] for c in chunks).split()
    assert kept == words.split()


def test_chunks_are_sized_by_the_counts_the_model_s_own_tokenizer_gives(embedder):
    """Chunking reads the model's tokenizer.json with `tokenizers` (no transformers import);
    it must count what the model's AutoTokenizer counts, on text of every kind."""
    from transformers import AutoTokenizer

    from raag_assets.ingest.embedding import Embedder

    fresh = Embedder(embedder.model_name)
    reference = AutoTokenizer.from_pretrained(fresh._path)
    doc = parse_file(LICENSES / "GPL-3", 50_000_000)
    texts = [s.text for s in build_sections(doc.doc_id, doc.lines, doc.format)]
    texts += ["", "é ü ß — “quoted” ‘x’ \u00a0", "word " * 3000, "中文 😀 Ⅳ ﬁ"]
    counts = [fresh.count_tokens(t) for t in texts]
    assert counts == [len(reference(t, add_special_tokens=False)["input_ids"]) for t in texts]
    assert max(counts) > 512  # no truncation at the model's window
    assert "_model" not in fresh.__dict__  # counting loaded no weights


def test_a_sentence_within_budget_is_counted_once(embedder):
    """The tokenizer is most of chunking's cost: each sentence is counted once (its count both
    decides whether it must be split and packs it), then each section's header and chunk."""
    doc = parse_file(LICENSES / "GPL-3", 50_000_000)
    sections = [s for s in build_sections(doc.doc_id, doc.lines, doc.format) if s.text]
    counted: list[str] = []

    def count(text: str) -> int:
        counted.append(text)
        return embedder.count_tokens(text)

    policy = ChunkPolicy(max_tokens=1000)  # no sentence of the licence is cut
    chunks = chunk_sections(sections, policy, count)
    sentences = sum(len(sentence_spans(s.text)) for s in sections)
    assert len(counted) == sentences + len(sections) + len(chunks)
    assert chunks == chunk_sections(sections, policy, embedder.count_tokens)
