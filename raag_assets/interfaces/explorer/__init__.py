"""The search explorer: a page of plain HTML, CSS and JavaScript served beside the REST API
(`/explore/`), calling the same routes any client does with the tenant's key. No build step,
and nothing is loaded from another host: the Content-Security-Policy says so to the browser."""

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse
from starlette.exceptions import HTTPException

HERE = Path(__file__).parent
# The only files served: a name maps to a file of this folder, never to a path from the URL.
FILES = {
    "index.html": "text/html; charset=utf-8",
    "explorer.css": "text/css; charset=utf-8",
    "explorer.js": "text/javascript; charset=utf-8",
    "graph.js": "text/javascript; charset=utf-8",
}
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def router() -> APIRouter:
    routes = APIRouter(tags=["explorer"], include_in_schema=False)

    @routes.get("/")
    @routes.get("/explore")
    def to_page() -> RedirectResponse:
        return RedirectResponse("/explore/")

    @routes.get("/explore/")
    def page() -> FileResponse:
        return _file("index.html")

    @routes.get("/explore/{name}")
    def asset(name: str) -> FileResponse:
        return _file(name)

    return routes


def _file(name: str) -> FileResponse:
    if name not in FILES:
        raise HTTPException(404, f"no explorer file {name!r}")
    return FileResponse(HERE / name, media_type=FILES[name], headers=HEADERS)
