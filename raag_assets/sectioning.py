"""Deterministic section trees from layout lines.

Headings are recognised by numbering (1 / 1.1 / 1.1.1, "Section 4", "Article IV", "§ 3",
"Exhibit A"), by Markdown syntax, by underlines, by short title lines standing alone, and in
PDFs by font size or weight. A bare number only starts a section when it continues the
numbering so far (1.2 after 1.1, 2 after 1.14), so numbered lists inside a section and a
wrapped "section\\n7." stay body text.
"""

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from raag_assets.identity import section_id
from raag_assets.normalize import join_lines, join_lines_mapped
from raag_assets.parsing import Line

SECTIONER_VERSION = "1"
FRONT_LABEL = "Front matter"
BODY_LABEL = "Body"

_ATX = re.compile(r"^(#{1,6})\s+(.+?)(?:\s+#+)?$")
_UNDERLINE = re.compile(r"^(?:-{3,}|={3,}|~{3,})$")
_BOX_EDGE = re.compile(r"^\*{3,}$")
_BOX_INNER = re.compile(r"^\*\s?(.*?)\s?\*$")
_FENCE = re.compile(r"^(```|~~~)")
_SECTION = re.compile(
    r"^(?:section|sect\.|§§?)\s*(\d{1,3}(?:\.\d{1,3})*[a-z]?)(\s*[.:)\-–—]|\s*$)?\s*(.*)$",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^article\s+([ivxlcdm]+|\d{1,3})\b\.?\s*[-–—:.]?\s*(.*)$", re.IGNORECASE)
_APPENDIX = re.compile(
    r"^(exhibit|appendix|annex|schedule)\s+([A-Z]|\d{1,2})\b\.?\s*[-–—:.]?\s*(.*)$", re.IGNORECASE
)
_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})*)(\.?)\s+(\S.*)$")
_TERMINAL = re.compile(r"[.,;:!?]$")
_RUN_IN = re.compile(r"^([^.]{3,60})\.\s+\S")
_SMALL_WORDS = {
    "a",
    "an",
    "and",
    "as",
    "at",
    "by",
    "for",
    "from",
    "in",
    "of",
    "on",
    "or",
    "the",
    "to",
    "with",
    "under",
    "into",
    "this",
    "that",
    "these",
    "your",
    "its",
}

# A paragraph at most this long may be a heading wrapped over lines.
_HEADING_MAX_LINES = 2
_HEADING_MAX_CHARS = 120


@dataclass(frozen=True)
class Section:
    section_id: str
    doc_id: str
    ordinal: int
    label: str
    heading: str
    level: int
    parent_id: str | None
    text: str
    page_start: int | None
    page_end: int | None
    # Where the section (heading to last line) lies in the document's raw text, and for each
    # character of `text` its raw offset (-1 unknown): see parsing.Line.
    char_start: int | None = None
    char_end: int | None = None
    offsets: tuple[int, ...] = ()


@dataclass
class _Heading:
    line: int  # index of the heading line
    label: str
    heading: str
    level: int
    body_from: int  # first line index of the body
    lead: str = ""  # text of the heading line that also belongs to the body


@dataclass(frozen=True)
class _Numbering:
    label: str
    rest: str
    level: int
    explicit: bool  # "Section 4", "Article IV": the keyword itself says it is a heading
    key: tuple[int, ...] | None  # numeric path, for the numbering-continuity check


def build_sections(doc_id: str, lines: Sequence[Line], fmt: str) -> list[Section]:
    """Split a document's lines into an ordered section tree with stable ids."""
    clean, underlined = _clean(lines, fmt)
    headings = _find_headings(clean, underlined, fmt)
    return _assemble(doc_id, clean, headings)


def _clean(lines: Sequence[Line], fmt: str) -> tuple[list[Line], set[int]]:
    """Strip box art, turn underlines into a mark on the line above."""
    out: list[Line] = []
    underlined: set[int] = set()
    in_fence = False
    for line in lines:
        text = line.text
        if fmt == "markdown" and _FENCE.match(text):
            in_fence = not in_fence
        if not in_fence:
            if _BOX_EDGE.match(text):
                text = ""
            elif (inner := _BOX_INNER.match(text)) and len(text) > 2:
                text = inner.group(1).strip()
            if _UNDERLINE.match(text) and out and out[-1].text:
                underlined.add(len(out) - 1)
                continue
        out.append(Line(text, line.page, line.size, line.bold, line.start, line.end))
    return out, underlined


