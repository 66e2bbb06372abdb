"""Text normalisation: NFC, ligatures, invisible characters, whitespace, de-hyphenation."""

import re
import unicodedata

_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
    }
)
# Zero-width and bidi-control characters carry no text and can hide content; drop them.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_HYPHEN_BREAK = re.compile(r"([a-z])-$")


def normalize_line(line: str) -> str:
    """One line, normalised: NFC, ligatures expanded, invisibles dropped, spaces collapsed."""
    line = unicodedata.normalize("NFC", line).translate(_LIGATURES)
    line = _INVISIBLE.sub("", line)
    line = _CONTROL.sub(" ", line)
    return _SPACES.sub(" ", line).strip()


def join_lines(lines: list[str]) -> str:
    """Join the lines of one paragraph, undoing end-of-line hyphenation ("employ-" + "ees")."""
    return join_lines_mapped([(line, None, None, None) for line in lines])[0]


Span = tuple[int | None, int | None]  # where a line's text lies in the raw text
# Where a normalised line's characters lie in its raw text, exactly: (i, d) pairs, sorted by
# i, saying that from character i of the line on the raw offset is start + i + d (d the raw
# characters normalising removed before it: the spaces of collapsed runs). () when the two
# are the same; None where normalising changed more than spaces (NFC, ligatures,
# invisibles): then the line maps proportionally.
Shifts = tuple[tuple[int, int], ...]
_NOT_SPACES_ONLY = re.compile("[\ufb00-\ufb06]|" + _INVISIBLE.pattern + "|" + _CONTROL.pattern)


def space_shifts(raw: str, line: str) -> Shifts | None:
    """The Shifts of `line`, normalised from `raw` (the raw text from its first character to
    its last), when normalising only collapsed runs of spaces; else None."""
    if raw == line:
        return ()
    if _NOT_SPACES_ONLY.search(raw) or not unicodedata.is_normalized("NFC", raw):
        return None
    if normalize_line(raw) != line:
        return None
    shifts: list[tuple[int, int]] = []
    removed = 0
    for m in _SPACES.finditer(raw):
        if extra := m.end() - m.start() - 1:
            removed += extra
            shifts.append((m.end() - removed, removed))
    return tuple(shifts)


def line_offsets(
    line: str, start: int | None, end: int | None, shifts: Shifts | None = None
) -> list[int]:
    """Raw offset of each character of a normalised line whose raw text is [start, end):
    exact with its Shifts, else proportional (line ends exact)."""
    if start is None or end is None:
        return [-1] * len(line)
    n, span = len(line), end - start
    if shifts is not None:
        out = list(range(start, start + n))
        bounds = [*shifts, (n, 0)]
        for (i, d), (j, _) in zip(bounds, bounds[1:], strict=False):
            out[i:j] = range(start + i + d, start + j + d)
        return out
    if n == span or n <= 1:
        return [start + i for i in range(n)]
    return [start + (i * span) // n for i in range(n)]


def sub_span(
    line: str,
    start: int | None,
    end: int | None,
    shifts: Shifts | None,
    a: int,
    b: int,
    offsets: list[int] | None = None,
) -> tuple[int | None, int | None, Shifts | None]:
    """Where line[a:b] lies in the raw text, and its own Shifts (`offsets`: the line's
    line_offsets, when a caller cutting it in many pieces has them already)."""
    if start is None or end is None or a >= b:
        return None, None, None
    offsets = (offsets or line_offsets(line, start, end, shifts))[a:b]
    first = offsets[0]
    if shifts is None:
        return first, offsets[-1] + 1, None
    out: list[tuple[int, int]] = []
    last = 0
    for k, o in enumerate(offsets):
        if (d := o - first - k) != last:
            out.append((k, d))
            last = d
    return first, offsets[-1] + 1, tuple(out)


Item = tuple[str, int | None, int | None, Shifts | None]  # a line, its raw span and shifts


def join_lines_mapped(lines: list[Item]) -> tuple[str, list[int]]:
    """join_lines, also giving for each character of the result its offset in the raw text
    (-1 where unknown): exact where a line's Shifts are known, else proportional, so line
    ends are always exact."""
    out = ""
    where: list[int] = []
    for line, start, end, shifts in lines:
        if not line:
            continue
        if out and _HYPHEN_BREAK.search(out) and line[0].islower():
            out, where = out[:-1], where[:-1]
        elif out:
            out += " "
            where.append(where[-1] + 1 if where[-1] >= 0 else -1)  # the line break
        out += line
        where.extend(line_offsets(line, start, end, shifts))
    return out, where
