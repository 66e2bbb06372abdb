"""The embedded server's memory settings as a function of the memory it may use."""

import pytest

from raag_assets.store.server_settings import (
    INCLUDE,
    memory_budget,
    parse_size,
    server_settings,
    write_settings,
)


def test_sizes_parse_as_postgres_writes_them():
    assert parse_size("512MB") == 512 << 20
    assert parse_size(" 4gb ") == 4 << 30
    assert parse_size("1.5GB") == 3 << 29
    assert parse_size("2048kB") == 2 << 20
    for bad in ("4", "4 GiB", "-1GB", "lots"):
        with pytest.raises(ValueError, match="RAAG_PG_MEMORY"):
            parse_size(bad)


def test_settings_scale_with_memory_within_bounds():
    big = server_settings(64 << 30)
    assert big == {
        "shared_buffers": "16384MB",
        "effective_cache_size": "49152MB",
        "work_mem": "64MB",  # per sort: bounded however large the machine
        "maintenance_work_mem": "2048MB",
    }
    small = server_settings(256 << 20)  # never below Postgres's own defaults
    assert small["shared_buffers"] == "128MB"
    assert small["work_mem"] == "4MB"
    assert small["maintenance_work_mem"] == "64MB"


def test_raag_pg_memory_overrides_the_machine(monkeypatch):
    monkeypatch.setenv("RAAG_PG_MEMORY", "3GB")
    assert memory_budget() == 3 << 30
    monkeypatch.delenv("RAAG_PG_MEMORY")
    assert memory_budget() > 0


def test_the_settings_file_is_rewritten_and_included_once(tmp_path):
    (tmp_path / "postgresql.conf").write_text("max_connections = 100\n")
    write_settings(tmp_path, {"shared_buffers": "1GB"})
    write_settings(tmp_path, {"shared_buffers": "2GB"})
    assert "shared_buffers = '2GB'" in (tmp_path / "raag.conf").read_text()
    conf = (tmp_path / "postgresql.conf").read_text()
    assert conf.startswith("max_connections = 100\n") and conf.count(INCLUDE) == 1
