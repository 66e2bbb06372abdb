"""deploy/compose.yaml, read as YAML (no Docker daemon needed): the services a deploy needs,
each with the image, command and settings that make it start, and the names the instance
file (deploy/dagster.yaml) refers to."""

import re

from tests.deploy.conftest import DEPLOY

SERVICES = {"postgres", "migrate", "raag-code", "raag-webserver", "raag-daemon", "raag-rest"}
RAAG_SERVICES = SERVICES - {"postgres"}


def test_every_service_is_there_with_its_image_and_command(compose):
    services = compose["services"]
    assert set(services) == SERVICES
    assert services["postgres"]["image"].startswith("pgvector/pgvector:")
    for name in RAAG_SERVICES:
        assert services[name]["image"] == "${RAAG_IMAGE:-raag:0.1.0}", name
    assert services["migrate"]["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    commands = {name: services[name]["command"] for name in RAAG_SERVICES}
    assert commands["migrate"] == ["raag", "migrate"]
    assert commands["raag-code"][:5] == ["dagster", "api", "grpc", "-m", "raag_assets.definitions"]
    assert commands["raag-webserver"][:3] == ["dagster-webserver", "-w", "workspace.yaml"]
    assert commands["raag-daemon"] == ["dagster-daemon", "run", "-w", "workspace.yaml"]
    assert commands["raag-rest"][:2] == ["raag", "serve"]
    assert "0.0.0.0" in commands["raag-rest"] and "0.0.0.0" in commands["raag-webserver"]


def test_migrations_run_once_before_the_services_that_use_the_database(compose):
    services = compose["services"]
    assert services["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert services["migrate"]["restart"] == "no"
    for name in ("raag-code", "raag-rest"):
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }
    assert "healthcheck" in services["postgres"]
    init = (DEPLOY / "initdb").glob("*.sql")
    assert any("CREATE DATABASE dagster" in p.read_text() for p in init)


def test_every_raag_process_gets_the_settings_runs_need(compose, instance_yaml):
    """The run launcher passes these from the daemon to each run container and fails a run
    whose variable is unset: the daemon (and every raag service) sets them all."""
    passed = instance_yaml["run_launcher"]["config"]["env_vars"]
    services = compose["services"]
    for name in RAAG_SERVICES:
        env = services[name]["environment"]
        missing = [v for v in passed if v not in env]
        assert not missing, (name, missing)
        assert env["RAAG_HOME"] == "/srv/raag"
        assert re.fullmatch(
            r"postgresql://raag:\$\{POSTGRES_PASSWORD:-raag\}@postgres:5432/raag",
            env["RAAG_DATABASE_URL"],
        )
        assert env["DAGSTER_PG_HOST"] == "postgres" and env["DAGSTER_PG_DB"] == "dagster"


def test_the_landing_volume_network_and_socket_match_the_instance_file(compose, instance_yaml):
    launcher = instance_yaml["run_launcher"]["config"]
    (volume_spec,) = launcher["container_kwargs"]["volumes"]
    volume, mount = volume_spec.split(":")
    assert compose["volumes"][volume]["name"] == volume  # not prefixed with the project's name
    assert compose["networks"]["raag"]["name"] == "raag"
    services = compose["services"]
    for name in ("raag-code", "raag-webserver", "raag-daemon"):
        assert f"{volume}:{mount}" in services[name]["volumes"], name
        assert services[name]["environment"]["RAAG_DOCKER_NETWORK"] == "raag"
    for name in ("raag-webserver", "raag-daemon"):  # they start and stop run containers
        assert "/var/run/docker.sock:/var/run/docker.sock" in services[name]["volumes"]
    workspace = (DEPLOY / "workspace.yaml").read_text()
    assert "host: raag-code" in workspace and "port: 4000" in workspace
    assert "4000" in services["raag-code"]["command"]
    assert services["raag-webserver"]["ports"] == ["3000:3000"]
    assert services["raag-rest"]["ports"] == ["8000:8000"]
