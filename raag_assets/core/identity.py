"""Identifiers: tenant ids, doc ids, section ids, content hashes. Pure functions."""

import hashlib
import json
import re
from pathlib import PurePath
from typing import Any

from raag_assets.core.errors import BadDocument, InvalidTenant

# Tenant ids become Postgres partition names and Dagster partition keys: keep them plain.
TENANT_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
# Doc ids appear in citations, CLI output and file paths: letters, digits and a few marks.
DOC_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+() -]{0,127}$")
DOCUMENT_EXTENSIONS = (".pdf", ".md", ".markdown", ".txt")
_DROPPED = re.compile(r"[,;]")
_SPACE_RUN = re.compile(r" {2,}")


def validate_tenant(tenant: str) -> str:
    """Return `tenant` if it is a valid tenant id, else raise InvalidTenant."""
    if not isinstance(tenant, str) or not TENANT_RE.match(tenant):
        raise InvalidTenant(
            f"invalid tenant id {tenant!r}: use 1-40 lowercase letters, digits, '-' or '_', "
            "starting with a letter or digit"
        )
    return tenant


def doc_id_from_name(file_name: str) -> str:
    """doc_id from a file name: the name without a known document extension.

    `GPL-3.txt` -> `GPL-3`; `MPL-2.0` stays `MPL-2.0` (".0" is not a document extension).
    Punctuation that ordinary names carry but ids avoid is tidied: commas and semicolons go,
    runs of spaces become one, and spaces at either end are trimmed
    (`Sonos, Inc. - Manufacturing Agreement .txt` -> `Sonos Inc. - Manufacturing Agreement`).
    Anything else unsafe (quotes, slashes, control or invisible characters) is kept, so that
    validate_doc_id refuses it.
    """
    name = PurePath(file_name).name
    lower = name.lower()
    for ext in DOCUMENT_EXTENSIONS:
        if lower.endswith(ext) and len(name) > len(ext):
            name = name[: -len(ext)]
            break
    tidy = _SPACE_RUN.sub(" ", _DROPPED.sub("", name)).strip(" ")
    return tidy or name


def validate_doc_id(doc_id: object, source: str) -> str:
    """Return doc_id if safe, else raise BadDocument naming where it came from."""
    if not isinstance(doc_id, str) or not DOC_ID_RE.match(doc_id) or ".." in doc_id:
        raise BadDocument(
            f"unsafe doc_id {doc_id!r} from {source}: use letters, digits, spaces and . _ + - ( ); "
            "rename the file or set doc_id in its metadata"
        )
    return doc_id


def sha256_hex(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8") if isinstance(part, str) else part)
        h.update(b"\x1f")
    return h.hexdigest()


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace, so equal values hash equally."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def section_id(doc_id: str, label: str, occurrence: int) -> str:
    """Stable section id: same document, label and occurrence -> same id across re-ingests."""
    return sha256_hex(doc_id, label, str(occurrence))[:20]
