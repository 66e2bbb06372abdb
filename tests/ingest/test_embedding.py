"""The embedding model's loading: what a fresh process imports for it, and that deferring
what encoding never calls changes no vector."""

import json
import subprocess
import sys
import types

import numpy as np
import pytest

from raag_assets.ingest import embedding
from raag_assets.ingest.embedding import deferred_imports

# A fresh process loads the model and embeds, then reports which deferred modules it holds,
# the vectors, and what the stand-ins bound at import give once called.
CHILD = """
import json, sys
import numpy as np
from raag_assets.ingest import embedding
if sys.argv[1] == "off":
    embedding.DEFERRED_IMPORTS = {}
vectors = embedding.Embedder().embed(["The licence ends if you break its terms.", "Leave"])
held = {m: m in sys.modules for m in ("sklearn", "scipy.optimize")}
from sentence_transformers.util.similarity import pairwise_distances
distances = pairwise_distances(np.array([[0.0, 0.0], [3.0, 4.0]])).tolist()
import sklearn.metrics
print(json.dumps({"held": held, "vectors": vectors.tolist(), "distances": distances,
                  "real": hasattr(sklearn.metrics, "roc_auc_score")}))
"""


def _child(mode: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_model_loads_without_the_helpers_encoding_never_calls_and_embeds_the_same():
    deferred, eager = _child("on"), _child("off")
    assert deferred["held"] == {"sklearn": False, "scipy.optimize": False}
    assert eager["held"]["sklearn"]  # what the library imports when nothing is deferred
    assert deferred["vectors"] == eager["vectors"]  # bit for bit
    # a stand-in imports its module at its first call and answers as the real function
    assert deferred["distances"] == eager["distances"] == [[0.0, 5.0], [5.0, 0.0]]
    assert deferred["real"] and eager["real"]


def test_a_deferred_module_is_the_real_one_after_the_block_and_for_any_other_name():
    name = "json.tool"  # stdlib, cheap, and not imported by the test run
    sys.modules.pop(name, None)
    with deferred_imports({name: ("helper",)}):
        stub = sys.modules[name]
        assert isinstance(stub, types.ModuleType) and stub.__spec__.name == name
        with pytest.raises(AttributeError):
            stub.__file__  # noqa: B018  (probed by inspect on every module: no import)
        assert stub.helper.__name__ == "helper"  # a stand-in, nothing imported yet
        assert name in sys.modules and sys.modules[name] is stub
        assert callable(stub.main)  # any other name: the real module, imported now
        assert sys.modules[name] is not stub
    import json.tool as real

    assert real.__file__.endswith("tool.py")


def test_an_imported_module_is_left_alone():
    before = sys.modules["json"]
    with deferred_imports({"json": ("dumps",)}):
        assert sys.modules["json"] is before
    assert embedding.DEFERRED_IMPORTS  # the model's loading defers something


PREFETCH_TEXTS = [
    ["The Licensee shall pay the fees within thirty days of the invoice.", "Leave carries over."],
    ["Either party may terminate this Agreement on ninety days' written notice."],
]


def test_prefetched_batches_are_the_vectors_embed_gives_and_are_taken_once(embedder):
    expected = [embedder.embed(batch) for batch in PREFETCH_TEXTS]
    taken = embedder.prefetched_taken
    embedder.prefetch(PREFETCH_TEXTS)
    got = [embedder.embed(batch) for batch in PREFETCH_TEXTS]
    assert embedder.prefetched_taken - taken == 3  # both batches came from the prefetch
    for a, b in zip(got, expected, strict=True):
        assert np.array_equal(a, b)  # the same texts in the same batch: the same bits
    embedder.embed(PREFETCH_TEXTS[0])  # asked again: embedded now, not a second take
    assert embedder.prefetched_taken - taken == 3


def test_a_batch_not_prefetched_embeds_now_and_dropped_prefetches_are_not_taken(embedder):
    taken = embedder.prefetched_taken
    embedder.prefetch(PREFETCH_TEXTS)
    other = embedder.embed(PREFETCH_TEXTS[0][:1])  # not a batch the prefetch holds
    assert other.shape == (1, embedder.dims)
    embedder.drop_prefetched()
    assert [embedder.embed(b).shape[0] for b in PREFETCH_TEXTS] == [2, 1]
    assert embedder.prefetched_taken == taken


def test_a_prefetch_holds_at_most_its_cap_of_texts(embedder, monkeypatch):
    monkeypatch.setattr(embedding, "PREFETCH_MAX_TEXTS", 2)
    taken = embedder.prefetched_taken
    embedder.prefetch(PREFETCH_TEXTS)  # 2 texts, then 1 more: the second batch is left out
    embedder.embed(PREFETCH_TEXTS[1])
    embedder.embed(PREFETCH_TEXTS[0])
    assert embedder.prefetched_taken - taken == 2
