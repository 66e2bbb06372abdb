"""Optional blocks: compress, context_pack with PII redaction, and rerank with a real
CrossEncoder (a tiny one the test builds and saves, since none can be downloaded here)."""

import pytest
import torch
from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

from raag_assets.ingest.embedding import resolve_model_path
from raag_assets.retrieval.passages import compress, context_pack, redact_pii
from raag_assets.retrieval.rerank import rerank
from raag_assets.retrieval.search import search


@pytest.fixture(scope="module")
def results(demo_store, embedder):
    with demo_store.connect() as conn:
        return search(
            "Who approves leave of more than 10 days?", "demo", conn=conn, embed=embedder.embed
        ).results


def test_compress_keeps_sentences_around_query_words():
    text = (
        "Leave is requested in the HR system. Weather is irrelevant here. Nothing to see. "
        "Approval of leave rests with the Line Manager. The end."
    )
    [r] = compress([{"text": text}], "who gives approval", window=0)
    assert r["text"] == "Approval of leave rests with the Line Manager."
    [gap] = compress([{"text": text}], "leave approval", window=0)
    assert gap["text"] == (
        "Leave is requested in the HR system. … Approval of leave rests with the Line Manager."
    )
    [wide] = compress([{"text": text}], "who gives approval", window=1)
    assert "Nothing to see." in wide["text"] and "The end." in wide["text"]
    assert wide["compressed_from"] == len(text)


def test_context_pack_respects_the_budget_and_cites(results, embedder):
    pack = context_pack(results, 120, embedder.count_tokens)
    assert 0 < pack.tokens <= 120
    assert embedder.count_tokens(pack.text) <= 120
    for c in pack.citations:
        assert f"[{c['n']}] {c['doc_id']} § {c['label']}" in pack.text
    assert [c["n"] for c in pack.citations] == list(range(1, len(pack.citations) + 1))
    assert pack.dropped  # not everything fits in 120 tokens
    big = context_pack(results, 10_000, embedder.count_tokens)
    assert len(big.citations) == len(results) and not big.dropped


def test_pii_redaction():
    text = (
        "Mail jane.doe@example.com or call +44 20 7946 0958. SSN 123-45-6789, card "
        "4111 1111 1111 1111, not a card 1234 5678 9012 3456. Effective 2024-01-01, 37.5 hours."
    )
    clean, counts = redact_pii(text)
    assert counts == {"email": 1, "ssn": 1, "card": 1, "phone": 1}
    assert "jane.doe" not in clean and "4111" not in clean and "123-45-6789" not in clean
    assert "2024-01-01" in clean and "37.5 hours" in clean
    assert "1234 5678 9012 3456" in clean  # fails the Luhn check: not a card number


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory):
    """A 1-layer BERT classifier with the MiniLM tokenizer, saved like any downloaded model."""
    path = tmp_path_factory.mktemp("cross-encoder")
    tokenizer = AutoTokenizer.from_pretrained(resolve_model_path("all-MiniLM-L6-v2"))
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        num_labels=1,
    )
    BertForSequenceClassification(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return str(path)


def test_rerank_blends_scores(results, tiny_cross_encoder):
    keep = rerank("approval", results, tiny_cross_encoder, blend_weight=0.0)
    assert [r["section_id"] for r in keep] == [r["section_id"] for r in results]
    by_model = rerank("approval", results, tiny_cross_encoder, blend_weight=1.0)
    scores = [r["rerank_score"] for r in by_model]
    assert scores == sorted(scores, reverse=True)
    half = rerank("approval", results, tiny_cross_encoder, blend_weight=0.5, top_n=4)
    assert len(half) == 4 and all(0 <= r["blended_score"] <= 1 for r in half)
    assert half == rerank("approval", results, tiny_cross_encoder, blend_weight=0.5, top_n=4)
