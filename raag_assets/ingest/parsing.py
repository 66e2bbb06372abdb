"""Reading landed files into layout lines plus metadata. Every failure is a BadDocument
whose message is the one-line reason shown to the user."""

import datetime as dt
import io
import json
import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from raag_assets.core.errors import BadDocument
from raag_assets.core.identity import canonical_json, doc_id_from_name, sha256_hex, validate_doc_id
from raag_assets.core.model import DocMeta, EffectiveDate, Line, ParsedDocument
from raag_assets.graph.dates import document_dates, document_name
from raag_assets.graph.terms import party_full_names, party_names, with_signatories
from raag_assets.ingest.normalize import join_lines, normalize_line, space_shifts

SIDECAR_SUFFIX = ".meta.json"
_HEAD_LINES = 600  # the effective date is stated near the beginning
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_PAGE_FOOTER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
# Page furniture of plain-text documents: "[Page 12]" footers (RFCs), "- 3 -", "Page 3 of 20",
# a bare page number or a roman one on a line of its own.
_PAGE_MARK = re.compile(r"\[page\s+\d{1,4}\]$", re.IGNORECASE)
_PAGE_NUMBER = re.compile(
    r"^(?:(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?|-\s*\d{1,4}\s*-|[ivxlc]{1,6})$",
    re.IGNORECASE,
)
# EDGAR exports stamp every page with "Source: <filer>, <form>, <date>".
_SOURCE_BANNER = re.compile(
    r"^source:\s+\S.*,\s*[\w/-]+,\s*\d{1,2}/\d{1,2}/\d{2,4}$", re.IGNORECASE
)
_TERMINAL_PUNCT = re.compile(r"[.:;!?)\]\"”]$")
# A line this long with runs of 5+ spaces inside is a flattened page: its runs are line breaks
# (a number before its title, "5.3    Waiver", is no break).
_FLAT_LINE = 200
_FLAT_BREAK = re.compile(r"\s{5,}")
_LABEL_ONLY = re.compile(r"^(?:(?:section|article|§)\s*)?[\dA-Za-z]{1,3}(?:\.\d{1,3})*\.?$", re.I)
_ART_ONLY = re.compile(r"^[-_=~*]{3,}$")
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
    pages: int | None
    named_head: list[str] | None = None
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
        base = len(raw_text) - len(text)
        if fmt == "text":
            lines, pages = text_lines(text, base)
            named_head = _named_head(text)
        else:
            lines, pages = tuple(_text_lines(text, base)), None
        meta_in = {**front, **sidecar}
        if not any(line.text for line in lines):
            raise BadDocument("no text content (only whitespace)")
    if "\\u0000" in canonical_json(meta_in):
        raise BadDocument("metadata holds a NUL character (\\u0000), which cannot be stored")
    meta = _from_text(build_meta(meta_in, path.name), lines, named_head)
    content_hash = sha256_hex(data, canonical_json(sidecar))
    dates = document_dates([ln.text for ln in lines])
    return ParsedDocument(
        path.name,
        fmt,
        meta,
        raw_text,
        lines,
        pages,
        content_hash,
        _effective(meta, dates.one),
        dates.agreement,
    )


def _from_text(
    meta: DocMeta, lines: tuple[Line, ...], named_head: list[str] | None = None
) -> DocMeta:
    """What the metadata leaves out and the text states near its start: the document's name
    as its title ("MARKETING AFFILIATE AGREEMENT"), and its parties as introduced.
    `named_head`: the first lines with a running header kept (see _named_head)."""
    head = [ln.text for ln in lines[:_HEAD_LINES] if ln.text]
    front = "\n".join(head)
    parties = () if "parties" in meta.extra else tuple(party_full_names(front))
    if "parties" not in meta.extra:
        parties = with_signatories(parties, "\n".join(ln.text for ln in lines if ln.text))
    # a party's short name in capitals without quotes: '... of America (MICOA)'
    acronyms = re.findall(r"(?<=\w)\s*,?\s*\(([A-Z][A-Z0-9&]{1,11})\)", front[:_NAME_FRONT])
    title = meta.title or document_name(
        named_head or head, [*parties, *party_names(front[:20000]), *acronyms]
    )
    return replace(meta, title=title, parties=parties)


_NAME_FRONT = 3_000  # where the parties are introduced, as document_name reads its title
_NAMED_HEAD = 60  # raw lines: the name stands within document_name's first few text lines


