"""A dated policy history: five versions of one file, each stating its effective date in its
text, ingested in order and out of order through the real pipeline; search(as_of_date=...)
answers from the version in force on that date."""

import datetime as dt
from pathlib import Path

import pytest

from raag_assets.retrieval.search import search
from raag_assets.store.documents import Placement, StoredVersion, place_version
from raag_assets.store.documents import documents as store_documents

# (stated effective date, the allowance that version sets)
HISTORY = [
    ("March 1, 2019", 40),
    ("January 15, 2020", 55),
    ("July 1, 2021", 65),
    ("February 1, 2023", 80),
    ("September 30, 2024", 95),
]
POLICY = """# Remote Work Allowance Policy

Effective date: {date}

## 1 Allowance

Employees who work from home receive a remote work allowance of {amount} euros per month
for internet and electricity costs.

## 2 Claims

Claims are made through the payroll portal before the tenth day of each month.
"""
QUERY = "How many euros per month is the remote work allowance?"
DOCS = "SELECT doc_id, version, effective_from, effective_to FROM documents "
DOCS += "WHERE tenant_id = %s ORDER BY effective_from"


def _land(folder: Path, n: int) -> None:
    date, amount = HISTORY[n]
    (folder / "remote-allowance.md").write_text(POLICY.format(date=date, amount=amount))


def _starts() -> list[dt.date]:
    return [dt.datetime.strptime(d, "%B %d, %Y").date() for d, _ in HISTORY]


def _check_history(store, tenant: str, embedder) -> None:
    starts = _starts()
    rows = store.rows(DOCS, tenant)
    assert [r[2] for r in rows] == starts
    # each version in force until the day before the next one's stated date
    assert [r[3] for r in rows] == [s - dt.timedelta(days=1) for s in starts[1:]] + [None]
    assert rows[-1][0] == "remote-allowance"  # the latest stated date is the live version
    with store.connect() as conn:
        for n, start in enumerate(starts):
            # a day inside each period: its start, and the day before the next one starts
            end = starts[n + 1] - dt.timedelta(days=1) if n + 1 < len(starts) else start
            for day in {start + dt.timedelta(days=10), end}:
                res = search(QUERY, tenant, as_of_date=day, conn=conn, embed=embedder.embed)
                top = res.results[0]
                assert f"{HISTORY[n][1]} euros" in top["text"], (day, top["doc_id"])
                assert top["doc_id"] == rows[n][0]


def test_dated_versions_in_order_answer_as_of_each_period(make_store, embedder, tmp_path):
    store = make_store()
    for n in range(len(HISTORY)):
        _land(tmp_path, n)
        assert store.ingest([tmp_path], "dated").success
    _check_history(store, "dated", embedder)


def test_dated_versions_out_of_order_take_their_place_by_date(make_store, embedder, tmp_path):
    store = make_store()
    for n in (2, 0, 4, 1, 3):  # the middle one first, the oldest second, ...
        _land(tmp_path, n)
        summary = store.ingest([tmp_path], "shuffled")
        assert summary.success and all(summary.checks.values())
    _check_history(store, "shuffled", embedder)
    # versions are numbered by arrival: the 2021 file came first
    by_start = {r[2]: r for r in store.rows(DOCS, "shuffled")}
    assert by_start[_starts()[2]][1] == 1
    # the document listing: versions in numeric order, the live one last; each superseded by
    # the next one by date, not by number
    with store.connect() as conn:
        listed = store_documents(conn, "shuffled")
    base = "remote-allowance"
    assert [r["doc_id"] for r in listed] == [f"{base}@v{n}" for n in (1, 2, 4, 5)] + [base]
    by_date = sorted(listed, key=lambda r: r["effective_from"])
    for older, newer in zip(by_date, by_date[1:], strict=False):
        assert older["superseded_by"] == [newer["doc_id"]]
        assert newer["supersedes"] == [older["doc_id"]]

    # a file that returns to an earlier content is that version, not a sixth one
    _land(tmp_path, 1)
    again = store.ingest([tmp_path], "shuffled")
    assert again.stages["documents"]["returned_to_earlier_version"] == {
        "remote-allowance": by_start[_starts()[1]][0]
    }
    assert len(store.rows(DOCS, "shuffled")) == len(HISTORY)


TODAY = dt.date(2025, 5, 1)


def _v(doc_id: str, version: int, start: dt.date | None, live: bool = False) -> StoredVersion:
    return StoredVersion(doc_id, version, f"h{version}", start, live)


@pytest.mark.parametrize(
    ("stated", "expected"),
    [
        (dt.date(2025, 1, 1), Placement("live", 3, dt.date(2025, 1, 1))),
        (dt.date(2022, 1, 1), Placement("earlier", 3, dt.date(2022, 1, 1))),
        (None, Placement("live", 3, TODAY)),  # states no date: in force from its arrival
    ],
)
def test_place_version_by_stated_date(stated, expected):
    versions = [_v("p@v1", 1, dt.date(2020, 1, 1)), _v("p", 2, dt.date(2024, 1, 1), live=True)]
    assert place_version(versions, "new", stated, TODAY) == expected
    assert place_version(versions, "h1", stated, TODAY).action == "returned"
    assert place_version(versions, "h2", stated, TODAY).action == "unchanged"
    assert place_version([], "h", stated, TODAY) == Placement("new", 1, stated)
