"""When Dagster's automation sensor (default_automation_condition_sensor) materialises a stage
on its own, outside the landing sensor and the ingest job."""

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import dagster as dg
from psycopg.errors import DeadlockDetected, LockNotAvailable, SerializationFailure

P = ParamSpec("P")
R = TypeVar("R")

# A stage follows its upstream partition: a UI run of `documents` alone for a tenant brings the
# rest of that tenant's chain up to date. A new code_version re-runs the stage for every tenant
# (the stage itself keeps its rows when inputs and code are as before).
FOLLOW_UPSTREAM = (
    dg.AutomationCondition.eager()
    | (dg.AutomationCondition.code_version_changed() & ~dg.AutomationCondition.in_progress())
).with_label("upstream updated or code changed")

# Where a run's steps go one after another in one process, the graph branch (edges, term_uses,
# topic_links) goes before embeddings: the sections step has handed the model the new texts
# (`Embedder.prefetch`), so the model embeds them while these steps run, and the embeddings
# step finds them done. Dagster starts the ready step of highest priority first. Where steps
# run side by side, it only decides which of two ready steps is launched first; with a process
# per step one at a time (RAAG_EXECUTOR=multiprocess on two cores), the graph branch goes
# first there too, with no prefetch, in the same total time.
GRAPH_BRANCH_FIRST = {"dagster/priority": "1"}


def retry_transient(fn: Callable[P, R]) -> Callable[P, R]:
    """Runs of different tenants go side by side; a new tenant's partitions are DDL (locks on
    the parent tables), so a write of one tenant and the DDL of another can deadlock, and
    Postgres then aborts one of them. Both sides are whole-stage transactions that leave
    nothing behind, so the aborted step is simply run again (Dagster step retry)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (DeadlockDetected, SerializationFailure, LockNotAvailable) as exc:
            raise dg.RetryRequested(max_retries=3, seconds_to_wait=1) from exc

    return wrapper
