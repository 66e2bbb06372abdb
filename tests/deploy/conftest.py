"""deploy/: the files a team deploys raag with, read as the tools that use them would."""

from pathlib import Path

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


@pytest.fixture(scope="session")
def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


@pytest.fixture(scope="session")
def helm_values() -> dict:
    return yaml.safe_load((DEPLOY / "helm" / "values.yaml").read_text())


@pytest.fixture(scope="session")
def instance_yaml() -> dict:
    return yaml.safe_load((DEPLOY / "dagster.yaml").read_text())
