"""`raag ingest` in a real terminal (a pseudo-terminal): its progress line names each stage as
it runs and counts the chunks while embedding, though Dagster's compute-log capture points the
process's stderr at a log file while the run executes."""

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

from raag_assets.pipeline.progress import STEP_LABELS
from tests.conftest import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
RAAG = str(Path(sys.executable).parent / "raag")


def _run_in_terminal(args: list[str], env: dict[str, str], timeout: float = 300) -> tuple[int, str]:
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the terminal closed: the process is gone
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    code = proc.wait(timeout=30)
    os.close(master)
    return code, b"".join(chunks).decode("utf-8", "replace")


def test_the_progress_line_follows_the_stages_and_counts_embedded_chunks(make_store, tmp_path):
    store = make_store()
    env = {
        **os.environ,
        "RAAG_DATABASE_URL": store.url,
        "RAAG_HOME": str(tmp_path / "home"),
        "RAAG_EXECUTOR": "in_process",  # the run executes in the CLI's own process
        "PYTHONPATH": str(ROOT),
        "TERM": "xterm",
        "COLUMNS": "120",
    }
    code, shown = _run_in_terminal([RAAG, "ingest", str(EXAMPLES), "--tenant", "bar"], env)
    assert code == 0, shown
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)  # the terminal's control sequences out
    # The bar is redrawn a few times a second and names the stage running then: embedding,
    # the long stage, is always seen; of the brief ones (sectioning, extraction, linking the
    # six examples) some pass between two draws, which ones depends on the machine's load.
    assert "embedding chunks" in text, text[-2000:]
    named = {label for label in STEP_LABELS.values() if label in text}
    assert len(named) >= 2, (named, text[-2000:])  # the bar follows the stages, not one
    (chunks,) = store.rows("SELECT count(*) FROM chunks WHERE tenant_id = 'bar'")[0]
    assert f"0/{chunks}" in text  # the count shows from the start of embedding
    assert "Warning" not in text
