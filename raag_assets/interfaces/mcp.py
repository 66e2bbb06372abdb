"""The MCP adapter: raag's retrieval as tools an agent can call (search, get_section,
follow_edge), over `raag_assets.interfaces.service`, for one tenant fixed when the server starts
(`raag mcp --tenant T`), so an agent can never name another tenant."""

import datetime as dt
import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from raag_assets.core.errors import RaagError
from raag_assets.core.identity import validate_tenant
from raag_assets.interfaces import service

INSTRUCTIONS = (
    "Search this tenant's documents with `search`; every result names its section "
    "(doc_id § label) and why it was ranked. Read a whole section with `get_section` and walk "
    "the relationship graph (references, definitions, overrides, versions...) with "
    "`follow_edge`. Cite sections by doc_id and label."
)


def build_server(tenant: str, database_url: str | None = None) -> MCPServer:
    validate_tenant(tenant)
    server = MCPServer(name="raag", instructions=INSTRUCTIONS, version="1")

    @server.tool()
    @_clear_errors
    def search(
        query: str,
        k: int = 5,
        as_of_date: str | None = None,
        max_expansion_hops: int = 1,
        scope_context: str | None = None,
        granularity: str = "section",
    ) -> dict[str, Any]:
        """Relationship-aware search: the best sections for `query`, graph-expanded, each with
        its score breakdown and provenance, plus conflicts between them.

        as_of_date (YYYY-MM-DD) answers for that day (earlier document versions included);
        scope_context says who is asking (e.g. "part-time employee"); granularity "passage"
        returns the sentences that answer instead of whole sections. Each result's
        char_start/char_end locate its passage in the document's text (see `show_text`)."""
        found = service.search_results(
            tenant,
            query,
            database_url,
            k=k,
            as_of_date=dt.date.fromisoformat(as_of_date) if as_of_date else None,
            max_expansion_hops=max_expansion_hops,
            scope_context=scope_context,
            granularity=granularity,
        )
        return {
            "results": [_brief(r) for r in found["results"]],
            "conflicts": found["retrieval_summary"].get("conflicts", []),
        }

    @server.tool()
    @_clear_errors
    def get_section(section_id: str) -> dict[str, Any]:
        """One section's full text, its document and every edge that touches it."""
        return service.section(tenant, section_id, database_url)

    @server.tool()
    @_clear_errors
    def show_text(doc_id: str, start: int = 0, end: int | None = None) -> dict[str, Any]:
        """A document's raw text from character `start` to `end` (the offsets search results
        give as char_start/char_end), to quote or read around a passage."""
        return service.show(tenant, doc_id, start, end, database_url)

    @server.tool()
    @_clear_errors
    def follow_edge(section_id: str, edge_type: str | None = None) -> dict[str, Any]:
        """The sections one edge away from `section_id` (either direction), optionally only
        edges of one type (references, defines, uses_term, overrides, supersedes, amends,
        depends_on, precedes, applies_to, effective_on, topically_related,
        applies_to_scope), each with the edge and its evidence."""
        return {"neighbours": service.follow(tenant, section_id, edge_type, database_url)}

    return server


P = ParamSpec("P")
R = TypeVar("R")


def _clear_errors(tool: Callable[P, R]) -> Callable[P, R]:
    """raag's own errors (a bad argument, an unknown section) reach the agent with their
    message, so it can correct the call; anything else stays a crash, logged on the server."""

    @functools.wraps(tool)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return tool(*args, **kwargs)
        except (RaagError, ValueError) as exc:
            raise ToolError(str(exc)) from exc

    return wrapper


def _brief(r: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "rank",
        "section_id",
        "doc_id",
        "label",
        "heading",
        "text",
        "score",
        "retrieval_reason",
        "char_start",
        "char_end",
        "passage",
    )
    return {k: r[k] for k in keys if k in r}