def _named_head(text: str) -> list[str]:
    """A plain text's first lines with only page marks, page numbers and filing banners
    dropped: a running header that repeats the document's name on every page ("HOSTING
    AGREEMENT") is page furniture for the body, and its first occurrence is the title. The
    lines of a hard-wrapped paragraph are joined: a wrap is no line of the document's own (a
    title cut "NON-" / "SOLICITATION AGREEMENT", a legend wrapped over the first lines)."""
    raws = text.split("\n")
    width = wrap_width(raws)
    out: list[str] = []
    full = False  # the line before was cut where the next word did not fit
    for raw in raws[:_NAMED_HEAD]:
        for piece in _unflatten(raw.replace("\f", " ")):
            t = normalize_line(piece)
            furniture = _PAGE_MARK.search(t) or _SOURCE_BANNER.match(t) or _PAGE_NUMBER.match(t)
            if not t or furniture:
                full = False
                continue
            if full and out:
                out[-1] = _rejoin(out[-1], t)
            else:
                out.append(t)
            full = width is not None and _wrapped(piece, width)
    return out


_WRAP_MAX = 100  # a text hard-wrapped wraps at most this wide (EDGAR: 60-80 columns)
_WRAP_SHARE = 0.3  # of its lines of text, this share or more runs near its measure


def wrap_width(raws: Sequence[str]) -> int | None:
    """The measure a plain text is hard-wrapped at (its widest line), or None when it is not
    (a line wider than any measure, or too few lines near the widest: lines that end where a
    paragraph or a heading ends)."""
    lengths = [len(r.expandtabs(8).rstrip()) for r in raws if r.strip()]
    if len(lengths) < 10 or max(lengths) > _WRAP_MAX:
        return None
    width = max(lengths)
    near = sum(1 for n in lengths if n >= width - 12)
    return width if near >= _WRAP_SHARE * len(lengths) else None


def _wrapped(raw: str, width: int) -> bool:
    """Whether a line of a text wrapped at `width` runs to its measure: cut only because the
    next word did not fit (a word of 12 letters would not)."""
    return len(raw.expandtabs(8).rstrip()) >= width - 12 and not _TERMINAL_END.search(raw)


_TERMINAL_END = re.compile(r"[.:;!?]\s*$")


def _rejoin(prev: str, nxt: str) -> str:
    """Two pieces of a wrapped line as one: a word cut at its hyphen ("NON-" / "SOLICITATION")
    keeps it, a word hyphenated to fit ("employ-" / "ees") loses it."""
    if prev.endswith("-") and nxt[:1].isupper():
        return prev + nxt
    return join_lines([prev, nxt])


def _effective(meta: DocMeta, stated: EffectiveDate | None) -> EffectiveDate | None:
    """The document's one effective date: declared in its metadata, else stated in its text."""
    if meta.effective_from:
        evidence = f"effective_from: {meta.effective_from.isoformat()}"
        return EffectiveDate(meta.effective_from, evidence, "day")
    return stated


def text_lines(text: str, base: int = 0) -> tuple[tuple[Line, ...], int | None]:
    """Lines of a plain-text document with its page furniture dropped.

    Form feeds and "[Page N]" footers end pages (lines get their page number when the text
    has any); page numbers, footers and running headers or banners that recur on every page
    are dropped, and a paragraph a page break interrupted is joined again. A flattened line
    (a whole page on one line, its line breaks turned into runs of spaces) is split back into
    its lines, dropping the underline art between them. `base` is where `text` starts in the
    raw text: each line keeps its offsets there."""
    # (raw line, page, its span, its indent)
    spans: list[tuple[str, int, tuple[int, int] | None, int | None]] = []
    page = 1
    marked = False  # a "[Page N]" footer just ended the page: its form feed is no new one
    pos = 0
    for raw in text.split("\n"):
        parts = raw.split("\f")
        at = pos
        for n, part in enumerate(parts):
            if n:
                page += 0 if marked else 1
                marked = False
                spans.append(("", page, None, None))  # a page break ends a paragraph
            cursor = at
            pieces = _unflatten(part)
            indent = _indent(part) if len(pieces) == 1 else None
            for piece in pieces:
                span = _locate(text, piece, cursor, at + len(part))
                spans.append((piece, page, span, indent))
                cursor = span[1] if span else cursor
            at += len(part) + 1
            if _PAGE_MARK.search(normalize_line(part)):
                page += 1
                marked = True
            elif part.strip():
                marked = False
        pos += len(raw) + 1
    paged = page > 1
    texts = [normalize_line(t) for t, _, _, _ in spans]
    drop = _furniture(texts)
    lines: list[Line] = []
    pending_break = False
    for (_, pg, span, indent), t, dropped in zip(spans, texts, drop, strict=True):
        if dropped:
            pending_break = True
            continue
        if pending_break and t:
            # A page break inside a sentence: the paragraph goes on across it.
            while lines and not lines[-1].text:
                lines.pop()
            prev = lines[-1].text if lines else ""
            if not prev or _TERMINAL_PUNCT.search(prev) or not t[0].islower():
                lines.append(Line("", pg if paged else None))
            pending_break = False
        start, end = (base + span[0], base + span[1]) if span else (None, None)
        shifts = space_shifts(text[span[0] : span[1]], t) if span else None
        lines.append(
            Line(t, pg if paged else None, start=start, end=end, indent=indent, shifts=shifts)
        )
    last = max((ln.page or 1 for ln in lines if ln.text), default=1)
    return tuple(lines), (last if paged else None)


