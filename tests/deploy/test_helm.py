"""deploy/helm/values.yaml for Dagster's chart (`dagster/dagster`) and deploy/k8s/raag.yaml
beside it, read as YAML (no cluster needed): the Kubernetes run launcher, the raag image for
every Dagster process, the code location, the run queue, and what each run needs."""

import yaml

from tests.deploy.conftest import DEPLOY

IMAGE = {"repository": "registry.example.com/raag", "tag": "0.1.0", "pullPolicy": "IfNotPresent"}


def test_the_chart_runs_everything_from_the_raag_image(helm_values):
    assert helm_values["dagsterWebserver"]["image"] == IMAGE
    assert helm_values["dagsterDaemon"]["image"] == IMAGE
    user = helm_values["dagster-user-deployments"]
    assert user["enabled"] and user["enableSubchart"]
    (code,) = user["deployments"]
    assert code["image"] == IMAGE and isinstance(code["image"]["tag"], str)
    assert code["dagsterApiGrpcArgs"] == ["-m", "raag_assets.definitions"]
    assert code["includeConfigInLaunchedRuns"] == {"enabled": True}


def test_runs_are_kubernetes_jobs_with_raags_settings_and_landing_folders(helm_values):
    assert helm_values["runLauncher"]["type"] == "K8sRunLauncher"
    k8s = helm_values["runLauncher"]["config"]["k8sRunLauncher"]
    env = dict(v.split("=", 1) for v in k8s["envVars"])
    assert env["RAAG_HOME"] == "/srv/raag"
    assert {"RAAG_EMBED_MODEL", "RAAG_EMBED_DEVICE", "RAAG_SPACY_MODEL", "RAAG_MAX_FILE_MB"} <= set(
        env
    )
    assert {"name": "raag-env"} in k8s["envSecrets"]  # RAAG_DATABASE_URL
    (mount,) = k8s["volumeMounts"]
    (volume,) = k8s["volumes"]
    assert mount == {"name": volume["name"], "mountPath": "/srv/raag/landing"}
    assert volume["persistentVolumeClaim"]["claimName"] == "raag-landing"
    code = helm_values["dagster-user-deployments"]["deployments"][0]
    assert code["volumeMounts"] == k8s["volumeMounts"]  # the sensor reads the same folders
    assert code["env"]["RAAG_HOME"] == env["RAAG_HOME"]


def test_the_run_queue_and_storage_match_the_docker_instance(helm_values, instance_yaml):
    queue = helm_values["dagsterDaemon"]["runCoordinator"]
    assert queue["enabled"] and queue["type"] == "QueuedRunCoordinator"
    limits = queue["config"]["queuedRunCoordinator"]["tagConcurrencyLimits"]
    assert limits == instance_yaml["run_coordinator"]["config"]["tag_concurrency_limits"]
    postgres = helm_values["postgresql"]
    assert postgres["enabled"] is False and postgres["postgresqlDatabase"] == "dagster"
    scheme = instance_yaml["storage"]["postgres"]["postgres_db"]["scheme"]
    assert postgres["postgresqlScheme"] == scheme == "postgresql+psycopg2"
    assert helm_values["generatePostgresqlPasswordSecret"] is False
    assert helm_values["global"]["postgresqlSecretName"] == "raag-dagster-postgresql"


def test_the_manifests_beside_the_chart_migrate_serve_and_hold_the_landing_folders():
    docs = {d["kind"]: d for d in yaml.safe_load_all((DEPLOY / "k8s" / "raag.yaml").read_text())}
    assert set(docs) == {"PersistentVolumeClaim", "Job", "Deployment", "Service"}
    claim = docs["PersistentVolumeClaim"]
    assert claim["metadata"]["name"] == "raag-landing"
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"]
    (migrate,) = docs["Job"]["spec"]["template"]["spec"]["containers"]
    assert migrate["command"] == ["raag", "migrate"]
    assert migrate["envFrom"] == [{"secretRef": {"name": "raag-env"}}]
    (rest,) = docs["Deployment"]["spec"]["template"]["spec"]["containers"]
    assert rest["command"][:2] == ["raag", "serve"] and "0.0.0.0" in rest["command"]
    assert rest["readinessProbe"]["httpGet"]["path"] == "/v1/health"
    image = f"{IMAGE['repository']}:{IMAGE['tag']}"
    assert migrate["image"] == rest["image"] == image
    assert (
        docs["Service"]["spec"]["selector"] == docs["Deployment"]["spec"]["selector"]["matchLabels"]
    )
