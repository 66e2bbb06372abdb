"""Writing 100k edge rows: the row-by-row INSERT (executemany) the stages used, against the
binary COPY from a polars frame they use now. Same rows, same transaction shape (delete the
stage's rows, write, commit). Prints figures, asserts only that both wrote every row.

Run: make bench-copy   (or .venv/bin/python benchmarks/bench_copy.py [rows])
"""

import datetime as dt
import os
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
HOME = Path(tempfile.mkdtemp(prefix="raag-bench-copy-"))
os.environ["RAAG_HOME"] = str(HOME)
os.environ.pop("RAAG_DATABASE_URL", None)

from raag_assets.core.model import Edge, edge_id  # noqa: E402
from raag_assets.store import db, frames  # noqa: E402

TENANT = "copybench"
DOC = (
    "INSERT INTO documents (tenant_id, doc_id, source_name, format, content_hash, raw_text, "
    "text, lines) VALUES (%s, 'd', 'd.md', 'markdown', 'h', '', '', '[]')"
)


def edges(n: int) -> list[tuple[str, Edge]]:
    out = []
    for i in range(n):
        e = Edge(
            "references",
            layer=1 + i % 2,
            src_doc_id="d",
            src_section_id=f"d:{i % 500}",
            matched_text=f"Section {i % 97}.{i % 13} of the Policy",
            normalized_target=f"d § {i % 97}.{i % 13}",
            confidence=0.9,
            dst_doc_id="d",
            dst_section_id=f"d:{(i * 7) % 500}",
            date_from=dt.date(2025, 1, 1) if i % 5 == 0 else None,
        )
        out.append((f"{edge_id(e)}:{i}", e))
    return out


def main(n: int) -> None:
    rows = edges(n)
    df = frames.edges_frame(TENANT, "edges", rows)
    params = [dict(zip(frames.EDGES, r, strict=True)) for r in df.iter_rows()]
    params = [{**p, "tenant": p.pop("tenant_id")} for p in params]
    delete = {"tenant": TENANT, "stage": "edges"}
    with db.connect() as conn:
        db.add_tenant(conn, TENANT)
        conn.execute(DOC, [TENANT])
        timings: dict[str, list[float]] = {"INSERT (executemany)": [], "binary COPY": []}
        for _ in range(2):  # alternate, twice each: the second round has warm caches
            started = time.perf_counter()
            with conn.transaction():
                conn.execute(db.load_sql("delete_edges_of_stage"), delete)
                with conn.cursor() as cur:
                    cur.executemany(db.load_sql("insert_edge"), params)
            timings["INSERT (executemany)"].append(time.perf_counter() - started)
            assert conn.execute("SELECT count(*) FROM edges").fetchone()[0] == n

            started = time.perf_counter()
            with conn.transaction():
                conn.execute(db.load_sql("delete_edges_of_stage"), delete)
                frames.copy_frame(conn, "edges", frames.EDGES, df)
            timings["binary COPY"].append(time.perf_counter() - started)
            assert conn.execute("SELECT count(*) FROM edges").fetchone()[0] == n
    print(f"{n} edge rows, delete + write + commit, best of 2:")
    best = {k: min(v) for k, v in timings.items()}
    for name, seconds in best.items():
        print(f"  {name:<22} {seconds:7.2f} s  ({n / seconds:9.0f} rows/s)")
    print(f"  COPY is {best['INSERT (executemany)'] / best['binary COPY']:.1f}x faster")


if __name__ == "__main__":
    try:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
    finally:
        shutil.rmtree(HOME, ignore_errors=True)
