"""The REST and MCP adapters against live servers on the demo store: real HTTP to a uvicorn
server, a schema-driven fuzz of the API (schemathesis), and a real MCP client session with
`raag mcp` over stdio."""

import asyncio
import os
import sys
import time
from pathlib import Path

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from raag_assets.interfaces import service
from raag_assets.retrieval.search import search


def test_search_over_http_equals_the_library(server, demo_store, embedder):
    base, keys = server
    with httpx.Client(base_url=base, headers={"X-API-Key": keys["demo"]}, timeout=60) as http:
        got = http.post(
            "/v1/tenants/demo/search", json={"query": "carry over unused leave", "k": 3}
        )
        status = http.get("/v1/tenants/demo/status").json()
        retrieved = http.post("/v1/tenants/demo/retrieve", json={"query": "laptop", "k": 2})
        packed = http.post(
            "/v1/tenants/demo/context",
            json={"query": "carry over unused leave", "budget_tokens": 200},
        ).json()
        first = got.json()["results"][0]
        section = http.get(f"/v1/tenants/demo/sections/{first['section_id']}").json()
        tree = http.get("/v1/tenants/demo/sections", params={"doc_id": "leave-policy"}).json()
        defines = http.get("/v1/tenants/demo/edges", params={"type": "defines"}).json()
        documents = http.get("/v1/tenants/demo/documents").json()
    assert got.status_code == 200
    assert documents == service.documents("demo", demo_store.url)
    assert {d["doc_id"]: d["amends"] for d in documents}["leave-amendment-2025"] == ["leave-policy"]
    assert {d["doc_id"]: d["source"] for d in documents}["leave-policy"] == "leave-policy.md"
    with demo_store.connect() as conn:
        direct = search("carry over unused leave", "demo", k=3, conn=conn, embed=embedder.embed)
    import json

    assert got.json() == json.loads(direct.to_json(indent=None))  # no behaviour of its own
    assert status["documents"] == 6 and status["tenant"] == "demo"
    assert retrieved.status_code == 200 and len(retrieved.json()["results"]) == 2
    assert packed["citations"] and packed["text"].startswith("[1] ") and packed["tokens"] <= 200
    assert section["text"] == first["text"] and section["edges"]
    assert tree and {s["doc_id"] for s in tree} == {"leave-policy"}
    assert defines and {e["edge_type"] for e in defines} == {"defines"}


def test_keys_tenants_and_errors_have_one_json_shape(server):
    base, keys = server
    with httpx.Client(base_url=base, timeout=60) as http:
        missing = http.get("/v1/tenants/demo/status")
        other = http.get("/v1/tenants/demo/status", headers={"X-API-Key": keys["licenses"]})
        bad_tenant = http.get("/v1/tenants/DROP%20TABLE/status", headers={"X-API-Key": "x"})
        invalid = http.post(
            "/v1/tenants/demo/search",
            headers={"X-API-Key": keys["demo"]},
            json={"query": "leave", "k": 0},
        )
        nul = http.post(
            "/v1/tenants/demo/search", headers={"X-API-Key": keys["demo"]}, json={"query": "a\x00b"}
        )
        # a NUL in an id (Postgres text cannot hold one) is the client's error, not a 500
        nul_ids = [
            http.get(path, params=params, headers={"X-API-Key": keys["demo"]})
            for path, params in (
                ("/v1/tenants/demo/sections", {"doc_id": "a\x00b"}),
                ("/v1/tenants/demo/sections/a%00b", {}),
                ("/v1/tenants/demo/documents/a%00b/text", {}),
                ("/v1/tenants/demo/edges", {"section_id": "a\x00b"}),
            )
        ]
        unknown = http.get("/v1/tenants/demo/sections/nope", headers={"X-API-Key": keys["demo"]})
        own = http.get("/v1/tenants/licenses/status", headers={"X-API-Key": keys["licenses"]})
    assert (missing.status_code, missing.json()["error"]["code"]) == (401, "unauthorized")
    assert (other.status_code, other.json()["error"]["code"]) == (401, "unauthorized")
    assert (bad_tenant.status_code, bad_tenant.json()["error"]["code"]) == (422, "validation_error")
    assert invalid.status_code == 422 and invalid.json()["error"]["details"]
    assert (nul.status_code, nul.json()["error"]["code"]) == (400, "invalid_request")
    for r in nul_ids:
        assert (r.status_code, r.json()["error"]["code"]) == (400, "invalid_request"), r.url
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "not_found")
    assert own.status_code == 200 and own.json()["tenant"] == "licenses"
    for r in (missing, other, bad_tenant, invalid, nul, *nul_ids, unknown):
        assert set(r.json()) == {"error"} and {"code", "message"} <= set(r.json()["error"])


def test_api_fuzz_finds_no_server_error(server):
    """Requests generated from the OpenAPI schema for every operation (positive and negative
    data), on the demo tenant with its key: every answer is a success or a JSON client error,
    never a 5xx, and matches the response model the schema declares for its status."""
    base, keys = server
    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
    calls: dict[str, int] = {}

    def fuzz(operation) -> None:
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def run(case) -> None:
            if "tenant" in (case.path_parameters or {}):
                case.path_parameters["tenant"] = "demo"
            response = case.call(base_url=base, headers={"X-API-Key": keys["demo"]}, timeout=120)
            case.validate_response(
                response, checks=[not_a_server_error, response_schema_conformance]
            )
            if response.status_code >= 400:
                assert set(response.json()) == {"error"}
            calls[operation.label] = calls.get(operation.label, 0) + 1

        run()

    for result in schema.get_all_operations():
        fuzz(result.ok())
    assert len(calls) == 11, calls  # every operation was called (the explorer page is not one)
    assert all(n >= 20 for label, n in calls.items() if "{tenant}" in label), calls


