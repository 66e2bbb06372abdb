"""The embedded PostgreSQL's lifecycle across processes: it stops when the last process using
it ends, also when some of them ended without saying so (a run's step processes end by
os._exit, as the multiprocess executor's do), and starting it says nothing on stderr."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]

# A raag process that uses the store until its stdin closes, then ends normally.
HOLDER = """
import sys
from pathlib import Path
from raag_assets.store import db
with db.connect(home=Path(sys.argv[1])) as conn:
    conn.execute("SELECT 1")
print("up", flush=True)
sys.stdin.read()
"""
# A step process: uses the store, then ends as the executor's children do, skipping exit hooks.
STEP = """
import os, sys
from pathlib import Path
from raag_assets.store import db
with db.connect(home=Path(sys.argv[1])) as conn:
    conn.execute("SELECT 1")
sys.stdout.flush()
os._exit(0)
"""


def _python(code: str, home: Path, **kw: object) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("RAAG_DATABASE_URL", "XDG_RUNTIME_DIR")}
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONWARNINGS"] = "always"  # a library warning would show on stderr
    return subprocess.Popen(
        [sys.executable, "-c", code, str(home)],
        env=env,
        text=True,
        **kw,  # type: ignore[call-overload]
    )


def _postmaster(home: Path) -> psutil.Process | None:
    pid_file = home / "pgdata" / "postmaster.pid"
    if not pid_file.exists():
        return None
    try:
        return psutil.Process(int(pid_file.read_text().split()[0]))
    except psutil.NoSuchProcess:
        return None


def test_the_server_stops_with_the_last_process_even_after_steps_that_left_by_os_exit(tmp_path):
    holder = _python(
        HOLDER, tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "up"
        server = _postmaster(tmp_path)
        assert server is not None and server.is_running()
        steps = []
        for _ in range(2):  # two step processes, each leaving its pid behind
            step = _python(STEP, tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _, step_err = step.communicate(timeout=60)
            assert step.returncode == 0, step_err
            steps.append(step.pid)
            assert "Warning" not in step_err, step_err
        handles = json.loads((tmp_path / "pgdata" / ".handle_pids.json").read_text())
        assert handles == [holder.pid, *steps]
        assert server.is_running()  # the holder still uses it
    finally:
        _, holder_err = holder.communicate(input="", timeout=60)  # stdin closed: it ends
    assert holder.returncode == 0, holder_err
    assert "Warning" not in holder_err, holder_err  # no RuntimeDirWarning either
    deadline = time.monotonic() + 15
    while server.is_running() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not server.is_running(), "the embedded server outlived the last process using it"
    assert json.loads((tmp_path / "pgdata" / ".handle_pids.json").read_text()) == []


# Prints the memory settings the embedded server runs with, then ends (the server stops).
SETTINGS = """
import sys
from pathlib import Path
from raag_assets.store import db
with db.connect(home=Path(sys.argv[1])) as conn:
    names = ("shared_buffers", "effective_cache_size", "work_mem", "maintenance_work_mem")
    print(" ".join(conn.execute(f"SHOW {n}").fetchone()[0] for n in names))
"""


def test_the_embedded_server_is_sized_from_raag_pg_memory_at_each_start(tmp_path):
    """Not Postgres's toy defaults (128MB, 4GB, 4MB, 64MB): a quarter of the memory for
    buffers, three quarters for the planner's cache estimate; a new size at the next start."""
    seen = []
    for memory in ("2GB", "4GB"):
        os.environ["RAAG_PG_MEMORY"] = memory
        try:
            run = _python(SETTINGS, tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out, err = run.communicate(timeout=120)
        finally:
            os.environ.pop("RAAG_PG_MEMORY")
        assert run.returncode == 0, err
        seen.append(out.strip())
        deadline = time.monotonic() + 30
        while (server := _postmaster(tmp_path)) is not None and server.is_running():
            assert time.monotonic() < deadline, "the server did not stop with its last process"
            time.sleep(0.2)
    assert seen == ["512MB 1536MB 8MB 128MB", "1GB 3GB 16MB 256MB"]
    conf = (tmp_path / "pgdata" / "postgresql.conf").read_text()
    assert conf.count("include_if_exists = 'raag.conf'") == 1
