"""The ways in: the `raag` CLI, the REST service, the MCP server, the service functions they
share, and the process supervision of `raag ui`. Thin callers of pipeline, retrieval and
quality."""