def _indent(raw: str) -> int:
    """Columns of whitespace before a raw line's text (tabs to 8)."""
    wide = raw.expandtabs(8)
    return len(wide) - len(wide.lstrip())


def _locate(text: str, piece: str, lo: int, hi: int) -> tuple[int, int] | None:
    """Where a line's text lies in text[lo:hi], from its first to its last word (an unflattened
    line may join words that stood further apart)."""
    words = piece.split()
    if not words:
        return None
    start = text.find(words[0], lo, hi)
    if start < 0:
        return None
    # word after word, so a last word that also occurs earlier ("[*]. ... [*].") ends the
    # span where the line ends, not at its first occurrence (a word normalising changed is
    # passed over)
    end = start + len(words[0])
    for word in words[1:]:
        at = text.find(word, end, hi)
        end = at + len(word) if at >= 0 else end
    return start, end


def _unflatten(raw: str) -> list[str]:
    if len(raw) <= _FLAT_LINE or not _FLAT_BREAK.search(raw.strip()):
        return [raw]
    out: list[str] = []
    for part in _FLAT_BREAK.split(raw.strip()):
        if _ART_ONLY.match(part):
            continue
        if out and _LABEL_ONLY.match(out[-1]):
            out[-1] = f"{out[-1]} {part}"
            continue
        # a part that goes on a sentence is the next line of the same paragraph
        if out and out[-1] and not _TERMINAL_PUNCT.search(out[-1]) and part[:1].islower():
            out.append(part)
        else:
            out.extend(["", part] if out else [part])
    return out


def _furniture(texts: list[str]) -> list[bool]:
    """Which lines are page furniture: page marks and numbers standing alone, and short lines
    standing alone that recur (digits aside) all through the document."""
    n = len(texts)

    def alone(i: int) -> bool:
        return (i == 0 or not texts[i - 1]) and (i == n - 1 or not texts[i + 1])

    drop = [
        bool(t)
        and (
            bool(_PAGE_MARK.search(t))
            or bool(_SOURCE_BANNER.match(t))
            or (alone(i) and bool(_PAGE_NUMBER.match(t)))
        )
        for i, t in enumerate(texts)
    ]
    where: dict[str, list[int]] = {}
    for i, t in enumerate(texts):
        if t and not drop[i] and len(t) <= 100 and alone(i) and re.search(r"[A-Za-z]{2}", t):
            where.setdefault(re.sub(r"\d+", "#", t.lower()), []).append(i)
    for found in where.values():
        # recurring all through the document, about once a page (a page runs some 50-60
        # lines), not a block repeated in one place nor a party named in each signature block
        if len(found) >= max(3, n / 80) and found[-1] - found[0] >= n / 2:
            for i in found:
                drop[i] = True
    return drop


def _text_lines(text: str, base: int) -> list[Line]:
    """Lines of a text with their offsets (`base` = where `text` starts in the raw text)."""
    out = []
    pos = base
    for raw in text.splitlines(keepends=True):
        body = raw.rstrip("\n\v\f\x1c\x1d\x1e\x85\u2028\u2029")
        lead = len(body) - len(body.lstrip())
        stripped = body.strip()
        start = pos + lead
        line = normalize_line(body)
        end = start + len(stripped)
        shifts = space_shifts(stripped, line)
        out.append(Line(line, start=start, end=end, indent=_indent(body), shifts=shifts))
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
    """Validate metadata from front matter, sidecar or PDF info into a DocMeta.

    The doc_id is the metadata's, validated strictly, else read from the file name
    (identity.doc_id_from_name: any printable name gives a safe id; the name itself stays
    the document's source)."""
    _check_file_name(file_name)
    if "doc_id" in raw:
        doc_id = _explicit_doc_id(raw["doc_id"], "metadata")
    else:
        doc_id = validate_doc_id(doc_id_from_name(file_name), f"file name {file_name!r}")
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
        supersedes = _explicit_doc_id(supersedes, "supersedes")
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


