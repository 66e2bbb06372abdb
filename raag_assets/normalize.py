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
    out = ""
    for line in lines:
        if not line:
            continue
        if out and _HYPHEN_BREAK.search(out) and line[0].islower():
            out = out[:-1] + line
        elif out:
            out = f"{out} {line}"
        else:
            out = line
    return out
