"""The REST adapter: FastAPI over `interfaces.service`. Every route is per tenant and needs one
of that tenant's API keys (`raag api-key create --tenant T`) in the X-API-Key header.

Errors are JSON of one shape, {"error": {"code": "...", "message": "..."}} (plus "details"
for a request that fails validation), one status and code per kind of failure:

- 413 `body_too_large`: the body is over RAAG_MAX_REQUEST_KB; refused from its declared
  length (or as soon as a streamed body passes the limit), before it is parsed or the key
  checked.
- 422 `validation_error`: the request is not what the route takes: a body that is not JSON
  (unparseable, not UTF-8) or not of the route's schema, a path or query parameter out of its
  range; `details` says where.
- 401 `unauthorized`, 404 `tenant_not_found` / `not_found`, 400 `invalid_request` (a well-formed
  request the library refuses, e.g. a NUL in the query), 409 `store_mismatch`, 503
  `database_unavailable`.

Every success response has a typed model in the OpenAPI schema (`interfaces.responses`);
`/docs` serves Swagger UI from the `swagger-ui-bundle-v2` package, nothing from another host;
each request leaves one line on the `raag.access` log: method, path, status, milliseconds
and tenant (never the key).
"""

import datetime as dt
import logging
import re
import sys
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

import psycopg
from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import APIKeyHeader
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from swagger_ui_bundle import swagger_ui_path

from raag_assets.core.errors import (
    DimensionMismatch,
    DocumentNotFound,
    InvalidFilter,
    InvalidTenant,
    ModelMismatch,
    RaagError,
    TenantNotFound,
)
from raag_assets.core.model import EdgeType
from raag_assets.core.settings import max_request_bytes
from raag_assets.interfaces import explorer, service
from raag_assets.interfaces import responses as out

TenantId = Annotated[str, Path(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$", examples=["demo"])]
# Status and code for each error the library raises on purpose; the last row catches the rest.
ERRORS: list[tuple[type[Exception], int, str]] = [
    (service.Unauthorized, 401, "unauthorized"),
    (InvalidTenant, 400, "invalid_tenant"),
    (InvalidFilter, 400, "invalid_request"),
    (TenantNotFound, 404, "tenant_not_found"),
    (DocumentNotFound, 404, "not_found"),
    (DimensionMismatch, 409, "store_mismatch"),
    (ModelMismatch, 409, "store_mismatch"),
    (RaagError, 400, "invalid_request"),
]
# The framework's own errors by status. Its 400 is a body it could not read as text (not
# UTF-8): for the client the same kind of failure as unparseable JSON, so the same 422.
HTTP_ERRORS: dict[int, tuple[int, str]] = {
    400: (422, "validation_error"),
    404: (404, "not_found"),
    405: (405, "method_not_allowed"),
    413: (413, "body_too_large"),
}
DOCS_ASSETS = "/docs/assets"
access_log = logging.getLogger("raag.access")
TENANT_IN_PATH = re.compile(r"^/v1/tenants/([^/?]+)")


class ErrorBody(BaseModel):
    code: str
    message: str
    details: list[dict[str, Any]] | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody


class Filters(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=2000, examples=["how do I request leave?"])
    k: int = Field(default=12, ge=1, le=100)
    mode: Literal["hybrid", "vector", "fulltext"] = "hybrid"
    tags_any: list[Annotated[str, Field(max_length=64)]] = Field(default=[], max_length=20)
    tags_all: list[Annotated[str, Field(max_length=64)]] = Field(default=[], max_length=20)
    metadata: dict[str, str | int | float | bool] = Field(default={}, max_length=20)


class SearchRequest(Filters):
    as_of_date: dt.date | None = None
    max_expansion_hops: int = Field(default=1, ge=0, le=2)
    scope_context: str | None = Field(default=None, max_length=200)
    granularity: Literal["section", "passage"] = "section"

    def options(self) -> dict[str, Any]:
        return {
            "granularity": self.granularity,
            "k": self.k,
            "mode": self.mode,
            "tags_any": self.tags_any,
            "tags_all": self.tags_all,
            "metadata": self.metadata,
            "as_of_date": self.as_of_date,
            "max_expansion_hops": self.max_expansion_hops,
            "scope_context": self.scope_context,
        }


class ContextRequest(SearchRequest):
    budget_tokens: int = Field(default=1024, ge=16, le=32000)
    redact_pii: bool = False


def create_app(database_url: str | None = None, max_body_bytes: int | None = None) -> FastAPI:
    """The service; `database_url` defaults to RAAG_DATABASE_URL or the embedded server,
    `max_body_bytes` to RAAG_MAX_REQUEST_KB."""
    limit = max_request_bytes() if max_body_bytes is None else max_body_bytes
    app = FastAPI(
        title="raag",
        version="1",
        summary="Relationship-aware retrieval: retrieve, search, context packs, sections, edges.",
        responses={code: {"model": ErrorResponse} for code in (400, 401, 404, 409, 413, 422, 503)},
        docs_url=None,  # served below from the installed bundle, not a CDN
        redoc_url=None,
    )
    _add_error_handlers(app)
    _add_docs(app)
    app.add_middleware(BodyLimit, max_bytes=limit)
    app.add_middleware(AccessLog)  # outermost: a refused body is logged too
    access = _tenant_access(database_url)
    for router in (
        _service_router(),
        _ingest_router(access, database_url),
        _retrieval_router(access, database_url),
        _graph_router(access, database_url),
        explorer.router(),
    ):
        app.include_router(router)
    return app


def _tenant_access(database_url: str | None) -> Callable[..., str]:
    """The dependency every tenant route has: the tenant of the path, if the request's
    X-API-Key is one of its keys."""
    api_key = APIKeyHeader(name="X-API-Key", auto_error=False)

    def tenant_access(tenant: TenantId, key: Annotated[str | None, Depends(api_key)]) -> str:
        service.authorize(key, tenant, database_url)
        return tenant

    return tenant_access


def _add_error_handlers(app: FastAPI) -> None:
    """Every error as {"error": {"code", "message"}}: raag's own by ERRORS, a database that
    cannot be reached as 503, a request that fails validation as 422 with its details."""

    @app.exception_handler(RaagError)
    async def raag_error(_: Request, exc: RaagError) -> JSONResponse:
        status, code = next((s, c) for kind, s, c in ERRORS if isinstance(exc, kind))
        return _error(status, code, str(exc))

    @app.exception_handler(psycopg.OperationalError)
    async def unavailable(_: Request, exc: psycopg.OperationalError) -> JSONResponse:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return _error(503, "database_unavailable", f"database unavailable: {first}")

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))}
            for e in exc.errors()
        ]
        return _error(422, "validation_error", "the request does not match the schema", details)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        status, code = HTTP_ERRORS.get(exc.status_code, (exc.status_code, "http_error"))
        if status == 422:
            cause = exc.__cause__ or exc
            details = [{"loc": ["body"], "msg": f"{type(cause).__name__}: {cause}"}]
            return _error(422, code, "the request body is not UTF-8 JSON", details)
        if isinstance(exc, BodyTooLarge):
            return _error(413, code, exc.detail)
        return _error(status, code, str(exc.detail))


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        size = f"{limit // 1024} KB" if limit >= 1024 else f"{limit} bytes"
        super().__init__(413, f"the request body is over {size} (RAAG_MAX_REQUEST_KB)")


