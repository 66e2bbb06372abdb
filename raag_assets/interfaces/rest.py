"""The REST adapter: FastAPI over `interfaces.service`. Every route is per tenant and needs one
of that tenant's API keys (`raag api-key create --tenant T`) in the X-API-Key header. Errors
are JSON of one shape: {"error": {"code": "...", "message": "..."}} (plus "details" for a
request that fails validation)."""

import datetime as dt
from collections.abc import Callable
from typing import Annotated, Any, Literal

import psycopg
from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

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
from raag_assets.interfaces import explorer, service

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


def create_app(database_url: str | None = None) -> FastAPI:
    """The service; `database_url` defaults to RAAG_DATABASE_URL or the embedded server."""
    app = FastAPI(
        title="raag",
        version="1",
        summary="Relationship-aware retrieval: retrieve, search, context packs, sections, edges.",
        responses={code: {"model": ErrorResponse} for code in (400, 401, 404, 409, 422, 503)},
    )
    _add_error_handlers(app)
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
        return _error(exc.status_code, "http_error", str(exc.detail))


def _service_router() -> APIRouter:
    router = APIRouter(tags=["service"])

    @router.get("/v1/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return router


def _ingest_router(access: Callable[..., str], database_url: str | None) -> APIRouter:
    router = APIRouter(tags=["ingest"])
    Tenant = Annotated[str, Depends(access)]

    @router.get("/v1/tenants/{tenant}/status")
    def status(tenant: Tenant) -> dict[str, Any]:
        """Document, section and chunk counts, earlier versions, skipped files."""
        return service.status(tenant, database_url)

    return router


def _retrieval_router(access: Callable[..., str], database_url: str | None) -> APIRouter:
    router = APIRouter(tags=["retrieval"])
    Tenant = Annotated[str, Depends(access)]

    @router.post("/v1/tenants/{tenant}/retrieve")
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

    @router.post("/v1/tenants/{tenant}/search")
    def search(tenant: Tenant, body: SearchRequest) -> dict[str, Any]:
        """Relationship-aware search: expansion, explained scores, conflicts, result graph."""
        return service.search_results(tenant, body.query, database_url, **body.options())

    @router.post("/v1/tenants/{tenant}/context")
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

    @router.get("/v1/tenants/{tenant}/documents")
    def documents(tenant: Tenant) -> list[dict[str, Any]]:
        """Every document and earlier version: source (the file name as given),
        effective_from, in_force_to, version, supersedes, superseded_by, amends, amended_by,
        tags, metadata."""
        return service.documents(tenant, database_url)

    @router.get("/v1/tenants/{tenant}/sections")
    def sections(
        tenant: Tenant, doc_id: Annotated[str | None, Query(max_length=200)] = None
    ) -> list[dict[str, Any]]:
        """The section tree, of one document or all."""
        return service.sections(tenant, doc_id, database_url)

    @router.get("/v1/tenants/{tenant}/sections/{section_id}")
    def section(tenant: Tenant, section_id: Annotated[str, Path(max_length=64)]) -> dict[str, Any]:
        """One section's text and every edge that touches it."""
        return service.section(tenant, section_id, database_url)

    @router.get("/v1/tenants/{tenant}/documents/{doc_id}/text")
    def document_text(
        tenant: Tenant,
        doc_id: Annotated[str, Path(max_length=200)],
        start: Annotated[int, Query(alias="from", ge=0)] = 0,
        end: Annotated[int | None, Query(alias="to", ge=0)] = None,
    ) -> dict[str, Any]:
        """A document's raw text, or its slice [from, to): what results' char_start and
        char_end index (the file as read; for PDFs the extracted text)."""
        return service.show(tenant, doc_id, start, end, database_url)

    @router.get("/v1/tenants/{tenant}/unresolved")
    def unresolved(
        tenant: Tenant, show_all: Annotated[bool, Query(alias="all")] = False
    ) -> list[dict[str, Any]]:
        """References parked because no layer could resolve them, with the reason (`all`:
        also those Layer 3 resolved since)."""
        return service.unresolved(tenant, show_all, database_url)

    @router.get("/v1/tenants/{tenant}/edges")
    def edges(
        tenant: Tenant,
        edge_type: Annotated[EdgeType | None, Query(alias="type")] = None,
        section_id: Annotated[str | None, Query(max_length=64)] = None,
        limit: Annotated[int, Query(ge=1, le=5000)] = 500,
    ) -> list[dict[str, Any]]:
        """Typed edges with their evidence, of one type or touching one section."""
        return service.edges(tenant, edge_type, section_id, limit, database_url)

    return router


def _error(
    status: int, code: str, message: str, details: list[dict[str, Any]] | None = None
) -> JSONResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status)