def _find_headings(lines: list[Line], underlined: set[int], fmt: str) -> list[_Heading]:
    body_size = _body_font_size(lines) if fmt == "pdf" else None
    heading_sizes = _heading_sizes(lines, body_size) if body_size else []
    headings: list[_Heading] = []
    last_key: tuple[int, ...] | None = None
    in_fence = False
    i = 0
    while i < len(lines):
        text = lines[i].text
        if fmt == "markdown" and _FENCE.match(text):
            in_fence = not in_fence
        if in_fence or not text:
            i += 1
            continue
        head: _Heading | None = None
        if fmt == "markdown":
            head = _markdown_heading(lines, i, underlined)
        else:
            para_start = i == 0 or not lines[i - 1].text
            emphasised = _emphasised(lines[i], body_size)
            if emphasised or para_start or i in underlined:
                head = _text_heading(lines, i, underlined, last_key, emphasised, heading_sizes)
        if head is None:
            i += 1
            continue
        numbering = None if fmt == "markdown" else _numbering(text, markdown=fmt == "pdf")
        if numbering and numbering.key is not None:
            last_key = numbering.key
        headings.append(head)
        i = head.body_from
    return headings


def _markdown_heading(lines: list[Line], i: int, underlined: set[int]) -> _Heading | None:
    text = lines[i].text
    if match := _ATX.match(text):
        level, title = len(match.group(1)), match.group(2).strip()
    elif i in underlined and len(text) <= _HEADING_MAX_CHARS:
        level, title = 1, text
    else:
        return None
    label, heading = _label_and_heading(title, markdown=True)
    return _Heading(i, label, heading, level, i + 1)


def _text_heading(
    lines: list[Line],
    i: int,
    underlined: set[int],
    last_key: tuple[int, ...] | None,
    emphasised: bool,
    heading_sizes: list[float],
) -> _Heading | None:
    text = lines[i].text
    para = _paragraph(lines, i)
    para_text = join_lines([ln.text for ln in para])
    short = i in underlined or _is_heading_block(para, para_text)
    # A font-marked heading is numbered like a Markdown one ("1 Scope", no dot needed).
    numbering = _numbering(text, markdown=emphasised)
    if numbering:
        continues = numbering.key is None or _continues(numbering.key, last_key)
        if not (numbering.explicit or continues or emphasised):
            return None
        if emphasised:  # the font marks exactly one line as the heading
            heading = _tidy(numbering.rest) or numbering.label
            return _Heading(i, numbering.label, heading, numbering.level, i + 1)
        if short:
            heading = _numbering(para_text, markdown=False)
            rest = heading.rest if heading else numbering.rest
            return _Heading(i, numbering.label, _tidy(rest), numbering.level, i + len(para))
        if numbering.explicit and not numbering.rest:
            return None
        # A numbered paragraph: the number labels it; a run-in title ("Grant of Copyright
        # License. Subject to ...") or else its first line names it.
        run_in = _RUN_IN.match(numbering.rest)
        title = run_in.group(1) if run_in and _is_title(run_in.group(1)) else numbering.rest
        return _Heading(
            i, numbering.label, _tidy(title), numbering.level, i + 1, lead=numbering.rest
        )
    if emphasised and len(text) <= _HEADING_MAX_CHARS and not text.endswith((",", ";")):
        size = lines[i].size
        level = heading_sizes.index(size) + 1 if size in heading_sizes else len(heading_sizes) + 1
        return _Heading(i, _tidy(text), _tidy(text), level, i + 1)
    if (i in underlined or (len(para) == 1 and _is_title(text))) and len(text) <= 100:
        return _Heading(i, _tidy(text), _tidy(text), 1, i + 1)
    return None


def _numbering(text: str, markdown: bool) -> _Numbering | None:
    if m := _SECTION.match(text):
        number, sep, rest = m.group(1), m.group(2), m.group(3).strip()
        if sep is None and rest and not _is_title(rest):
            return None  # "Section 4 applies to ..." is a sentence, not a heading
        key = tuple(int(p) for p in re.findall(r"\d+", number))
        return _Numbering(number, rest, len(key), True, None)
    if m := _ARTICLE.match(text):
        return _Numbering(f"Article {m.group(1).upper()}", m.group(2).strip(), 1, True, None)
    if m := _APPENDIX.match(text):
        label = f"{m.group(1).capitalize()} {m.group(2).upper()}"
        return _Numbering(label, m.group(3).strip(), 1, True, None)
    if m := _NUMBER.match(text):
        number, dot, rest = m.groups()
        key = tuple(int(p) for p in number.split("."))
        if not (markdown or dot or len(key) > 1):
            return None  # "2013 was a good year" is not section 2013
        return _Numbering(number, rest.strip(), len(key), False, key)
    return None


def _label_and_heading(title: str, markdown: bool) -> tuple[str, str]:
    numbering = _numbering(title, markdown=markdown)
    if numbering and numbering.rest:
        return numbering.label, _tidy(numbering.rest)
    if numbering:
        return numbering.label, numbering.label
    return _tidy(title), _tidy(title)


def _continues(key: tuple[int, ...], last: tuple[int, ...] | None) -> bool:
    """Whether `key` plausibly follows `last`: a first child, or a next sibling at any depth
    (one gap allowed)."""
    if last is None:
        return True
    if key[:-1] == last and key[-1] in (0, 1):
        return True
    for depth in range(1, len(last) + 1):
        prefix = last[:depth]
        if key[:-1] == prefix[:-1] and len(key) == depth and 1 <= key[-1] - prefix[-1] <= 2:
            return True
    return False


