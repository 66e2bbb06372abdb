"""deploy/dagster.yaml: the multi-machine Dagster instance loads and passes Dagster's config
validation, with its storage on a real Postgres, and its run launcher's config passes the
launcher's own schema: the Docker one as written, the Kubernetes one as the Helm chart writes it
from deploy/helm/values.yaml."""

import shutil

import dagster as dg
import psycopg
import pytest
import yaml
from dagster._config import process_config
from dagster._core.errors import DagsterInvalidConfigError
from dagster._core.instance.config import dagster_instance_config
from dagster._core.test_utils import create_run_for_test
from dagster_docker import DockerRunLauncher
from dagster_k8s import K8sRunLauncher
from psycopg.conninfo import conninfo_to_dict

from tests.deploy.conftest import DEPLOY

# What deploy/dagster.yaml reads from the environment, as compose.yaml sets it.
DEPLOY_ENV = {
    "DAGSTER_PG_HOST": "postgres",
    "DAGSTER_PG_PORT": "5432",
    "DAGSTER_PG_USER": "raag",
    "DAGSTER_PG_PASSWORD": "secret",
    "DAGSTER_PG_DB": "dagster",
    "RAAG_MAX_CONCURRENT_RUNS": "4",
    "RAAG_IMAGE": "registry.example.com/raag:1",
    "RAAG_DOCKER_NETWORK": "raag",
}


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
        # an event is stored and announced (NOTIFY run_events): SQLAlchemy 2.1's default
        # driver, psycopg 3, sends NOTIFY's payload as a server-side parameter, which Postgres
        # refuses; the deploy's `scheme` picks psycopg2, as dagster-postgres expects
        instance.report_engine_event("deploy test", run)
        assert any(e.message == "deploy test" for e in instance.all_logs(run.run_id))
    finally:
        instance.dispose()


def test_a_wrong_key_in_the_deploy_config_is_refused(tmp_path):
    config = yaml.safe_load((DEPLOY / "dagster.yaml").read_text())
    db = config["storage"]["postgres"]["postgres_db"]
    db["hostnme"] = db.pop("hostname")  # misspelt
    (tmp_path / "dagster.yaml").write_text(yaml.safe_dump(config))
    with pytest.raises(DagsterInvalidConfigError):
        dagster_instance_config(str(tmp_path))


def test_the_docker_launcher_config_passes_its_schema_and_hands_runs_their_settings(
    instance_yaml, monkeypatch
):
    """DockerRunLauncher's own schema accepts the config as written, and every run container
    gets RAAG_HOME, the database URL, the model and limit settings, and what the instance file
    itself reads (a run loads the instance too)."""
    for key, value in DEPLOY_ENV.items():
        monkeypatch.setenv(key, value)
    launcher = instance_yaml["run_launcher"]
    assert (launcher["module"], launcher["class"]) == ("dagster_docker", "DockerRunLauncher")
    checked = process_config(DockerRunLauncher.config_type(), launcher["config"])
    assert checked.success, checked.errors
    passed = set(launcher["config"]["env_vars"])
    assert {
        "RAAG_HOME",
        "RAAG_DATABASE_URL",
        "RAAG_EMBED_MODEL",
        "RAAG_EMBED_DEVICE",
        "RAAG_SPACY_MODEL",
        "RAAG_MAX_FILE_MB",
    } <= passed
    assert set(DEPLOY_ENV) <= passed  # the instance's own {env: ...} sources
    assert launcher["config"]["container_kwargs"]["volumes"] == ["raag-landing:/srv/raag/landing"]


def _k8s_launcher_as_the_chart_writes_it(values: dict) -> dict:
    """The run_launcher block Dagster's chart renders from runLauncher.config.k8sRunLauncher
    (templates/helpers/instance/_run-launcher.tpl): names of Secrets and ConfigMaps as lists
    of strings, the rest as given, the release's namespace, service account and instance."""
    k8s = values["runLauncher"]["config"]["k8sRunLauncher"]
    return {
        "module": "dagster_k8s",
        "class": "K8sRunLauncher",
        "config": {
            "load_incluster_config": k8s["loadInclusterConfig"],
            "job_namespace": "raag",
            "image_pull_policy": k8s["imagePullPolicy"],
            "service_account_name": "raag-dagster",
            "dagster_home": {"env": "DAGSTER_HOME"},
            "instance_config_map": {"env": "DAGSTER_K8S_INSTANCE_CONFIG_MAP"},
            "postgres_password_secret": {"env": "DAGSTER_K8S_PG_PASSWORD_SECRET"},
            "env_config_maps": [{"env": "DAGSTER_K8S_PIPELINE_RUN_ENV_CONFIGMAP"}]
            + [c["name"] for c in k8s["envConfigMaps"]],
            "env_secrets": [s["name"] for s in k8s["envSecrets"]],
            "env_vars": k8s["envVars"],
            "volume_mounts": k8s["volumeMounts"],
            "volumes": k8s["volumes"],
        },
    }


def test_the_instance_validates_with_the_kubernetes_launcher_of_the_helm_values(
    instance_yaml, helm_values, tmp_path, monkeypatch
):
    """deploy/dagster.yaml with its launcher swapped for the K8sRunLauncher the Helm values
    give, and the chart's run queue: Dagster's instance schema and the launcher's own schema
    accept it; a misspelt key in the launcher's config is refused."""
    for key, value in {
        **DEPLOY_ENV,
        "DAGSTER_HOME": str(tmp_path),
        "DAGSTER_K8S_INSTANCE_CONFIG_MAP": "raag-dagster-instance",
        "DAGSTER_K8S_PG_PASSWORD_SECRET": "raag-dagster-postgresql",
        "DAGSTER_K8S_PIPELINE_RUN_ENV_CONFIGMAP": "raag-dagster-pipeline-env",
    }.items():
        monkeypatch.setenv(key, value)
    launcher = _k8s_launcher_as_the_chart_writes_it(helm_values)
    queue = helm_values["dagsterDaemon"]["runCoordinator"]["config"]["queuedRunCoordinator"]
    config = {
        **instance_yaml,
        "run_launcher": launcher,
        "run_coordinator": {
            "module": "dagster.core.run_coordinator",
            "class": "QueuedRunCoordinator",
            "config": {
                "max_concurrent_runs": queue["maxConcurrentRuns"],
                "tag_concurrency_limits": queue["tagConcurrencyLimits"],
            },
        },
    }
    (tmp_path / "dagster.yaml").write_text(yaml.safe_dump(config))
    loaded, _ = dagster_instance_config(str(tmp_path))
    assert loaded["run_launcher"]["class"] == "K8sRunLauncher"
    checked = process_config(K8sRunLauncher.config_type(), launcher["config"])
    assert checked.success, checked.errors
    env = dict(v.split("=", 1) for v in launcher["config"]["env_vars"])
    assert env["RAAG_HOME"] == "/srv/raag" and "raag-env" in launcher["config"]["env_secrets"]
    (mount,) = launcher["config"]["volume_mounts"]
    assert mount["mountPath"] == f"{env['RAAG_HOME']}/landing"

    wrong = {**launcher["config"], "env_varz": launcher["config"]["env_vars"]}
    assert not process_config(K8sRunLauncher.config_type(), wrong).success
