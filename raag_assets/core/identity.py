"""Identifiers: tenant ids, doc ids, section ids, content hashes. Pure functions."""

import hashlib
import json
import re
import unicodedata
from pathlib import PurePath
from typing import Any

from raag_assets.core.errors import BadDocument, InvalidTenant

# Tenant ids become Postgres partition names and Dagster partition keys: keep them plain.
TENANT_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
# Doc ids appear in citations ("<doc_id> § <label>"), CLI output, URLs and file paths:
# letters and digits of any script, their combining marks, and a few plain marks (a comma too:
# "Acme, Inc. - Supply Agreement" is the name people give it). Never a
# path separator, a control or invisible character, "@" (earlier versions are
# "<doc_id>@v<n>"), "§" or "#"; never ".." and never a leading mark (".hidden", "-option").
DOC_ID_MAX = 200  # a file name is at most 255 bytes; ids also name files (<doc_id>.json)
DOC_ID_MARKS = "._+() -,"
DOCUMENT_EXTENSIONS = (".pdf", ".md", ".markdown", ".txt")
_DROPPED = re.compile(r";")
_SPACE_RUN = re.compile(r" {2,}")
_DOT_RUN = re.compile(r"\.{2,}")
# Marks a file name carries that a derived id writes another way; every other character
# outside the id alphabet becomes a space.
_QUOTES = "'\"`\u00b4\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2039\u203a\u00ab\u00bb"
_SUBSTITUTES = {"&": "+", "[": "(", "]": ")", "{": "(", "}": ")", "\u2212": "-"}
_ID_CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd", "Nl", "No"}
# combining marks that show nothing: the grapheme joiner and variation selectors
_INVISIBLE_MARK = re.compile("[\u034f\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def validate_tenant(tenant: str) -> str:
    """Return `tenant` if it is a valid tenant id, else raise InvalidTenant."""
    if not isinstance(tenant, str) or not TENANT_RE.match(tenant):
        raise InvalidTenant(
            f"invalid tenant id {tenant!r}: use 1-40 lowercase letters, digits, '-' or '_', "
            "starting with a letter or digit"
        )
    return tenant


def _is_word_char(ch: str) -> bool:
    """A letter or digit of any script (a combining mark goes with the letter before it)."""
    return unicodedata.category(ch)[0] in "LN"


def _is_id_char(ch: str) -> bool:
    if ch in DOC_ID_MARKS:
        return True
    return unicodedata.category(ch) in _ID_CATEGORIES and not _INVISIBLE_MARK.match(ch)


def is_safe_doc_id(doc_id: str) -> bool:
    """Whether `doc_id` may name a document as it is (see validate_doc_id)."""
    return (
        0 < len(doc_id) <= DOC_ID_MAX
        and _is_word_char(doc_id[0])
        and all(_is_id_char(ch) for ch in doc_id)
        and ".." not in doc_id
        and unicodedata.is_normalized("NFC", doc_id)
    )


def _strip_extension(name: str) -> str:
    lower = name.lower()
    for ext in DOCUMENT_EXTENSIONS:
        if lower.endswith(ext) and len(name) > len(ext):
            return name[: -len(ext)]
    return name


def doc_id_from_name(file_name: str) -> str:
    """A safe doc_id for any file name: deterministic, never raises.

    The name without a known document extension: `GPL-3.txt` -> `GPL-3`; `MPL-2.0` stays
    `MPL-2.0` (".0" is not a document extension). Punctuation that ordinary names carry but
    ids avoid is tidied: semicolons go, runs of spaces become one, and spaces at either end
    are trimmed (`Sonos, Inc. - Manufacturing Agreement .txt` -> `Sonos, Inc. - Manufacturing
    Agreement`). A name that is then a safe id is its id.

    Any other name is read into one (`derived_doc_id`): letters with accents are kept
    (`LECLANCHÉ S.A.`), dashes become "-", quotes go, other marks ("#", "~", control and
    invisible characters, a backslash) become spaces, and a name longer than an id may be is
    cut and ends with a hash of the whole name. Two names that read into the same id are two
    files claiming one doc_id: the ingest keeps the first by name and reports the other.
    The file name itself is kept as the document's source.
    """
    stem = _strip_extension(PurePath(file_name).name)
    tidy = _SPACE_RUN.sub(" ", _DROPPED.sub("", stem)).strip(" ")
    if is_safe_doc_id(tidy) and unicodedata.is_normalized("NFKC", tidy):
        return tidy
    return derived_doc_id(stem)


def derived_doc_id(stem: str) -> str:
    """The safe id read from a name that is not one (see doc_id_from_name)."""
    text = unicodedata.normalize("NFKC", stem)
    out: list[str] = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in _QUOTES or ch == ";" or category == "Cf" or _INVISIBLE_MARK.match(ch):
            continue  # Cf: zero-width characters, direction marks
        if ch in _SUBSTITUTES:
            out.append(_SUBSTITUTES[ch])
        elif category == "Pd":  # hyphens and dashes: en dash, em dash, ...
            out.append("-")
        else:
            out.append(ch if _is_id_char(ch) else " ")
    readable = _balanced(_DOT_RUN.sub(".", "".join(out)))
    while readable and not _is_word_char(readable[0]):
        readable = readable[1:]
    readable = _SPACE_RUN.sub(" ", _balanced(readable)).strip(" ")
    readable = unicodedata.normalize("NFC", readable)
    if readable and len(readable) <= DOC_ID_MAX:
        return readable
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    suffix = f" ({digest})"
    head = _SPACE_RUN.sub(" ", _balanced(readable[: DOC_ID_MAX - len(suffix)]))
    return (head.rstrip(" .-_+") or "document") + suffix


def _balanced(text: str) -> str:
    """Drop a ")" that closes nothing and a "(" that is never closed."""
    out: list[str] = []
    opened: list[int] = []
    for ch in text:
        if ch == ")":
            if not opened:
                continue
            opened.pop()
        elif ch == "(":
            opened.append(len(out))
        out.append(ch)
    for i in reversed(opened):
        del out[i]
    return "".join(out)


def validate_doc_id(doc_id: object, source: str) -> str:
    """Return doc_id if safe (in NFC form), else raise BadDocument naming where it came from.

    For ids given explicitly (metadata `doc_id`, `supersedes`): nothing is tidied or read
    into shape, an id is safe as given or refused."""
    if isinstance(doc_id, str):
        doc_id = unicodedata.normalize("NFC", doc_id)
    if not isinstance(doc_id, str) or not is_safe_doc_id(doc_id):
        raise BadDocument(
            f"unsafe doc_id {doc_id!r} from {source}: use up to {DOC_ID_MAX} letters, digits, "
            "spaces and . , _ + - ( ), starting with a letter or digit, without '..'"
        )
    return doc_id


def sha256_hex(*parts: bytes | str) -> str:
    """Hex digest of the parts, each ended by a separator. Text is hashed as UTF-8; a lone
    surrogate (a file name that is not UTF-8, as Python reads it) is hashed as such."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part)
        h.update(b"\x1f")
    return h.hexdigest()


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace, so equal values hash equally."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def section_id(doc_id: str, label: str, occurrence: int) -> str:
    """Stable section id: same document, label and occurrence -> same id across re-ingests."""
    return sha256_hex(doc_id, label, str(occurrence))[:20]
