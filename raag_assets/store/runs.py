"""Failed pipeline runs as the store keeps them (the run_failures table), so a deployment
whose daemon runs elsewhere still shows them to `raag failures`."""

import datetime as dt
from collections.abc import Sequence
from typing import Any

import psycopg

from raag_assets.store.db import load_sql, records


def record_run_failure(
    conn: psycopg.Connection,
    run_id: str,
    job_name: str,
    tenant: str | None,
    failed_at: dt.datetime,
    steps: Sequence[str],
    error: str,
) -> None:
    """Record a failed run (once: a second record of the same run is ignored)."""
    with conn.transaction():
        conn.execute(
            load_sql("insert_run_failure"),
            {
                "run_id": run_id,
                "job_name": job_name,
                "tenant": tenant,
                "failed_at": failed_at,
                "steps": list(steps),
                "error": error,
            },
        )


def run_failures(
    conn: psycopg.Connection, tenant: str | None = None, limit: int = 20
) -> list[dict[str, Any]]:
    """The latest recorded failures, of one tenant or of all."""
    return records(
        conn.execute(load_sql("select_run_failures"), {"tenant": tenant, "limit": limit})
    )
