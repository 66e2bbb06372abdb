"""Kill `raag ingest` (with the embedded Postgres it started) by SIGKILL at random points, 20
times, re-running after each; then check that the store converges to exactly what a clean
ingest produces (no duplicates, no orphans, nothing lost). Odd runs ingest a changed corpus
(two files edited), so every run has parsing, sectioning, graph and embedding work to be
killed in.

Run: make fault-kill   (about 5 minutes)
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
ROOT = Path(__file__).resolve().parents[1]
RAAG = str(Path(sys.executable).parent / "raag")
KILLS = int(os.environ.get("KILLS", 20))
# The live rows must equal a clean ingest's. Earlier versions (the odd runs change two files)
# are history a clean ingest does not have; they are checked for consistency separately.
LIVE_DOC = "doc_id IN (SELECT doc_id FROM documents WHERE tenant_id = 't' AND version_of IS NULL)"
TABLES = {
    "documents": "SELECT doc_id, content_hash, text FROM documents "
    "WHERE tenant_id = 't' AND version_of IS NULL ORDER BY 1",
    "sections": f"SELECT section_id, doc_id, label, text FROM sections "
    f"WHERE tenant_id = 't' AND {LIVE_DOC} ORDER BY 1",
    "chunks": f"SELECT doc_id, chunk_index, content_hash, embedding IS NOT NULL, live FROM chunks "
    f"WHERE tenant_id = 't' AND {LIVE_DOC} ORDER BY 1, 2",
    # embeddings are compared with a tolerance: a chunk embedded in a differently composed
    # batch (after a kill) differs in the last float bits
    "vectors": f"SELECT embedding::text FROM chunks WHERE tenant_id = 't' AND {LIVE_DOC} "
    "ORDER BY doc_id, chunk_index",
    "edges": f"SELECT stage, edge_id FROM edges WHERE tenant_id = 't' AND src_{LIVE_DOC} "
    "AND (dst_doc_id IS NULL OR dst_" + LIVE_DOC + ") ORDER BY 1, 2",
    "unresolved": f"SELECT matched_text, status FROM unresolved_references "
    f"WHERE tenant_id = 't' AND src_{LIVE_DOC} ORDER BY 1, 2",
}
# Every earlier version: its chunks out of retrieval, each with an embedding, and sections
# that belong to its own text (no chunk without its section).
HISTORY = (
    "SELECT d.doc_id, d.version_of, count(c.*), count(c.*) FILTER (WHERE c.live), "
    "count(c.*) FILTER (WHERE c.embedding IS NULL), "
    "count(c.*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM sections s WHERE s.tenant_id = 't' "
    "AND s.section_id = c.section_id AND s.doc_id = d.doc_id)) "
    "FROM documents d LEFT JOIN chunks c ON c.tenant_id = d.tenant_id AND c.doc_id = d.doc_id "
    "WHERE d.tenant_id = 't' AND d.version_of IS NOT NULL GROUP BY 1, 2 ORDER BY 1"
)


def write_corpus(folder: Path, changed: bool) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(ROOT / "examples", folder)
    if changed:
        for name in ("wfh-policy.md", "expenses.txt"):
            path = folder / name
            path.write_text(
                path.read_text(encoding="utf-8") + "\nThis sentence was added by the fault test.\n",
                encoding="utf-8",
            )


def ingest(home: Path, corpus: Path) -> subprocess.Popen:
    env = {**os.environ, "RAAG_HOME": str(home)}
    env.pop("RAAG_DATABASE_URL", None)
    env.pop("DAGSTER_HOME", None)
    return subprocess.Popen(
        [RAAG, "ingest", str(corpus), "--tenant", "t", "--json"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def snapshot(home: Path, queries: dict[str, str] = TABLES) -> dict[str, list]:
    code = (
        "import json, sys\n"
        "from raag_assets.store import db\n"
        "queries = json.loads(sys.argv[1])\n"
        "with db.connect() as conn:\n"
        "    rows = {k: [list(map(str, r)) for r in conn.execute(q)] for k, q in queries.items()}\n"
        "    print(json.dumps(rows))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(queries)],
        env={**os.environ, "RAAG_HOME": str(home)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    rng = random.Random(11)
    base = Path(tempfile.mkdtemp(prefix="raag-kill-"))
    try:
        clean, victim, corpus = base / "clean", base / "victim", base / "corpus"
        write_corpus(corpus, changed=False)
        started = time.perf_counter()
        assert ingest(clean, corpus).wait() == 0
        full = time.perf_counter() - started
        print(f"clean ingest: {full:.1f} s")
        # The clean store sees the same files change and change back, without kills, so its
        # live documents are new versions too (in force from today, as the victim's are).
        for changed in (True, False):
            write_corpus(corpus, changed=changed)
            assert ingest(clean, corpus).wait() == 0
        expected = snapshot(clean)
        for n in range(1, KILLS + 1):
            write_corpus(corpus, changed=n % 2 == 1)
            proc = ingest(victim, corpus)
            delay = rng.uniform(0.5, full)
            try:
                proc.wait(timeout=delay)
                outcome = "finished before the kill"
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # the CLI and anything it started
                proc.wait()
                outcome = "killed"
            print(f"  {n:2d}: SIGKILL at {delay:5.1f} s: {outcome}")
        write_corpus(corpus, changed=False)
        assert ingest(victim, corpus).wait() == 0, "the run after the kills failed"
        got = snapshot(victim)
        a = np.array([json.loads(r[0]) for r in got.pop("vectors")])
        b = np.array([json.loads(r[0]) for r in expected.pop("vectors")])
        drift = float(np.abs(a - b).max()) if a.shape == b.shape else float("inf")
        print(f"embeddings: {len(a)} vectors, max |difference| from the clean ingest {drift:.2e}")
        for table in got:
            same = got[table] == expected[table]
            dupes = len(got[table]) - len({tuple(r[:2]) for r in got[table]})
            print(
                f"{table:<11} rows {len(got[table]):>4} (clean {len(expected[table]):>4}) "
                f"{'identical' if same else 'DIFFERENT'}; duplicate keys {dupes}"
            )
            if not same:
                mine, clean = set(map(tuple, got[table])), set(map(tuple, expected[table]))
                print(f"  only after the kills: {sorted(mine - clean)[:5]}")
                print(f"  only in the clean ingest: {sorted(clean - mine)[:5]}")
        history = snapshot(victim, {"history": HISTORY})["history"]
        broken = [r for r in history if r[3] != "0" or r[4] != "0" or r[5] != "0"]
        kept = ", ".join(f"{r[0]} ({r[2]} chunks)" for r in history)
        print(f"earlier versions kept: {len(history)}: {kept}; inconsistent: {len(broken)}")
        if got != expected or drift > 1e-4 or broken:
            sys.exit(1)
        print("converged: the store equals a clean ingest")
    finally:
        remove_stores(base)


def remove_stores(base: Path) -> None:
    """Stop the embedded servers of the stores under `base` and delete them."""
    for home in base.iterdir():
        subprocess.run(["pkill", "-f", str(home / "pgdata")], check=False)
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
