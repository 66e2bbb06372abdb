"""The REST service's own behaviour, over real HTTP to a live uvicorn server on the demo store:
the body-size limit, one status and code per kind of failure, typed success responses in the
OpenAPI schema, /docs with nothing from another host, and the access log."""

import asyncio
import json
import logging
import re
import socket
import time
from html.parser import HTMLParser
from urllib.parse import urlsplit

import httpx
import pytest

from raag_assets.interfaces.rest import create_app
from tests.conftest import wait_until_serving

MB = 1024 * 1024


def _raw_exchange(base: str, head: bytes, body_parts: list[bytes], timeout: float = 10) -> bytes:
    """Send a request's head and body parts over a plain socket and read the answer, stopping
    as soon as the server answers: the server may refuse the body before it has all arrived."""
    host, port = urlsplit(base).hostname, urlsplit(base).port
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(head)
        for part in body_parts:
            try:
                sock.sendall(part)
            except OSError:  # the server answered and closed: what follows is the answer
                break
        answer = b""
        while b"\r\n\r\n" not in answer or not _complete(answer):
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            answer += chunk
    return answer


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    return length is not None and len(body) >= int(length[1])


def _status_and_json(answer: bytes) -> tuple[int, dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_100_mb_body_is_refused_before_it_is_read_or_its_key_checked(server):
    """The request declares 100 MB and sends only the first 64 KB, with no key: the answer is
    413 at once (not 401, not a wait for the other 99.9 MB). A streamed body without a length
    is cut off once past the limit, also before the key check. The service then goes on."""
    base, keys = server
    path = "/v1/tenants/demo/search"
    head = (
        f"POST {path} HTTP/1.1\r\nHost: raag\r\nContent-Type: application/json\r\n"
        f"Content-Length: {100 * MB}\r\n\r\n"
    ).encode()
    started = time.perf_counter()
    declared = _raw_exchange(base, head, [b" " * 65536])
    elapsed = time.perf_counter() - started
    status, body = _status_and_json(declared)
    assert (status, body["error"]["code"]) == (413, "body_too_large")
    assert "RAAG_MAX_REQUEST_KB" in body["error"]["message"]
    assert elapsed < 5, elapsed

    chunked_head = (
        f"POST {path} HTTP/1.1\r\nHost: raag\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    piece = b" " * (256 * 1024)
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    streamed = _raw_exchange(base, chunked_head, [chunk] * 8 + [b"0\r\n\r\n"])  # 2 MB
    status, body = _status_and_json(streamed)
    assert (status, body["error"]["code"]) == (413, "body_too_large")

    ok = httpx.post(
        f"{base}{path}", json={"query": "leave", "k": 1}, headers={"X-API-Key": keys["demo"]}
    )
    assert ok.status_code == 200  # a body under the limit is served as before


def test_the_body_limit_is_a_setting(monkeypatch, demo_store):
    """RAAG_MAX_REQUEST_KB sets the limit: 1 KB refuses a 2 KB body and lets a small one on
    to the key check."""
    monkeypatch.setenv("RAAG_MAX_REQUEST_KB", "1")
    app = create_app(demo_store.url)

    async def post(size: int) -> httpx.Response:
        transport = httpx.ASGITransport(app)
        async with httpx.AsyncClient(transport=transport, base_url="http://raag") as client:
            body = json.dumps({"query": "x" * size})
            return await client.post(
                "/v1/tenants/demo/search",
                content=body,
                headers={"content-type": "application/json"},
            )

    big, small = asyncio.run(post(2048)), asyncio.run(post(100))
    assert (big.status_code, big.json()["error"]["code"]) == (413, "body_too_large")
    assert "1 KB" in big.json()["error"]["message"]
    assert (small.status_code, small.json()["error"]["code"]) == (401, "unauthorized")


def test_each_kind_of_failure_has_one_status_and_code(server):
    """A body that is not JSON of the route's schema, however it is broken, is 422
    `validation_error` with details (a body that was not UTF-8 was 400 `http_error` before);
    a well-formed request the library refuses is 400; an unknown route 404; a wrong method
    405; all in the one error shape."""
    base, keys = server
    json_type = {"content-type": "application/json"}
    broken = {
        "unparseable": b'{"query": ',
        "not UTF-8": b'{"query": "\xff\xfe"}',
        "cut UTF-8": b'{"query": "caf\xc3"}',
        "not an object": b'["leave"]',
        "empty": b"",
        "wrong type": b'{"query": 5}',
        "out of range": b'{"query": "leave", "k": 0}',
        "unknown field": b'{"query": "leave", "kk": 1}',
        "NaN": b'{"query": "leave", "k": NaN}',
    }
    with httpx.Client(base_url=base, headers={"X-API-Key": keys["demo"]}, timeout=60) as http:
        got = {
            name: http.post("/v1/tenants/demo/search", content=body, headers=json_type)
            for name, body in broken.items()
        }
        got["text/plain"] = http.post(
            "/v1/tenants/demo/search",
            content=b'{"query": "leave"}',
            headers={"content-type": "text/plain"},
        )
        got["bad query parameter"] = http.get("/v1/tenants/demo/edges", params={"limit": "many"})
        nul = http.post("/v1/tenants/demo/search", json={"query": "a\x00b"})
        unknown = http.get("/v1/nothing-here")
        method = http.delete("/v1/tenants/demo/status")
    for name, r in got.items():
        assert "error" in r.json(), (name, r.status_code, r.text[:200])
        error = r.json()["error"]
        assert (r.status_code, error["code"]) == (422, "validation_error"), (name, r.text)
        assert error["details"] and error["message"], name
    assert (nul.status_code, nul.json()["error"]["code"]) == (400, "invalid_request")
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "not_found")
    assert (method.status_code, method.json()["error"]["code"]) == (405, "method_not_allowed")
    for r in (*got.values(), nul, unknown, method):
        assert set(r.json()) == {"error"} and {"code", "message"} <= set(r.json()["error"])


def test_every_success_response_is_typed_in_the_openapi_schema(server):
    """Each operation's 200 names a model with its properties (it was a bare object), and
    the error statuses share the error model, 413 among them."""
    base, _ = server
    schema = httpx.get(f"{base}/openapi.json").json()
    components = schema["components"]["schemas"]
    operations = [
        (path, method, op) for path, item in schema["paths"].items() for method, op in item.items()
    ]
    assert len(operations) == 11
    for path, method, op in operations:
        body = op["responses"]["200"]["content"]["application/json"]["schema"]
        ref = body.get("$ref") or body.get("items", {}).get("$ref")
        assert ref, (method, path, body)
        model = components[ref.rsplit("/", 1)[1]]
        assert model["properties"], (method, path)
        if "{tenant}" in path:
            assert {"401", "413", "422"} <= set(op["responses"]), (method, path)
    search = components["SearchResponse"]["properties"]
    assert {"results", "retrieval_summary", "result_graph"} <= set(search)
    hit = components["SearchHit"]["properties"]
    assert {"doc_id", "section_id", "score", "retrieval_reason", "char_start"} <= set(hit)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [v for k, v in attrs if k in ("src", "href") and v]


def test_docs_load_nothing_from_another_host(server):
    """/docs names only this server's own addresses (it named a CDN's before), each of them
    served, and points Swagger UI at the schema with no validator badge from outside."""
    base, _ = server
    page = httpx.get(f"{base}/docs")
    assert page.status_code == 200
    links = _Links()
    links.feed(page.text)
    assert len(links.urls) >= 3  # the script, the style sheet, the icon
    for url in links.urls:
        assert url.startswith("/") and not url.startswith("//"), url
        asset = httpx.get(f"{base}{url}")
        assert asset.status_code == 200 and len(asset.content) > 500, url
    assert not re.search(r"https?://", page.text), "the page names another host"
    assert "url: '/openapi.json'" in page.text and '"validatorUrl": null' in page.text


@pytest.fixture
def access_lines():
    """The lines the `raag.access` logger writes, as the service's handler would print them."""
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger = logging.getLogger("raag.access")
    handler = Collect()
    logger.addHandler(handler)
    time.sleep(0.3)  # the last line of an earlier test's last request, written after it
    lines.clear()
    yield lines
    logger.removeHandler(handler)


def test_one_access_log_line_per_request_without_the_key(server, access_lines):
    base, keys = server
    key = keys["demo"]
    with httpx.Client(base_url=base, timeout=60) as http:
        http.get("/v1/tenants/demo/status", headers={"X-API-Key": key})
        http.post(
            "/v1/tenants/demo/retrieve",
            json={"query": "laptop", "k": 1},
            headers={"X-API-Key": key},
        )
        http.get("/v1/tenants/demo/status")  # no key
        http.get("/v1/health")
    for _ in range(100):  # a line is written once its response has gone out
        if len(access_lines) >= 4:
            break
        time.sleep(0.02)
    assert len(access_lines) == 4, access_lines
    pattern = re.compile(r"^(GET|POST) (/\S+) (\d{3}) (\d+\.\d)ms tenant=(\S+)$")
    parsed = [pattern.match(line) for line in access_lines]
    assert all(parsed), access_lines
    assert [(m[1], m[2], m[3], m[5]) for m in parsed if m] == [
        ("GET", "/v1/tenants/demo/status", "200", "demo"),
        ("POST", "/v1/tenants/demo/retrieve", "200", "demo"),
        ("GET", "/v1/tenants/demo/status", "401", "demo"),
        ("GET", "/v1/health", "200", "-"),
    ]
    assert not any(key in line for line in access_lines)


def test_raag_serve_prints_one_access_line_per_request(demo_store, tmp_path):
    """A real `raag serve`: each request leaves one line on its stderr, with the tenant and
    without the key, and uvicorn's own access line is gone (two lines a request before)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from raag_assets.interfaces import service
    from tests.interfaces.test_ui import free_port

    port = free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "RAAG_DATABASE_URL": demo_store.url}
    raag = str(Path(sys.executable).parent / "raag")
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [raag, "serve", "--port", str(port)], env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    key = service.create_api_key("demo", "access log test", demo_store.url)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base, proc, log)
        httpx.get(f"{base}/v1/tenants/demo/status", headers={"X-API-Key": key}, timeout=60)
        httpx.get(f"{base}/v1/tenants/demo/status?secret=1", headers={"X-API-Key": "x" + key})
        time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    text = log.read_text()
    assert re.search(r" GET /v1/tenants/demo/status 200 \d+\.\dms tenant=demo$", text, re.M)
    assert re.search(r" GET /v1/tenants/demo/status 401 \d+\.\dms tenant=demo$", text, re.M)
    assert key not in text and "secret=1" not in text
    assert '"GET /v1/' not in text  # uvicorn's access format ("GET /path HTTP/1.1" 200)


@pytest.mark.browser
def test_docs_render_every_operation_with_the_internet_cut_off(server):
    """Swagger UI in Debian's chromium with every request to another host refused: the page
    renders all eleven operations from the bundled assets (it was blank offline before)."""
    from tests.interfaces.test_explorer import CHROMIUM, NO_BROWSER

    if NO_BROWSER:
        pytest.skip(NO_BROWSER)
    from playwright.sync_api import sync_playwright

    base, _ = server
    outside: list[str] = []

    def route(r) -> None:
        if r.request.url.startswith(base):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        try:
            page = browser.new_page()
            page.route("**/*", route)
            page.goto(f"{base}/docs")
            page.wait_for_selector(".opblock", timeout=30000)
            operations = page.locator(".opblock").count()
            title = page.locator(".title").first.inner_text()
        finally:
            browser.close()
    assert operations == 11 and title.startswith("raag")
    assert outside == []
