from raag_assets.ingest.normalize import (
    join_lines,
    line_offsets,
    normalize_line,
    space_shifts,
    sub_span,
)


def test_ligatures_nfc_and_whitespace():
    assert normalize_line("  e\ufb03cient\u00a0 cafe\u0301\t ") == "efficient café"


def test_hyphenated_line_ends_are_joined_but_real_hyphens_kept():
    assert join_lines(["the employ-", "ee may take leave"]) == "the employee may take leave"
    assert join_lines(["full-time", "employees"]) == "full-time employees"


def test_space_shifts_map_each_character_onto_the_raw_text_exactly():
    raw = "1.1   Term.    The  Agreement runs  1.2 Fees"
    line = normalize_line(raw)
    shifts = space_shifts(raw, line)
    assert shifts == ((4, 2), (10, 5), (14, 6), (29, 7))
    offsets = line_offsets(line, 100, 100 + len(raw), shifts)
    assert [raw[o - 100] for o in offsets] == [c for c in line]
    # the piece "1.2 Fees" of the line starts where its number does in the raw text
    start, end, own = sub_span(line, 100, 100 + len(raw), shifts, line.index("1.2"), len(line))
    assert raw[start - 100 : end - 100] == "1.2 Fees" and own == ()


def test_space_shifts_are_none_where_normalising_changed_more_than_spaces():
    raw = "e\ufb03cient   use"  # a ligature expanded: mapped in proportion, as before
    assert space_shifts(raw, normalize_line(raw)) is None
    assert space_shifts("same length", "same length") == ()
