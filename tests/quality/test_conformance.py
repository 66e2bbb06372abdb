"""Golden conformance: a fresh ingest of golden/conformance/corpus matches the newest expected
version, and a chunking or fusion constant changed by one is caught with a readable diff."""

import pytest

from raag_assets.core.errors import RaagError
from raag_assets.quality import conformance
from raag_assets.retrieval.candidates import RRF_K
from resources import EmbedderResource


@pytest.fixture(scope="module")
def golden_store(make_store):
    return make_store()


def test_a_fresh_ingest_matches_the_golden_outputs(golden_store):
    s = golden_store
    report = conformance.check(s.resources, s.instance, s.url)
    assert report.passed, report.differences
    assert report.version == conformance.versions()[-1]
    assert report.embedding_drift <= conformance.TOLERANCE


def test_fusion_constant_changed_by_one_fails_with_a_diff(golden_store):
    s = golden_store
    report = conformance.check(s.resources, s.instance, s.url, rrf_k=RRF_K + 1, reingest=False)
    assert set(report.differences) == {"retrieve"}  # nothing else moved
    diff = "\n".join(report.differences["retrieve"])
    assert diff.startswith("--- expected retrieve\n+++ got retrieve")
    assert "\n-" in diff and "\n+" in diff


@pytest.mark.parametrize("delta", [-1, 1])
def test_chunk_size_changed_by_one_fails_with_a_diff(golden_store, delta):
    s = golden_store
    resources = {**s.resources, "embedder": EmbedderResource(max_chunk_tokens=200 + delta)}
    report = conformance.check(resources, s.instance, s.url)
    assert "chunks" in report.differences
    assert report.differences["chunks"][0] == "--- expected chunks"


def test_a_new_version_needs_a_reason_and_never_overwrites(golden_store, tmp_path):
    s = golden_store
    root = tmp_path / "golden"
    (root / "corpus").mkdir(parents=True)
    source = conformance.GOLDEN
    (root / "corpus" / "expenses.txt").write_bytes(
        (source / "corpus" / "expenses.txt").read_bytes()
    )
    (root / "queries.yaml").write_text("queries:\n  - q: Who approves expense claims?\n")
    with pytest.raises(RaagError, match="say why"):
        conformance.new_version(" ", s.resources, s.instance, s.url, root)
    first = conformance.new_version("first", s.resources, s.instance, s.url, root)
    second = conformance.new_version("second", s.resources, s.instance, s.url, root)
    assert (first.name, second.name) == ("v1", "v2")
    assert (second / "CHANGES.md").read_text() == "# v2\n\nsecond\n"
    assert conformance.check(s.resources, s.instance, s.url, root).passed
