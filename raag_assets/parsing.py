"""Reading landed files into layout lines plus metadata. Every failure is a BadDocument
whose message is the one-line reason shown to the user."""

import datetime as dt
import io
import json
import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from raag_assets.errors import BadDocument
from raag_assets.identity import canonical_json, doc_id_from_name, sha256_hex, validate_doc_id
from raag_assets.normalize import normalize_line

SIDECAR_SUFFIX = ".meta.json"
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_PAGE_FOOTER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
_TAG_RE = re.compile(r"^[^\x00-\x1f\x7f]{1,64}$")
_KNOWN_KEYS = {
    "doc_id",
    "title",
    "doc_type",
    "authority_level",
    "tags",
    "effective_from",
    "effective_to",
    "supersedes",
}


@dataclass(frozen=True)
class Line:
    """One line of a document as laid out: normalised text, and for PDFs page and font.

    `start`/`end` locate the line's text (without surrounding whitespace) in the document's
    raw text: for text and Markdown the file as `open(path).read()` gives it (front matter
    and BOM included, newlines universal), for PDFs the extracted text (pages joined by form
    feeds). Lines made up by parsing (paragraph breaks) have none."""

    text: str
    page: int | None = None
    size: float | None = None
    bold: bool = False
    start: int | None = None
    end: int | None = None