def test_an_mcp_client_searches_reads_and_follows_edges(demo_store):
    """A real MCP session: `raag mcp --tenant demo` as a subprocess, spoken to over stdio."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    raag = str(Path(sys.executable).parent / "raag")
    env = {**os.environ, "RAAG_DATABASE_URL": demo_store.url}
    params = StdioServerParameters(command=raag, args=["mcp", "--tenant", "demo"], env=env)

    async def session():
        async with Client(params, read_timeout_seconds=120) as client:
            tools = sorted(t.name for t in (await client.list_tools()).tools)
            found = await client.call_tool("search", {"query": "carry over unused leave", "k": 3})
            top = found.structured_content["results"][0]
            section = await client.call_tool("get_section", {"section_id": top["section_id"]})
            hops = await client.call_tool(
                "follow_edge", {"section_id": top["section_id"], "edge_type": "uses_term"}
            )
            wrong = await client.call_tool("get_section", {"section_id": "nope"})
            shown = await client.call_tool(
                "show_text",
                {"doc_id": top["doc_id"], "start": top["char_start"], "end": top["char_end"]},
            )
            return tools, top, section, hops, wrong, shown

    tools, top, section, hops, wrong, shown = asyncio.run(session())
    assert tools == ["follow_edge", "get_section", "search", "show_text"]
    assert shown.structured_content["text"] == top["passage"]  # the offsets index the raw text
    assert top["doc_id"] == "leave-policy"
    assert section.structured_content["text"] == top["text"]
    neighbours = hops.structured_content["neighbours"]
    assert neighbours and all(n["edge"]["edge_type"] == "uses_term" for n in neighbours)
    assert any(n["section"]["label"] == "2.3" for n in neighbours)  # the definition it uses
    assert wrong.is_error and "no section" in wrong.content[0].text


def test_keys_listed_rotated_revoked_and_expired_through_the_cli(server, demo_store, monkeypatch):
    """`raag api-key create / list / rotate / revoke` against the live REST service: a revoked
    or expired key gets 401, a rotated one is replaced, and each use is recorded."""
    import json

    from click.testing import CliRunner

    from raag_assets.interfaces.cli import main

    base, _ = server
    monkeypatch.setenv("RAAG_DATABASE_URL", demo_store.url)

    def raag(*args: str):
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    def status(key: str) -> httpx.Response:
        return httpx.get(f"{base}/v1/tenants/demo/status", headers={"X-API-Key": key}, timeout=60)

    def listed() -> dict[str, dict]:
        rows = json.loads(raag("api-key", "list", "--tenant", "demo", "--json").stdout)
        return {r["key_id"]: r for r in rows}

    made = raag("api-key", "create", "--tenant", "demo", "--label", "bot", "--expires-in", "30d")
    assert made.exit_code == 0, made.output
    first = made.stdout.strip()
    first_id = service.key_id_of(first)
    assert listed()[first_id]["last_used_at"] is None
    assert status(first).status_code == 200
    row = listed()[first_id]
    assert (row["state"], row["label"], row["tenant"]) == ("active", "bot", "demo")
    assert row["last_used_at"] is not None  # the REST call was recorded
    assert first not in json.dumps(row) and "key_hash" not in row

    rotated = raag("api-key", "rotate", first_id)
    assert rotated.exit_code == 0, rotated.output
    second = rotated.stdout.strip()
    old = status(first)
    assert (old.status_code, old.json()["error"]["code"]) == (401, "unauthorized")
    assert "revoked" in old.json()["error"]["message"]
    assert status(second).status_code == 200
    rows = listed()
    second_id = service.key_id_of(second)
    assert rows[first_id]["state"] == "revoked" and rows[first_id]["replaced_by"] == second_id
    assert rows[second_id]["label"] == "bot" and rows[second_id]["expires_at"]  # 30 days again

    graced = raag("api-key", "rotate", second, "--grace", "1h")
    third = graced.stdout.strip()
    assert graced.exit_code == 0 and "expires in 1h" in graced.output
    assert status(second).status_code == 200 and status(third).status_code == 200

    assert raag("api-key", "revoke", third).exit_code == 0
    assert status(third).status_code == 401
    assert listed()[service.key_id_of(third)]["state"] == "revoked"

    short = raag("api-key", "create", "--tenant", "demo", "--expires-in", "1s").stdout.strip()
    time.sleep(1.5)
    expired = status(short)
    assert expired.status_code == 401 and "expired" in expired.json()["error"]["message"]
    assert listed()[service.key_id_of(short)]["state"] == "expired"

    for bad in (
        ["api-key", "create", "--tenant", "demo", "--expires-at", "2001-01-01"],
        ["api-key", "create", "--tenant", "demo", "--expires-in", "soon"],
        ["api-key", "revoke", "0123456789ab"],
        ["api-key", "revoke", "not-a-key"],
        ["api-key", "rotate", service.key_id_of(third)],  # revoked keys are not renewed
    ):
        result = raag(*bad)
        assert result.exit_code == 2 and result.output.startswith("error:"), (bad, result.output)
    dated = raag("api-key", "create", "--tenant", "demo", "--expires-at", "2999-01-31")
    assert dated.exit_code == 0
    assert listed()[service.key_id_of(dated.stdout.strip())]["expires_at"].startswith("2999-01-31")
    helped = raag("api-key", "--help").output
    assert "REST" in helped and "takes no key" in helped
