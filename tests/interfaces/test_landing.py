"""`raag landing`: what became of each landed file, and --prune for the refused ones; the
store in use named wherever something is not found."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from raag_assets.core.settings import raag_home
from raag_assets.interfaces.cli import main, store_in_use
from tests.conftest import EXAMPLES, Store


@pytest.fixture
def raag(monkeypatch, tmp_path):
    """The CLI on a store's database, with a RAAG_HOME (landing folders) of the test's own."""

    def run(store: Store, *args: str):
        monkeypatch.setenv("RAAG_DATABASE_URL", store.url)
        monkeypatch.setenv("RAAG_HOME", str(tmp_path / "home"))
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return run


def test_landing_lists_each_files_state_and_prune_removes_only_the_refused(
    raag, make_store, tmp_path
):
    store = make_store()
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    shutil.copy(EXAMPLES / "leave-policy.md", first / "policy.md")
    shutil.copy(EXAMPLES / "expenses.txt", first / "kept.txt")  # doc_id from its name
    (first / "empty.md").write_text("")
    (second / "kept.txt").write_text("")  # a later, broken copy of a stored document's file
    assert raag(store, "ingest", str(first), "--tenant", "land").exit_code == 0
    assert raag(store, "ingest", str(second), "--tenant", "land").exit_code == 3
    folder = tmp_path / "home" / "landing" / "land"
    shutil.copy(EXAMPLES / "wfh-policy.md", folder / "pending.md")  # landed since the last run

    listed = raag(store, "landing", "--tenant", "land", "--json")
    assert listed.exit_code == 0, listed.output
    files = {f["file"]: f for f in json.loads(listed.stdout)["files"]}
    assert {n: (f["state"], f["stored"]) for n, f in files.items()} == {
        "empty.md": ("refused", False),
        "kept.txt": ("refused", True),  # refused now, its earlier text still stored
        "pending.md": ("pending", False),
        "policy.md": ("ingested", True),
    }
    assert files["empty.md"]["reason"] and files["kept.txt"]["reason"]
    table = raag(store, "landing", "--tenant", "land")
    assert "refused" in table.stdout and "pending" in table.stdout
    assert "--prune" in table.stderr  # says how to remove the refused file

    pruned = raag(store, "landing", "--tenant", "land", "--prune", "--json")
    assert pruned.exit_code == 0, pruned.output
    out = json.loads(pruned.stdout)
    assert out["removed"] == ["empty.md"]
    assert sorted(f["file"] for f in out["files"]) == ["kept.txt", "pending.md", "policy.md"]
    assert sorted(p.name for p in folder.iterdir()) == ["kept.txt", "pending.md", "policy.md"]
    # the next ingest no longer lists the removed file among the skipped ones
    again = raag(store, "ingest", str(first / "policy.md"), "--tenant", "land", "--json")
    assert "empty.md" not in {s["file"] for s in json.loads(again.stdout)["skipped"]}


def test_not_found_and_nothing_ingested_name_the_store_in_use(raag, make_store, monkeypatch):
    store = make_store()
    missing = raag(store, "sections", "--tenant", "nobody")
    assert missing.exit_code == 2
    assert "has nothing ingested" in missing.stderr
    assert "RAAG_DATABASE_URL" in missing.stderr and "raag_test_" in missing.stderr
    nothing = raag(store, "ingest", "/nonexistent.md", "--tenant", "nothing")
    assert nothing.exit_code == 3
    assert "nothing ingested into the database raag_test_" in nothing.stderr
    no_doc = raag(store, "show", "--tenant", "nothing", "--doc", "nope")
    assert no_doc.exit_code == 2 and "RAAG_DATABASE_URL" in no_doc.stderr
    no_key = raag(store, "api-key", "revoke", "0123456789ab")
    assert no_key.exit_code == 2 and "RAAG_DATABASE_URL" in no_key.stderr

    # the embedded store is named by its RAAG_HOME folder
    monkeypatch.delenv("RAAG_DATABASE_URL")
    monkeypatch.setenv("RAAG_HOME", "/srv/elsewhere/.raag")
    assert store_in_use() == "the store at /srv/elsewhere/.raag (RAAG_HOME)"


def test_a_search_from_another_folder_names_the_embedded_store_it_looked_in(monkeypatch):
    monkeypatch.delenv("RAAG_DATABASE_URL", raising=False)
    result = CliRunner().invoke(main, ["sections", "--tenant", "never-ingested"])
    assert result.exit_code == 2
    assert str(raag_home()) in result.stderr and "RAAG_HOME" in result.stderr
    assert Path(raag_home()).is_dir()