class BodyLimit:
    """Refuses a body over `max_bytes` with 413 before reading it: from its declared
    Content-Length at once (the route, its JSON parsing and its key check never run), a
    streamed one as soon as what arrived passes the limit. (FastAPI's own `max_body_size`
    answers a declared length in plain text, outside the service's error shape.)"""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            refused = BodyTooLarge(self.max_bytes)
            await _error(413, "body_too_large", refused.detail)(scope, receive, send)
            return
        arrived = 0

        async def receiving() -> Message:
            nonlocal arrived
            message = await receive()
            if message["type"] == "http.request":
                arrived += len(message.get("body", b""))
                if arrived > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)  # FastAPI passes it to http_error
            return message

        await self.app(scope, receiving, send)


def _add_docs(app: FastAPI) -> None:
    """Swagger UI at /docs with its script, style and icon from the swagger-ui-bundle-v2
    package, so the page works with no way out to the internet (FastAPI's documented
    self-hosting of the docs assets)."""
    app.mount(DOCS_ASSETS, StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title="raag - API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png",
            # no badge fetched from the public validator
            swagger_ui_parameters={"validatorUrl": None},
        )


class AccessLog:
    """One line per request on the `raag.access` log: method, path, status, milliseconds and
    the tenant of the path. Headers are never logged (the key travels in one), nor the query
    string."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        if not access_log.handlers:  # uvicorn configures only its own loggers
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
            access_log.addHandler(handler)
            access_log.setLevel(logging.INFO)
            access_log.propagate = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500  # what the server answers if the app raises before responding

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            # the path as sent, still percent-encoded: no control character reaches the log
            path = scope.get("raw_path", b"").decode("latin-1") or scope["path"]
            tenant = TENANT_IN_PATH.match(path)
            access_log.info(
                "%s %s %d %.1fms tenant=%s",
                scope["method"],
                path,
                status,
                (time.perf_counter() - start) * 1000,
                tenant[1] if tenant else "-",
            )


def _service_router() -> APIRouter:
    router = APIRouter(tags=["service"])

    @router.get("/v1/health", response_model=out.Health)
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return router


def _ingest_router(access: Callable[..., str], database_url: str | None) -> APIRouter:
    router = APIRouter(tags=["ingest"])
    Tenant = Annotated[str, Depends(access)]

    @router.get("/v1/tenants/{tenant}/status", **typed(out.TenantStatus))
    def status(tenant: Tenant) -> dict[str, Any]:
        """Document, section and chunk counts, earlier versions, skipped files."""
        return service.status(tenant, database_url)

    return router


def _retrieval_router(access: Callable[..., str], database_url: str | None) -> APIRouter:
    router = APIRouter(tags=["retrieval"])
    Tenant = Annotated[str, Depends(access)]

    @router.post("/v1/tenants/{tenant}/retrieve", **typed(out.RetrieveResponse))
    def retrieve(tenant: Tenant, body: Filters) -> dict[str, Any]:
        """Hybrid (vector + full-text, RRF) chunk candidates, no graph."""
        results = service.retrieve(
            tenant,
            body.query,
            k=body.k,
            mode=body.mode,
            tags_any=body.tags_any,
            tags_all=body.tags_all,
            metadata=body.metadata,
            url=database_url,
        )
        return {"query": body.query, "tenant": tenant, "results": results}

    @router.post("/v1/tenants/{tenant}/search", **typed(out.SearchResponse))
    def search(tenant: Tenant, body: SearchRequest) -> dict[str, Any]:
        """Relationship-aware search: expansion, explained scores, conflicts, result graph."""
        return service.search_results(tenant, body.query, database_url, **body.options())

    @router.post("/v1/tenants/{tenant}/context", **typed(out.ContextResponse))
    def context(tenant: Tenant, body: ContextRequest) -> dict[str, Any]:
        """search() results packed under a token budget, each passage with its [n] citation."""
        return service.context(
            tenant,
            body.query,
            body.budget_tokens,
            body.redact_pii,
            database_url,
            **body.options(),
        )

    return router


def _graph_router(access: Callable[..., str], database_url: str | None) -> APIRouter:
    router = APIRouter(tags=["graph"])
    Tenant = Annotated[str, Depends(access)]

    @router.get("/v1/tenants/{tenant}/documents", **typed(list[out.Document]))
    def documents(tenant: Tenant) -> list[dict[str, Any]]:
        """Every document and earlier version: source (the file name as given),
        effective_from, in_force_to, version, supersedes, superseded_by, amends, amended_by,
        tags, metadata."""
        return service.documents(tenant, database_url)

    @router.get("/v1/tenants/{tenant}/sections", **typed(list[out.Section]))
    def sections(
        tenant: Tenant, doc_id: Annotated[str | None, Query(max_length=220)] = None
    ) -> list[dict[str, Any]]:
        """The section tree, of one document or all."""
        return service.sections(tenant, doc_id, database_url)

    @router.get("/v1/tenants/{tenant}/sections/{section_id}", **typed(out.SectionText))
    def section(tenant: Tenant, section_id: Annotated[str, Path(max_length=64)]) -> dict[str, Any]:
        """One section's text and every edge that touches it."""
        return service.section(tenant, section_id, database_url)

    @router.get("/v1/tenants/{tenant}/documents/{doc_id}/text", **typed(out.DocumentText))
    def document_text(
        tenant: Tenant,
        doc_id: Annotated[str, Path(max_length=220)],  # an id and its version (@v<n>)
        start: Annotated[int, Query(alias="from", ge=0)] = 0,
        end: Annotated[int | None, Query(alias="to", ge=0)] = None,
    ) -> dict[str, Any]:
        """A document's raw text, or its slice [from, to): what results' char_start and
        char_end index (the file as read; for PDFs the extracted text)."""
        return service.show(tenant, doc_id, start, end, database_url)

    @router.get("/v1/tenants/{tenant}/unresolved", **typed(list[out.Unresolved]))
    def unresolved(
        tenant: Tenant, show_all: Annotated[bool, Query(alias="all")] = False
    ) -> list[dict[str, Any]]:
        """References parked because no layer could resolve them, with the reason (`all`:
        also those Layer 3 resolved since)."""
        return service.unresolved(tenant, show_all, database_url)

    @router.get("/v1/tenants/{tenant}/edges", **typed(list[out.Edge]))
    def edges(
        tenant: Tenant,
        edge_type: Annotated[EdgeType | None, Query(alias="type")] = None,
        section_id: Annotated[str | None, Query(max_length=64)] = None,
        limit: Annotated[int, Query(ge=1, le=5000)] = 500,
    ) -> list[dict[str, Any]]:
        """Typed edges with their evidence, of one type or touching one section."""
        return service.edges(tenant, edge_type, section_id, limit, database_url)

    return router


def typed(model: Any) -> dict[str, Any]:
    """A route's response model, keeping exactly the keys the library returned."""
    return {"response_model": model, "response_model_exclude_unset": True}


def _error(
    status: int, code: str, message: str, details: list[dict[str, Any]] | None = None
) -> JSONResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status)