@dataclass(frozen=True)
class DocMeta:
    doc_id: str
    title: str | None = None
    doc_type: str | None = None
    authority_level: int | None = None
    tags: tuple[str, ...] = ()
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    supersedes: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def metadata(self) -> dict[str, Any]:
        """Top-level metadata that retrieval filters match by equality."""
        out: dict[str, Any] = dict(self.extra)
        for key in ("doc_type", "authority_level", "supersedes"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        for key in ("effective_from", "effective_to"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key).isoformat()
        return out


@dataclass(frozen=True)
class ParsedDocument:
    source_name: str
    format: str  # "pdf" | "markdown" | "text"
    meta: DocMeta
    raw_text: str
    lines: tuple[Line, ...]
    page_count: int | None
    content_hash: str

    @property
    def doc_id(self) -> str:
        return self.meta.doc_id

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


def is_sidecar(path: Path) -> bool:
    return path.name.endswith(SIDECAR_SUFFIX)


def sniff_format(path: Path, head: bytes) -> str:
    """Format by extension; a file with no known extension is sniffed by its bytes."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return "pdf"
    if suffix in (".md", ".markdown"):
        return "markdown"
    if suffix == ".txt":
        return "text"
    return "pdf" if head.startswith(b"%PDF-") else "text"


def parse_file(path: Path, max_bytes: int) -> ParsedDocument:
    """Parse one landed file. Raises BadDocument with a one-line reason."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise BadDocument(f"cannot read file: {exc.strerror}") from exc
    if size == 0:
        raise BadDocument("empty file (0 bytes)")
    if size > max_bytes:
        raise BadDocument(
            f"file is {size / 1e6:.1f} MB, over the {max_bytes / 1e6:.0f} MB limit "
            "(raise RAAG_MAX_FILE_MB to allow it)"
        )
    data = path.read_bytes()
    fmt = sniff_format(path, data[:8])
    sidecar = _read_sidecar(path)
    if fmt == "pdf":
        if not data.startswith(b"%PDF-"):
            raise BadDocument("not a PDF: the file has a .pdf name but no %PDF header")
        raw_text, lines, pages, pdf_meta = _parse_pdf(data)
        raw_text = raw_text.replace("\x00", " ")  # Postgres text cannot hold NUL; keep offsets
        meta_in = {**pdf_meta, **sidecar}
    else:
        # Offsets index the text as open() reads it: BOM kept, \r\n and \r read as \n.
        bom = "\ufeff" if data.startswith(b"\xef\xbb\xbf") else ""
        full = decode_text(data).replace("\r\n", "\n").replace("\r", "\n")
        text, front = split_front_matter(full)
        raw_text = bom + full
        lines = tuple(_text_lines(text, len(raw_text) - len(text)))
        pages = None
        meta_in = {**front, **sidecar}
        if not any(line.text for line in lines):
            raise BadDocument("no text content (only whitespace)")
    if "\\u0000" in canonical_json(meta_in):
        raise BadDocument("metadata holds a NUL character (\\u0000), which cannot be stored")
    meta = build_meta(meta_in, path.name)
    content_hash = sha256_hex(data, canonical_json(sidecar))
    return ParsedDocument(path.name, fmt, meta, raw_text, lines, pages, content_hash)


def _text_lines(text: str, base: int) -> list[Line]:
    """Lines of a text with their offsets (`base` = where `text` starts in the raw text)."""
    out = []
    pos = base
    for raw in text.splitlines(keepends=True):
        body = raw.rstrip("\n\v\f\x1c\x1d\x1e\x85\u2028\u2029")
        lead = len(body) - len(body.lstrip())
        stripped = body.strip()
        start = pos + lead
        out.append(Line(normalize_line(body), start=start, end=start + len(stripped)))
        pos += len(raw)
    return out


def decode_text(data: bytes) -> str:
    """Decode UTF-8 (BOM allowed) or BOM-marked UTF-16; refuse binary data."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise BadDocument(f"invalid UTF-16 text at byte {exc.start}") from exc
        if "\x00" in text:
            raise BadDocument("binary data (a NUL character in UTF-16 text), not text")
        return text
    nul = data.find(b"\x00")
    if nul >= 0:
        raise BadDocument(
            f"binary data (NUL byte at offset {nul}), not text: give it a .pdf name if it is a PDF"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadDocument(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "convert it to UTF-8, e.g. with iconv"
        ) from exc
    controls = sum(1 for ch in text[:65536] if ch < " " and ch not in "\t\n\r\f")
    if controls > max(8, len(text[:65536]) // 100):
        raise BadDocument("binary data (control characters), not text")
    return text


def split_front_matter(text: str) -> tuple[str, dict[str, Any]]:
    """Strip YAML front matter (--- ... ---) from the start of a text, returning it parsed."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return text, {}
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        raise BadDocument(f"front matter is not valid YAML: {str(exc).splitlines()[0]}") from exc
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise BadDocument("front matter must be a YAML mapping of key: value")
    return text[match.end() :], data


def _read_sidecar(path: Path) -> dict[str, Any]:
    for candidate in (
        path.with_name(path.name + SIDECAR_SUFFIX),
        path.with_name(path.stem + SIDECAR_SUFFIX),
    ):
        try:
            exists = candidate != path and candidate.is_file()
        except OSError:  # e.g. the name plus the suffix is too long: there can be no sidecar
            exists = False
        if exists:
            try:
                data = json.loads(candidate.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise BadDocument(f"sidecar {candidate.name} is not valid JSON: {exc}") from exc
            if not isinstance(data, dict):
                raise BadDocument(f"sidecar {candidate.name} must hold a JSON object")
            return data
    return {}


def build_meta(raw: dict[str, Any], file_name: str) -> DocMeta:
    """Validate metadata from front matter, sidecar or PDF info into a DocMeta."""
    source = "metadata" if "doc_id" in raw else f"file name {file_name!r}"
    doc_id = validate_doc_id(raw.get("doc_id", doc_id_from_name(file_name)), source)
    authority = raw.get("authority_level")
    if authority is not None and (isinstance(authority, bool) or not isinstance(authority, int)):
        raise BadDocument(f"authority_level must be a whole number, got {authority!r}")
    tags = raw.get("tags", [])
    if isinstance(tags, str):
        tags = [t.strip() for t in tags.split(",") if t.strip()]
    if not isinstance(tags, list) or not all(isinstance(t, str) and _TAG_RE.match(t) for t in tags):
        raise BadDocument("tags must be a list of strings of 1-64 printable characters")
    supersedes = raw.get("supersedes")
    if supersedes is not None:
        supersedes = validate_doc_id(supersedes, "supersedes")
    extra = {k: _jsonable(k, v) for k, v in raw.items() if k not in _KNOWN_KEYS}
    return DocMeta(
        doc_id=doc_id,
        title=_opt_str(raw, "title"),
        doc_type=_opt_str(raw, "doc_type"),
        authority_level=authority,
        tags=tuple(sorted(set(tags))),
        effective_from=_opt_date(raw, "effective_from"),
        effective_to=_opt_date(raw, "effective_to"),
        supersedes=supersedes,
        extra=extra,
    )


def _opt_str(raw: dict[str, Any], key: str) -> str | None:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, str | int | float):
        raise BadDocument(f"{key} must be text, got {type(value).__name__}")
    return normalize_line(str(value))


def _opt_date(raw: dict[str, Any], key: str) -> dt.date | None:
    value = raw.get(key)
    if value is None or isinstance(value, dt.date):
        return value.date() if isinstance(value, dt.datetime) else value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError as exc:
        raise BadDocument(f"{key} must be a date like 2024-01-31, got {value!r}") from exc


def _jsonable(key: str, value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    try:
        json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise BadDocument(f"metadata key {key!r} holds a value that is not plain data") from exc
    return value


def _parse_pdf(data: bytes) -> tuple[str, tuple[Line, ...], int, dict[str, Any]]:
    import pdfplumber  # imported here: loading pdfminer is slow and text files never need it

    # pdfminer logs every recoverable syntax problem at WARNING; the reason we raise is enough.
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            lines: list[Line] = []
            raw_pages: list[str] = []
            offset = 0  # where the page starts in the raw text ("\f".join(raw_pages))
            for number, page in enumerate(pdf.pages, start=1):
                page_lines = page.extract_text_lines(return_chars=True)
                raw_pages.append("\n".join(item["text"] for item in page_lines))
                lines.append(Line("", number))  # a page break ends a paragraph
                bottom = None
                for item in page_lines:
                    # A vertical gap wider than half a line marks a paragraph break.
                    height = item["bottom"] - item["top"]
                    if bottom is not None and item["top"] - bottom > 0.5 * height:
                        lines.append(Line("", number))
                    lines.append(_pdf_line(item, number, offset))
                    offset += len(item["text"]) + 1  # the line and its "\n"
                    bottom = item["bottom"]
                offset += 0 if page_lines else 1  # an empty page is "" then "\f"
            page_count = len(pdf.pages)
            info = pdf.metadata or {}
    except Exception as exc:  # pdfminer raises many unrelated types for damaged files
        detail = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise BadDocument(f"not a readable PDF ({detail})") from exc
    lines = [ln for ln in lines if not _PAGE_FOOTER.match(ln.text)]
    if not any(ln.text for ln in lines):
        raise BadDocument("PDF has no extractable text (a scanned image? run OCR first)")
    title = info.get("Title")
    meta = {"title": title} if isinstance(title, str) and title.strip() else {}
    return "\f".join(raw_pages), tuple(lines), page_count, meta


def _pdf_line(item: dict[str, Any], page: int, offset: int) -> Line:
    chars = [c for c in item.get("chars", []) if c.get("text", "").strip()]
    sizes = Counter(round(float(c.get("size", 0)), 1) for c in chars)
    size = sizes.most_common(1)[0][0] if sizes else None
    bold = bool(chars) and all("bold" in str(c.get("fontname", "")).lower() for c in chars)
    raw = item["text"]
    start = offset + len(raw) - len(raw.lstrip())
    return Line(normalize_line(raw), page, size, bold, start, start + len(raw.strip()))