def _is_heading_block(para: list[Line], para_text: str) -> bool:
    """A paragraph that is all heading: one line, or a title wrapped over two lines (the
    second capitalised, no full stop), as opposed to a short numbered sentence."""
    if len(para) == 1:
        return len(para_text) <= _HEADING_MAX_CHARS
    return (
        len(para) <= _HEADING_MAX_LINES
        and len(para_text) <= _HEADING_MAX_CHARS
        and not para[1].text[0].islower()
        and not _TERMINAL.search(para_text)
    )


def _paragraph(lines: list[Line], i: int) -> list[Line]:
    out = []
    while i < len(lines) and lines[i].text:
        out.append(lines[i])
        i += 1
    return out


def _is_title(text: str) -> bool:
    """A short line in Title Case or CAPITALS, not ending like a sentence."""
    if len(text) > 70 or _TERMINAL.search(text) or not text[0].isupper():
        return False
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", text)]
    if not words or len(words) > 10:
        return False
    significant = [w for w in words if w.lower() not in _SMALL_WORDS]
    capitalised = [w for w in significant if w[0].isupper()]
    return len(capitalised) >= max(1, 0.75 * len(significant))


def _tidy(text: str) -> str:
    text = text.strip().strip("*_").strip()
    return text[:-1].rstrip() if text.endswith(".") and not text.endswith("..") else text


def _body_font_size(lines: list[Line]) -> float | None:
    sizes: Counter[float] = Counter()
    for line in lines:
        if line.size:
            sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else None


def _emphasised(line: Line, body_size: float | None) -> bool:
    if body_size is None or not line.size or not re.search(r"[A-Za-z]", line.text):
        return False
    return line.size >= body_size * 1.12 or (line.bold and len(line.text) <= 100)


def _heading_sizes(lines: list[Line], body_size: float) -> list[float]:
    return sorted(
        {ln.size for ln in lines if ln.size and ln.size >= body_size * 1.12}, reverse=True
    )


def _assemble(doc_id: str, lines: list[Line], headings: list[_Heading]) -> list[Section]:
    blocks: list[tuple[str, str, int, list[Line], str, int | None, list[Line]]] = []
    first = headings[0].line if headings else len(lines)
    front = [ln for ln in lines[:first] if ln.text]
    if front:
        label = FRONT_LABEL if headings else BODY_LABEL
        blocks.append(
            (label, front[0].text[:100], 1, lines[:first], "", front[0].page, lines[:first])
        )
    for n, head in enumerate(headings):
        end = headings[n + 1].line if n + 1 < len(headings) else len(lines)
        page = lines[head.line].page
        blocks.append(
            (
                head.label,
                head.heading,
                head.level,
                lines[head.body_from : end],
                head.lead,
                page,
                lines[head.line : end],
            )
        )

    sections: list[Section] = []
    seen: Counter[str] = Counter()
    stack: list[tuple[int, str]] = []
    for ordinal, (label, heading, level, body, lead, page, whole) in enumerate(blocks):
        sid = section_id(doc_id, label, seen[label])
        seen[label] += 1
        while stack and stack[-1][0] >= level:
            stack.pop()
        parent = stack[-1][1] if stack else None
        stack.append((level, sid))
        pages = [ln.page for ln in body if ln.page is not None and ln.text]
        located = [ln for ln in whole if ln.text and ln.start is not None]
        lead_line = whole[0] if lead and whole else None
        text, offsets = _body_text_mapped(lead, lead_line, body)
        sections.append(
            Section(
                section_id=sid,
                doc_id=doc_id,
                ordinal=ordinal,
                label=label,
                heading=heading,
                level=level,
                parent_id=parent,
                text=text,
                page_start=page,
                page_end=max([p for p in (page, *pages) if p is not None], default=None),
                char_start=located[0].start if located else None,
                char_end=max((ln.end or 0) for ln in located) if located else None,
                offsets=tuple(offsets),
            )
        )
    return sections


def _body_text_mapped(lead: str, lead_line: Line | None, body: list[Line]) -> tuple[str, list[int]]:
    """The section's text (paragraphs joined by blank lines) and each character's raw offset.
    The lead is the end of the heading line, so it maps onto that line's last characters."""
    Item = tuple[str, int | None, int | None]
    first: list[Item] = []
    if lead:
        end = lead_line.end if lead_line else None
        first = [(lead, None if end is None else end - len(lead), end)]
    paragraphs: list[list[Item]] = [first]
    for line in body:
        if line.text:
            paragraphs[-1].append((line.text, line.start, line.end))
        elif paragraphs[-1]:
            paragraphs.append([])
    text, where = "", []
    for para in (p for p in paragraphs if p):
        joined, offsets = join_lines_mapped(para)
        if text:
            text += "\n\n"
            where += [where[-1] + 1 if where and where[-1] >= 0 else -1] * 2
        text += joined
        where += offsets
    return text, where
