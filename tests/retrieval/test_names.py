"""How a query names a document: versions, ordinals, acronyms, families (pure functions, and
resolution over the licences every Debian machine has)."""

from pathlib import Path

import pytest

from raag_assets.retrieval import names
from raag_assets.retrieval.query import DocDescriptor, might_name_a_document, resolve_document

LICENSES = Path("/usr/share/common-licenses")


@pytest.mark.parametrize(
    ("query", "versions"),
    [
        ("Under GPLv2, may I charge?", {(2,)}),
        ("GPL-2.0 and LGPL 2.1", {(2,), (2, 1)}),
        ("version 3 of the GPL", {(3,)}),
        ("the Apache License, Version 2.0", {(2,)}),
        ("MPL 1.1: the cure period", {(1, 1)}),
        ("Section 2.1 of the Agreement", set()),
        ("within 30 days of notice", set()),
        ("Article 4 and Clause 11.2", set()),
        ("What did revision A of the leave policy say?", {(1,)}),
        ("the Handbook (Rev. B)", {(2,)}),
    ],
)
def test_versions_a_query_names(query, versions):
    assert names.query_versions(names.spaced_versions(query)) == versions


def test_document_versions_ordinals_and_acronyms():
    assert names.document_version("GPL-2", "") == (2,)
    assert names.document_version("MPL-2.0", "") == (2,)
    assert names.document_version("COPYING", "GNU LESSER GENERAL PUBLIC LICENSE Version 2.1") == (
        2,
        1,
    )
    assert names.document_version("handbook_2023-01-15", "") is None  # a date, not a version
    assert names.document_version("leave-policy-rev-a", "") == (1,)
    assert names.document_version("leave-policy", "leave-policy Leave Policy (Rev. B)") == (2,)
    assert names.ordinal_tokens("Amendment No. 2") == names.ordinal_tokens("Second Amendment")
    assert names.ordinal_tokens("the 2nd amendment") == {"ordinal-2"}
    assert "mpl" in names.acronyms("Mozilla Public License")
    assert "lgpl" in names.acronyms("GNU LESSER GENERAL PUBLIC LICENSE")
    assert "ip" in names.acronyms("INTELLECTUAL PROPERTY AGREEMENT")  # 'the IP agreement'
    assert "mp" not in names.acronyms("Mozilla Public")  # two words: no kind to leave out


def _licences() -> list[DocDescriptor]:
    out = []
    for p in sorted(LICENSES.iterdir()):
        if p.is_symlink() or not p.is_file():
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        title = " ".join(text.strip().splitlines()[0].split())
        out.append(DocDescriptor(p.name, f"{p.name} {title} {text[:3000]}", title))
    return out


@pytest.mark.parametrize(
    ("query", "doc_ids"),
    [
        ("Under GPLv2, which conditions apply to a modified program?", ("GPL-2",)),
        ("version 2 of the GPL: may I charge a fee?", ("GPL-2",)),
        ("LGPL 2.1: what must I give users so they can relink?", ("LGPL-2.1",)),
        ("section 6 of the GNU Lesser General Public License version 2.1", ("LGPL-2.1",)),
        ("Apache License 2.0: must I state my changes?", ("Apache-2.0",)),
        ("MPL 1.1: how long is the cure period?", ("MPL-1.1",)),
        ("Under CC0, does the Affirmer waive moral rights?", ("CC0-1.0",)),
        # a family without its version: the latest
        ("Under the GPL, may I add further restrictions?", ("GPL-3",)),
        ("Under the GFDL, is a PDF from a word processor a Transparent copy?", ("GFDL-1.3",)),
        ("What is a Larger Work under the Mozilla Public License?", ("MPL-2.0",)),
    ],
)
def test_a_query_names_a_licence_version_as_people_write_it(query, doc_ids):
    if not LICENSES.is_dir():
        pytest.fail("/usr/share/common-licenses is missing (Debian's base-files provides it)")
    found = resolve_document(query, _licences())
    assert found is not None and found.doc_ids == doc_ids


def test_a_query_naming_no_document_reads_no_names():
    assert not might_name_a_document("How many days of annual leave do I get?")
    assert not might_name_a_document("Is section 2.1 binding on the supplier?")
    assert might_name_a_document("Under GPLv2, may I charge?")
    # a version named in plain words: no capitals needed
    assert might_name_a_document("what did revision b of the leave policy say?")
    assert resolve_document("Is section 2.1 of the agreement binding?", _licences()) is None


def _release_notes() -> list[DocDescriptor]:
    """Invented release notes of one product: each opening names the release before it."""
    out = []
    for minor in range(1, 6):
        title = f"Acme Toolkit 4.{minor} Release Notes"
        opening = f"{title}\n\nChanges since v4.{minor - 1}\n\n * The exporter learned a flag."
        out.append(DocDescriptor(f"4.{minor}.0", f"4.{minor}.0 4.{minor}.0.txt {opening}", title))
    return out


def test_a_document_is_the_version_its_own_title_names_not_the_one_its_opening_cites():
    notes = _release_notes()
    assert names.document_version(notes[2].doc_id, notes[2].names, notes[2].title) == (4, 3)
    # without its title, the version its opening names first is all there is
    assert names.document_version(notes[2].doc_id, notes[2].names) == (4, 2)


@pytest.mark.parametrize(
    "query",
    [
        "In Acme Toolkit 4.3, did the exporter learn a flag?",
        "Did the acme exporter change in v4.3?",
        "with acme 4.3, does the exporter take a flag?",  # the name in small letters
    ],
)
def test_a_query_naming_a_release_gets_that_release(query):
    assert might_name_a_document(query)
    found = resolve_document(query, _release_notes())
    assert found is not None and found.doc_ids == ("4.3.0",)


def test_a_small_word_before_a_number_is_a_name_only_when_documents_are_named_by_it():
    assert names.query_versions("with acme 4.3, does it export?") == set()
    assert names.query_versions("with acme 4.3, does it export?", {"acme"}) == {(4, 3)}
    assert names.query_versions("pay within 30 days of the 2.1 notice", {"within"}) == set()
    assert names.numbered_names("with acme 4.3 and section 2.1") == {"acme"}
