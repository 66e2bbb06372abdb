"""Long-running commands stop cleanly: on SIGTERM or SIGINT, `raag ui` stops `dagster dev`
and everything it started (webserver, daemon, code servers) within seconds."""

import contextlib
import signal
import subprocess
import time
from collections.abc import Sequence

import psutil

STOP_GRACE = 5  # seconds a child gets to stop on its own before it is killed


def supervise(command: Sequence[str], grace: float = STOP_GRACE) -> int:
    """Run `command` as a child in its own process group until it exits or this process gets
    SIGTERM / SIGINT; then stop it and all its descendants. Returns its exit code.

    `dagster dev` alone can take 30 s or more to wind down its daemon and code servers, and
    the code servers outlive it if it is killed; so every descendant is remembered while it
    runs and killed after `grace` seconds at the latest."""
    child = subprocess.Popen(list(command), start_new_session=True)
    stopping: list[int] = []

    def on_signal(signum: int, _frame: object) -> None:
        stopping.append(signum)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    family: dict[int, psutil.Process] = {}
    try:
        while child.poll() is None and not stopping:
            _remember(child.pid, family)
            time.sleep(0.2)
        _remember(child.pid, family)
        stop_all(child, family, grace)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 0 if stopping else child.returncode or 0


def _remember(pid: int, family: dict[int, psutil.Process]) -> None:
    with contextlib.suppress(psutil.NoSuchProcess):
        for p in [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]:
            family.setdefault(p.pid, p)


def stop_all(child: subprocess.Popen, family: dict[int, psutil.Process], grace: float) -> None:
    """SIGTERM to the child (it stops its own children as it can), then SIGKILL to whatever
    of the family is left after `grace` seconds."""
    if child.poll() is None:
        child.send_signal(signal.SIGTERM)
    procs = [p for p in family.values() if p.is_running()]
    _, alive = psutil.wait_procs(procs, timeout=grace)
    for p in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.kill()
    psutil.wait_procs(alive, timeout=2)
    child.wait(timeout=2)
