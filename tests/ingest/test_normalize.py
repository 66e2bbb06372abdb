from raag_assets.ingest.normalize import join_lines, normalize_line


def test_ligatures_nfc_and_whitespace():
    assert normalize_line("  e\ufb03cient\u00a0 cafe\u0301\t ") == "efficient café"


def test_hyphenated_line_ends_are_joined_but_real_hyphens_kept():
    assert join_lines(["the employ-", "ee may take leave"]) == "the employee may take leave"
    assert join_lines(["full-time", "employees"]) == "full-time employees"
