"""The REST service on a live uvicorn server over the demo store, shared by the REST and
adapter tests."""

import socket
import threading
import time

import pytest
import uvicorn

from raag_assets.interfaces import service
from raag_assets.interfaces.rest import create_app


@pytest.fixture(scope="module")
def server(demo_store):
    """The REST service on a free port, as `raag serve` runs it, with a key for `demo`."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(
        create_app(demo_store.url), host="127.0.0.1", port=port, log_level="error"
    )
    live = uvicorn.Server(config)
    thread = threading.Thread(target=live.run, daemon=True)
    thread.start()
    for _ in range(200):
        if live.started:
            break
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    keys = {t: service.create_api_key(t, "tests", demo_store.url) for t in ("demo", "licenses")}
    yield base, keys
    live.should_exit = True
    thread.join(timeout=10)
