"""The embedding model in a process of its own, started when a run starts.

A fresh process that ingests spends 3-4 s importing torch and sentence-transformers and
reading the weights before its first embedding. Started with the run, a worker does that on
another core while documents, sections and edges run here, then embeds for this process:
texts go in, vectors come back, pickled over the worker's stdin and stdout (one parent, one
child, both ours). The worker is `python -m raag_assets.ingest.embedding_worker MODEL BATCH
DEVICE`; it ends with the process that started it (at its exit, or when its stdin closes).
"""

import contextlib
import os
import pickle
import subprocess
import sys
import threading
from typing import IO, Any

import numpy as np


class WorkerFailed(RuntimeError):
    """The worker ended, or could not embed; the caller embeds in its own process instead."""


class EmbeddingWorker:
    """One worker process; `embed` may be called from several threads, one call at a time."""

    def __init__(self, model: str, batch_size: int, device: str):
        self._lock = threading.Lock()
        # its console output goes where a run's step output goes (`raag ingest` keeps the
        # terminal for its own lines), else to this process's stderr
        log = os.environ.get("RAAG_STEP_LOG")
        self._stderr: IO[bytes] | None = open(log, "ab") if log else None  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__, model, str(batch_size), device],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env={**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"},
        )

    def embed(self, texts: list[str]) -> np.ndarray:
        assert self.process.stdin is not None and self.process.stdout is not None
        with self._lock:
            try:
                pickle.dump(texts, self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
                self.process.stdin.flush()
                status, value = pickle.load(self.process.stdout)
            except (OSError, ValueError, EOFError, pickle.UnpicklingError) as exc:
                raise WorkerFailed(
                    f"the embedding worker ended (exit code {self.process.poll()})"
                ) from exc
        if status != "ok":
            raise WorkerFailed(str(value))
        return value

    def close(self) -> None:
        """End the worker now, loaded or not (it holds nothing but the model), and reap it."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            with contextlib.suppress(OSError):  # a worker already gone leaves a broken pipe
                self.process.stdin.close()
        self.process.terminate()
        self.process.wait()
        if self._stderr is not None:
            self._stderr.close()


def serve(model: str, batch_size: int, device: str, inp: IO[bytes], out: IO[bytes]) -> None:
    """Load the model now, then answer each list of texts read from `inp` with ("ok",
    vectors) or ("error", why) on `out`, until `inp` ends."""
    from raag_assets.ingest.embedding import Embedder

    embedder = Embedder(model, batch_size=batch_size, device=None if device == "auto" else device)
    embedder._model  # noqa: B018  (the weights, before the first request)
    while True:
        try:
            texts = pickle.load(inp)
        except EOFError:
            return
        answer: tuple[str, Any]
        try:
            answer = ("ok", embedder.embed(texts))
        except Exception as exc:  # the parent says what failed; the worker stays up
            answer = ("error", f"{type(exc).__name__}: {exc}")
        pickle.dump(answer, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()


if __name__ == "__main__":
    # the answers go out on a copy of stdout; what the libraries print goes to stderr
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.stdin.buffer, answers)
