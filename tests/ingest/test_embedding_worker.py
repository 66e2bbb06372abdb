"""The embedding worker process: the same vectors as the model in this process, errors that
leave it up, an end that reaps it, and a dead worker that costs no embedding."""

import subprocess
import sys

import numpy as np
import pytest

from raag_assets.ingest.embedding import Embedder, worker_wanted
from raag_assets.ingest.embedding_worker import EmbeddingWorker, WorkerFailed

TEXTS = ["The licence ends if you break its terms.", "Annual leave is 25 days.", "Leave"]


def _with_worker(monkeypatch: pytest.MonkeyPatch) -> tuple[Embedder, EmbeddingWorker]:
    """An embedder of its own (not the session's shared one) embedding through a worker."""
    monkeypatch.delenv("RAAG_EMBED_WORKER", raising=False)
    e = Embedder()
    e.start_worker()
    assert e._worker is not None
    return e, e._worker


@pytest.fixture(scope="module")
def worker():
    w = EmbeddingWorker("all-MiniLM-L6-v2", 32, "auto")
    yield w
    w.close()


def test_the_worker_embeds_what_the_model_here_embeds(worker, embedder):
    here = embedder.embed(TEXTS)
    there = worker.embed(TEXTS)
    assert there.dtype == np.float32 and there.shape == here.shape == (3, 384)
    np.testing.assert_allclose(there, here, atol=1e-5)


def test_a_request_it_cannot_embed_is_an_error_and_the_worker_stays_up(worker):
    with pytest.raises(WorkerFailed, match="TypeError|ValueError|AttributeError"):
        worker.embed([None])  # type: ignore[list-item]
    assert worker.embed(["still here"]).shape == (1, 384)


def test_close_ends_and_reaps_the_worker_even_while_it_loads():
    w = EmbeddingWorker("all-MiniLM-L6-v2", 32, "auto")
    w.close()  # before the model has loaded
    assert w.process.returncode is not None
    with pytest.raises(WorkerFailed, match="ended"):
        w.embed(["too late"])


def test_an_embedder_with_a_worker_embeds_through_it_and_falls_back_when_it_dies(
    monkeypatch, caplog
):
    e, worker = _with_worker(monkeypatch)
    first = e.embed(TEXTS)
    assert not e.loaded  # the weights stayed in the worker
    worker.process.kill()
    worker.process.wait()
    again = e.embed(TEXTS)  # the worker is gone: the model loads here
    assert e.loaded and e._worker is None
    assert "embedding worker ended" in caplog.text
    np.testing.assert_allclose(again, first, atol=1e-5)
    e.start_worker()  # the weights are here now: no worker
    assert e._worker is None
    worker.close()


def test_raag_embed_worker_off_keeps_the_model_in_this_process(monkeypatch):
    monkeypatch.setenv("RAAG_EMBED_WORKER", "off")
    e = Embedder()
    e.start_worker()
    assert e._worker is None and not worker_wanted()
    monkeypatch.setenv("RAAG_EMBED_WORKER", "sometimes")
    with pytest.raises(ValueError, match="RAAG_EMBED_WORKER"):
        worker_wanted()


def test_spacy_loads_without_importing_torch_and_torch_imports_after():
    child = (
        "import sys\n"
        "from resources.nlp import load_pipeline\n"
        "doc = load_pipeline('en_core_web_sm')('An employee is entitled to leave.')\n"
        "print('torch' in sys.modules, [t.dep_ for t in doc][:2])\n"
        "import torch, thinc.compat\n"
        "print(torch.ones(2).sum().item(), thinc.compat.has_torch)\n"
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["False ['det', 'nsubjpass']", "2.0 False"]


def test_a_query_embeds_here_and_ends_the_worker(monkeypatch):
    e, worker = _with_worker(monkeypatch)
    batch = e.embed(TEXTS)
    query = e.embed_here(TEXTS[:1])  # as retrieval embeds a query: on its own threads
    assert e.loaded and e._worker is None and worker.process.returncode is not None
    np.testing.assert_allclose(query, batch[:1], atol=1e-5)


def test_a_prefetch_through_a_dead_worker_loads_nothing_and_the_step_falls_back(monkeypatch):
    e, worker = _with_worker(monkeypatch)
    expected = e.embed(TEXTS)  # through the worker
    worker.process.kill()  # as Ctrl-C ends it, with the run's process group
    worker.process.wait()
    e.prefetch([TEXTS[:2], TEXTS[2:]])
    for future in list(e._prefetched.values()):
        with pytest.raises(WorkerFailed):
            future.result(timeout=60)
    # the prefetch's thread neither loaded the model nor gave up on the worker: that is the
    # embeddings step's to do, if it comes
    assert not e.loaded and e._worker is worker
    np.testing.assert_allclose(e.embed(TEXTS[:2]), expected[:2], atol=1e-5)
    assert e.loaded and e._worker is None and e.prefetched_taken == 0
    e.drop_prefetched()


def test_no_prefetch_where_the_model_is_neither_here_nor_in_a_worker():
    e = Embedder()
    e.prefetch([TEXTS])
    assert e._prefetched == {} and not e.loaded
