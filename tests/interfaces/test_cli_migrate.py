"""`raag migrate`: the schema migrations as a step of their own, on a fresh database: every
migration applied and named, then nothing on the second run, and two at once take turns."""

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
from click.testing import CliRunner

from raag_assets.interfaces.cli import main
from raag_assets.store import db


def _all_migrations() -> list[str]:
    return sorted(p.stem for p in (db.sql_dir() / "migrations").glob("[0-9][0-9][0-9]_*.sql"))


def test_migrate_applies_every_migration_once_and_says_which(new_database, monkeypatch):
    url = new_database()
    monkeypatch.setenv("RAAG_DATABASE_URL", url)
    runner = CliRunner()
    first = runner.invoke(main, ["migrate"], catch_exceptions=False)
    assert first.exit_code == 0, first.output
    wanted = _all_migrations()
    assert f"applied {len(wanted)} migrations to raag_test_" in first.output
    assert [line.strip() for line in first.output.splitlines()[1:]] == wanted
    with psycopg.connect(url) as conn:
        recorded = [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY 1")]
    assert recorded == wanted

    again = runner.invoke(main, ["migrate", "--json"], catch_exceptions=False)
    assert again.exit_code == 0
    report = json.loads(again.output)
    assert report["applied"] == [] and report["database"].startswith("raag_test_")
    assert "password" not in again.output
    said = runner.invoke(main, ["migrate"], catch_exceptions=False).output
    assert "is up to date: no migration to apply" in said


def test_two_migrations_at_once_take_turns(new_database):
    """Two `raag migrate` processes on one fresh database (two deploy jobs starting together):
    both succeed, the migrations are applied once in all."""
    url = new_database()
    env = {**os.environ, "RAAG_DATABASE_URL": url}
    raag = str(Path(sys.executable).parent / "raag")
    procs = [
        subprocess.Popen(
            [raag, "migrate", "--json"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    applied = [json.loads(stdout)["applied"] for stdout, _ in results]
    assert sorted(applied, key=len) == [[], _all_migrations()]
