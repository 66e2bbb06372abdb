import pytest

from raag_assets.core.errors import BadDocument, InvalidTenant
from raag_assets.core.identity import doc_id_from_name, section_id, validate_doc_id, validate_tenant


@pytest.mark.parametrize("tenant", ["demo", "acme-eu", "t_1", "0abc", "a" * 40])
def test_valid_tenants(tenant):
    assert validate_tenant(tenant) == tenant


@pytest.mark.parametrize(
    "tenant",
    [
        "",
        "Demo",
        "-x",
        "a" * 41,
        "demo; DROP TABLE chunks; --",
        "x' OR '1'='1",
        'a"b',
        "../etc",
        "tenant name",
        "ü",
    ],
)
def test_hostile_or_malformed_tenants_are_refused(tenant):
    with pytest.raises(InvalidTenant, match="invalid tenant id"):
        validate_tenant(tenant)


@pytest.mark.parametrize(
    ("name", "doc_id"),
    [
        ("GPL-3", "GPL-3"),
        ("MPL-2.0", "MPL-2.0"),  # ".0" is a version, not an extension
        ("leave-policy.md", "leave-policy"),
        ("Handbook.PDF", "Handbook"),
        ("notes.txt", "notes"),
        ("archive.tar.gz", "archive.tar.gz"),
        ("some/dir/report v2.pdf", "report v2"),
        # a real contract's file name: comma, spaces before the extension
        ("Sonos, Inc. - Manufacturing Agreement .txt", "Sonos Inc. - Manufacturing Agreement"),
        ("Acme;  Widget  Terms.md", "Acme Widget Terms"),
    ],
)
def test_doc_id_from_file_name(name, doc_id):
    assert doc_id_from_name(name) == doc_id


@pytest.mark.parametrize("doc_id", ["..", "a/../b", 'say "hi"', "x'y", "a\nb", "", ".hidden"])
def test_unsafe_doc_ids_are_refused(doc_id):
    with pytest.raises(BadDocument, match="unsafe doc_id"):
        validate_doc_id(doc_id, "test")


@pytest.mark.parametrize("name", ['it\'s "quoted".md', "a\u202eb.txt", " .. .md", "x\u2215y.pdf"])
def test_hostile_file_names_still_give_unsafe_doc_ids(name):
    with pytest.raises(BadDocument, match="unsafe doc_id"):
        validate_doc_id(doc_id_from_name(name), "test")


def test_section_ids_are_stable_and_distinct():
    assert section_id("GPL-3", "4", 0) == section_id("GPL-3", "4", 0)
    ids = {section_id("GPL-3", "4", 0), section_id("GPL-3", "4", 1), section_id("GPL-2", "4", 0)}
    assert len(ids) == 3