def _check_file_name(file_name: str) -> None:
    """The name is kept as the document's source (text in Postgres, shown to users): refuse
    one that cannot be stored as text, rather than store a different name."""
    try:
        file_name.encode("utf-8")
    except UnicodeEncodeError as exc:  # bytes that are not UTF-8, read as lone surrogates
        raise BadDocument(
            "the file name is not UTF-8 text (a name from another system's encoding?): "
            "rename the file, e.g. with convmv"
        ) from exc
    if "\x00" in file_name:
        raise BadDocument("the file name holds a NUL character")


def _explicit_doc_id(value: object, source: str) -> str:
    """An id the metadata gives: safe as written or refused (never read into shape as a file
    name is), with the id that a file of that name would have as a hint."""
    try:
        return validate_doc_id(value, source)
    except BadDocument as exc:
        if isinstance(value, str) and value.strip() and not {"/", "\\"} & set(value):
            hint = f"; a file named {value!r} has doc_id {doc_id_from_name(value)!r}"
            raise BadDocument(f"{exc}{hint}") from exc
        raise


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
                # A gap of 0.15 em between letters is a space: the default (3 points) joins
                # whole lines of tightly set PDFs into one word ("Thisisversion0.21").
                page_lines = page.extract_text_lines(return_chars=True, x_tolerance_ratio=0.15)
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
    running = running_lines(lines)
    lines = [ln for ln in lines if not _PAGE_FOOTER.match(ln.text) and ln not in running]
    if not any(ln.text for ln in lines):
        raise BadDocument("PDF has no extractable text (a scanned image? run OCR first)")
    title = info.get("Title")
    meta = {"title": title} if isinstance(title, str) and title.strip() else {}
    return "\f".join(raw_pages), tuple(lines), page_count, meta


def running_lines(lines: Sequence[Line], edge: int = 2) -> set[Line]:
    """A PDF's running headers and footers: among the first and last `edge` lines of each
    page, those with words that recur there (digits aside, spacing aside: extraction may drop
    the spaces of a tightly set header) on three pages or more, or on both pages of two when
    set smaller than the body. A chapter's own header ("Chapter 4: Function reference 9")
    recurs only over its pages, so no share of all pages is asked. Left in, each would open a
    section at every page break and cut the section running across it. The first page keeps
    those set in the body's size or larger: a title page's heading may read the same as the
    running header ("HOSTING AGREEMENT"); a legend in small type ("Confidential") is furniture
    there too."""
    pages: dict[int, list[Line]] = {}
    sizes: Counter[float] = Counter()
    for ln in lines:
        if ln.text:
            pages.setdefault(ln.page or 0, []).append(ln)
            sizes[ln.size or 0.0] += len(ln.text)
    if len(pages) < 2:
        return set()
    body = sizes.most_common(1)[0][0]

    def key(text: str) -> str:
        return re.sub(r"\s+", "", re.sub(r"\d+", "#", text.lower()))

    def small(ln: Line) -> bool:
        return bool(body and ln.size and ln.size < body)

    edges = {page: {*ls[:edge], *ls[-edge:]} for page, ls in pages.items()}
    seen: dict[str, set[int]] = {}
    large: set[str] = set()  # keys set in the body's size or larger somewhere
    for page, edge_lines in edges.items():
        for ln in edge_lines:
            seen.setdefault(key(ln.text), set()).add(page)
            if not small(ln):
                large.add(key(ln.text))
    needed = 3 if len(pages) > 2 else 2
    recurring = {
        k
        for k, on in seen.items()
        if len(on) >= needed and re.search(r"[a-z]{2}", k) and (needed == 3 or k not in large)
    }
    first = min(pages)
    return {
        ln
        for page, edge_lines in edges.items()
        for ln in edge_lines
        if key(ln.text) in recurring and (page != first or small(ln))
    }


def _pdf_line(item: dict[str, Any], page: int, offset: int) -> Line:
    chars = [c for c in item.get("chars", []) if c.get("text", "").strip()]
    sizes = Counter(round(float(c.get("size", 0)), 1) for c in chars)
    size = sizes.most_common(1)[0][0] if sizes else None
    bold = bool(chars) and all("bold" in str(c.get("fontname", "")).lower() for c in chars)
    raw = item["text"]
    start = offset + len(raw) - len(raw.lstrip())
    text = normalize_line(raw)
    stripped = raw.strip()
    return Line(
        text, page, size, bold, start, start + len(stripped), None, space_shifts(stripped, text)
    )
