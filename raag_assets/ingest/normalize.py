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
    return join_lines_mapped([(line, None, None) for line in lines])[0]


Span = tuple[int | None, int | None]  # where a line's text lies in the raw text


def join_lines_mapped(lines: list[tuple[str, int | None, int | None]]) -> tuple[str, list[int]]:
    """join_lines, also giving for each character of the result its offset in the raw text
    (-1 where unknown). A normalised line maps onto its raw span: exactly when normalising
    kept its length, else proportionally, so line ends are always exact."""
    out = ""
    where: list[int] = []
    for line, start, end in lines:
        if not line:
            continue
        if out and _HYPHEN_BREAK.search(out) and line[0].islower():
            out, where = out[:-1], where[:-1]
        elif out:
            out += " "
            where.append(where[-1] + 1 if where[-1] >= 0 else -1)  # the line break
        out += line
        where.extend(line_offsets(line, start, end))
    return out, where


def line_offsets(line: str, start: int | None, end: int | None) -> list[int]:
    """Raw offset of each character of a normalised line whose raw text is [start, end)."""
    if start is None or end is None:
        return [-1] * len(line)
    n, span = len(line), end - start
    if n == span or n <= 1:
        return [start + i for i in range(n)]
    return [start + (i * span) // n for i in range(n)]
