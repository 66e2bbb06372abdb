"""Concurrent load: 8 threads call search() on tenant `demo` for 60 s while tenant `other`
ingests licence texts. Reports throughput, p50/p95, errors, and any row of another tenant
in a result (there must be none).

Run: make load   (about 1.5 minutes; SECONDS_=20 for a shorter run)
"""

import os
import shutil
import statistics
import tempfile
import threading
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
HOME = Path(tempfile.mkdtemp(prefix="raag-load-"))
os.environ["RAAG_HOME"] = str(HOME)
os.environ.pop("RAAG_DATABASE_URL", None)
os.environ.pop("DAGSTER_HOME", None)

import dagster as dg  # noqa: E402

from raag_assets.ingest.embedding import shared_embedder  # noqa: E402
from raag_assets.pipeline.run import ingest  # noqa: E402
from raag_assets.retrieval.search import search  # noqa: E402
from raag_assets.store import db  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
THREADS, SECONDS = 8, float(os.environ.get("SECONDS_", 60))
QUERIES = [
    "carry over unused leave",
    "maternity leave days",
    "who approves working from home",
    "expense claims approval",
    "what happens if my leave request is declined",
]


def main() -> None:
    instance = dg.DagsterInstance.ephemeral()
    assert ingest([ROOT / "examples"], "demo", instance=instance).success
    with db.connect() as conn:
        demo_docs = {
            r[0] for r in conn.execute("SELECT doc_id FROM documents WHERE tenant_id = 'demo'")
        }
    model = shared_embedder("all-MiniLM-L6-v2", 32)
    lock = threading.Lock()  # one forward pass at a time through the shared model

    def embed(texts: list[str]):
        with lock:
            return model.embed(texts)

    latencies: list[float] = []
    errors: list[str] = []
    foreign: list[str] = []
    stop = time.perf_counter() + SECONDS

    def worker(n: int) -> None:
        with db.connect() as conn:
            i = n
            while time.perf_counter() < stop:
                start = time.perf_counter()
                try:
                    res = search(QUERIES[i % len(QUERIES)], "demo", conn=conn, embed=embed)
                    foreign.extend(r["doc_id"] for r in res.results if r["doc_id"] not in demo_docs)
                except Exception as exc:  # counted and reported, not hidden
                    errors.append(f"{type(exc).__name__}: {exc}")
                latencies.append((time.perf_counter() - start) * 1000)
                i += 1

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    licences = Path("/usr/share/common-licenses")
    ingested = ingest(
        [licences / n for n in ("GPL-3", "MPL-2.0", "Apache-2.0", "LGPL-3")],
        "other",
        instance=instance,
    )
    for t in threads:
        t.join()
    print(
        f"{THREADS} threads x {SECONDS:.0f} s of search() on 'demo' while 'other' ingested "
        f"({'ok' if ingested.success else 'FAILED'}, {ingested.counts.get('chunks')} chunks)"
    )
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    print(
        f"searches: {len(latencies)} ({len(latencies) / SECONDS:.1f}/s); "
        f"p50 {q[49]:.0f} ms, p95 {q[94]:.0f} ms"
    )
    print(f"errors: {len(errors)}; rows of another tenant in results: {len(foreign)}")
    for e in sorted(set(errors))[:5]:
        print("  ", e)


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(HOME, ignore_errors=True)
