"""deploy/: the multi-machine Dagster instance loads and passes Dagster's config validation,
with its storage on a real Postgres."""

import shutil
from pathlib import Path

import dagster as dg
import psycopg
import pytest
import yaml
from dagster._core.errors import DagsterInvalidConfigError
from dagster._core.instance.config import dagster_instance_config
from dagster._core.test_utils import create_run_for_test
from dagster_docker import DockerRunLauncher
from psycopg.conninfo import conninfo_to_dict

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_deploy_instance_config_loads_on_postgres_with_docker_runs(
    pg_server, tmp_path, monkeypatch
):
    admin = pg_server.get_uri()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("CREATE DATABASE dagster_deploy")
    info = conninfo_to_dict(admin)
    monkeypatch.setenv("DAGSTER_PG_HOST", "localhost")
    monkeypatch.setenv("DAGSTER_PG_PORT", str(info.get("port") or 5432))
    monkeypatch.setenv("DAGSTER_PG_USER", info["user"])
    monkeypatch.setenv("DAGSTER_PG_PASSWORD", info.get("password") or "")
    monkeypatch.setenv("DAGSTER_PG_DB", "dagster_deploy")
    monkeypatch.setenv("RAAG_MAX_CONCURRENT_RUNS", "8")
    monkeypatch.setenv("RAAG_IMAGE", "registry.example.com/raag:1")
    monkeypatch.setenv("RAAG_DOCKER_NETWORK", "raag")
    shutil.copy(DEPLOY / "dagster.yaml", tmp_path / "dagster.yaml")
    config, _ = dagster_instance_config(str(tmp_path))  # Dagster's schema validation
    assert config["run_launcher"]["class"] == "DockerRunLauncher"

    # The test server listens on a Unix socket only: libpq's `host` parameter points there.
    raw = yaml.safe_load((DEPLOY / "dagster.yaml").read_text())
    raw["storage"]["postgres"]["postgres_db"]["params"] = {"host": info["host"]}
    (tmp_path / "dagster.yaml").write_text(yaml.safe_dump(raw))
    instance = dg.DagsterInstance.from_config(str(tmp_path))
    try:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        assert type(instance.event_log_storage).__name__ == "PostgresEventLogStorage"
        assert isinstance(instance.run_launcher, DockerRunLauncher)
        assert instance.run_launcher.image == "registry.example.com/raag:1"
        limits = instance.get_concurrency_config().run_queue_config
        assert limits.max_concurrent_runs == 8
        (tenant_limit,) = limits.tag_concurrency_limits
        assert tenant_limit["key"] == "dagster/partition" and tenant_limit["limit"] == 1
        # the storage is real: the instance writes a run and reads it back
        run = create_run_for_test(
            instance, job_name="ingest_tenant", tags={"dagster/partition": "acme"}
        )
        assert instance.get_run_by_id(run.run_id).tags["dagster/partition"] == "acme"
    finally:
        instance.dispose()


def test_a_wrong_key_in_the_deploy_config_is_refused(tmp_path):
    config = yaml.safe_load((DEPLOY / "dagster.yaml").read_text())
    db = config["storage"]["postgres"]["postgres_db"]
    db["hostnme"] = db.pop("hostname")  # misspelt
    (tmp_path / "dagster.yaml").write_text(yaml.safe_dump(config))
    with pytest.raises(DagsterInvalidConfigError):
        dagster_instance_config(str(tmp_path))
