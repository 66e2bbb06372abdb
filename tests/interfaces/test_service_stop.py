"""`raag serve` stops promptly on SIGINT and SIGTERM (raag ui's stop is in test_ui.py)."""

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.interfaces.test_ui import free_port

RAAG = str(Path(sys.executable).parent / "raag")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_raag_serve_stops_within_ten_seconds(signum, tmp_path):
    env = {**os.environ, "RAAG_HOME": str(tmp_path)}
    env.pop("RAAG_DATABASE_URL", None)
    port = free_port()
    proc = subprocess.Popen(
        [RAAG, "serve", "--port", str(port)],
        env=env,
        stdout=(tmp_path / "serve.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        family = [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]
        started = time.monotonic()
        proc.send_signal(signum)
        proc.wait(timeout=10)
        _, alive = psutil.wait_procs(family, timeout=max(0.1, 10 - (time.monotonic() - started)))
        assert not alive
        # the embedded Postgres it started is stopped too (no other process holds it)
        pgdata = str(tmp_path / "pgdata")
        deadline = started + 10
        while time.monotonic() < deadline and _postgres_of(pgdata):
            time.sleep(0.2)
        assert not _postgres_of(pgdata)
    finally:
        if proc.poll() is None:
            proc.kill()


def _postgres_of(pgdata: str) -> list[psutil.Process]:
    out = []
    for p in psutil.process_iter(["cmdline"]):
        if pgdata in " ".join(p.info["cmdline"] or []):
            out.append(p)
    return out
