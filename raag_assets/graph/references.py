"""Finding references in text and resolving them to sections and documents.

A reference is a citation of one or more section labels ("see Section 4.2", "Sections 15 and
16", "subsection 6b", "Section 4.1 of the Leave Policy"), or of a whole document by name
("per the HR Handbook"). Resolution looks in the citing document first, then across the
tenant's documents by name (fuzzy, rapidfuzz).
"""

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from raag_assets.graph.model import DocInfo, SectionInfo

KEYWORDS = {
    "section": "Section",
    "sections": "Section",
    "sect.": "Section",
    "§": "Section",
    "§§": "Section",
    "subsection": "Section",
    "subsections": "Section",
    "clause": "Clause",
    "clauses": "Clause",
    "article": "Article",
    "articles": "Article",
    "paragraph": "Paragraph",
    "paragraphs": "Paragraph",
}
_OCR_KEYWORDS = ("section", "sections", "subsection", "clause", "clauses", "article", "paragraph")
_LABEL = r"(?:\d{1,3}(?:\.\d{1,3})*(?:[a-z](?![a-z]))?(?:\([a-z0-9]{1,4}\))*|[IVXLC]{1,6}\b)"
_JOIN = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*(?:through|to|-|–)\s*)"
# Words a document name is made of: capitalised words, with small words inside.
_CAP_WORD = r"[A-Z][A-Za-z0-9'’-]*(?:\.[A-Za-z0-9]+)*"
_NAME_WORD = rf"(?:{_CAP_WORD}|of|and|for|on|to|the|&)"
DOC_NAME = (
    rf"{_CAP_WORD}(?:\s+{_NAME_WORD}){{0,7}}(?:\s+\((?:Rev\.?|Revision|Version|v)\s*[\w.]+\))?"
)
_OF_DOC = (
    r"(?:\s+of\s+(?:(?P<self>this\s+(?:License|Licence|Agreement|Policy|Amendment|document|"
    rf"Handbook|Guideline|Guide|Contract))|the\s+(?P<name>{DOC_NAME})))?"
)
_SECTION_REF = re.compile(
    rf"(?P<kw>\b[Ss]ections?\b|\b[Ss]ect\.|§§?|\b[Ss]ubsections?\b|\b[Cc]lauses?\b|"
    rf"\b[Aa]rticles?\b|\b[Pp]aragraphs?\b)\s*(?P<labels>{_LABEL}(?:{_JOIN}{_LABEL})*)"
    rf"{_OF_DOC}"
)
_OCR_TOKEN = re.compile(r"\b(?P<kw>[A-Za-z0-9][A-Za-z0-9]{4,10})(?=\s+\d)")
# Nouns a document title ends with: what makes "the HR Handbook" a document name.
DOC_NOUNS = {
    "policy",
    "handbook",
    "agreement",
    "license",
    "licence",
    "guideline",
    "guidelines",
    "guide",
    "manual",
    "procedure",
    "procedures",
    "contract",
    "amendment",
    "standard",
    "plan",
    "code",
    "regulation",
    "regulations",
    "charter",
}
_DOC_REF = re.compile(
    r"\b(?P<cue>per|under|see|in\s+accord(?:ance)?\s+with|as\s+(?:described|set\s+out|defined|"
    r"specified|provided|recorded|explained)\s+in|pursuant\s+to|according\s+to|in|of)"
    rf"\s+the\s+(?P<name>{DOC_NAME})"
)
_NAMED_SECTION = re.compile(
    r"\bthe\s+(?:section|clause|part)\s+(?:on|about|entitled|titled|headed|called)\s+"
    r"[“\"]?(?P<title>[^“”\".,;:()]{3,80}?)[”\"]?(?=\s+(?:in|of)\s+the\s+|[.,;:)]|$)"
    rf"(?:\s+(?:in|of)\s+the\s+(?P<name>{DOC_NAME}))?"
)


@dataclass(frozen=True)
class Mention:
    """A reference as written, before resolution."""

    start: int
    end: int
    text: str  # matched text, corrected if the keyword was OCR-damaged
    kind: str  # "labels" | "document" | "named_section"
    labels: tuple[str, ...] = ()
    doc_name: str | None = None  # a named document, or None for "this document"
    title: str | None = None  # the heading a named-section reference gives
    raw: str | None = None  # the text as written when `text` was corrected


def correct_ocr(text: str) -> tuple[str, dict[int, str]]:
    """Repair OCR-damaged section keywords ("Secti0n 4.2" -> "Section 4.2"): same length,
    one edit away, same first letter. Returns the text and the raw tokens by offset."""
    raw: dict[int, str] = {}
    out = text
    for m in _OCR_TOKEN.finditer(text):
        token = m.group("kw")
        lower = token.lower()
        if lower in KEYWORDS:
            continue
        for keyword in _OCR_KEYWORDS:
            if (
                len(lower) == len(keyword)
                and lower[0] in (keyword[0], "5" if keyword[0] == "s" else keyword[0])
                and OSA.distance(lower, keyword) == 1
            ):
                fixed = keyword.capitalize() if token[0].isupper() or token[0] == "5" else keyword
                out = out[: m.start()] + fixed + out[m.end() :]
                raw[m.start()] = token
                break
    return out, raw


def expand_labels(labels_text: str) -> tuple[str, ...]:
    """'15 and 16' -> (15, 16); '2 through 4' -> (2, 3, 4); '1.1, 1.2' -> (1.1, 1.2)."""
    parts = re.split(
        r"(\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*(?:through|to|-|–)\s*)", labels_text
    )
    labels: list[str] = []
    pending_range = False
    for part in parts:
        token = part.strip()
        if not token:
            continue
        if token in ("through", "to", "-", "–"):
            pending_range = True
            continue
        if re.fullmatch(r",?\s*(and|or)?", token):
            continue
        if pending_range and labels and labels[-1].isdigit() and token.isdigit():
            labels.extend(str(n) for n in range(int(labels[-1]) + 1, int(token) + 1))
        else:
            labels.append(token)
        pending_range = False
    return tuple(dict.fromkeys(labels))


def find_mentions(text: str) -> list[Mention]:
    """Every reference in a section's text, in order of position."""
    fixed, raw = correct_ocr(text)
    mentions: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for m in _SECTION_REF.finditer(fixed):
        kw = m.group("kw").lower()
        labels = expand_labels(m.group("labels"))
        if KEYWORDS.get(kw) == "Article":
            labels = tuple(f"Article {lb}" if not lb[0].isdigit() else lb for lb in labels)
        name = m.group("name")
        if name:
            # "Section 11 of the WIPO ..." cites another document even if we cannot name it
            # well: it must not resolve into the citing one.
            name = clean_name(name)
            end = m.start("name") + len(name)
        else:
            name = None
            end = m.end("self") if m.group("self") else m.end("labels")
        raw_kw = raw.get(m.start())
        mentions.append(
            Mention(
                m.start(),
                end,
                fixed[m.start() : end],
                "labels",
                labels,
                doc_name=name,
                raw=(raw_kw + fixed[m.start() + len(m.group("kw")) : end]) if raw_kw else None,
            )
        )
        taken.append((m.start(), end))
    for m in _NAMED_SECTION.finditer(fixed):
        if _overlaps(m.start(), m.end(), taken):
            continue
        name = m.group("name")
        mentions.append(
            Mention(
                m.start(),
                m.end(),
                m.group(0),
                "named_section",
                title=m.group("title").strip(),
                doc_name=clean_name(name) if name and is_doc_name(name) else None,
            )
        )
        taken.append((m.start(), m.end()))
    for m in _DOC_REF.finditer(fixed):
        name = clean_name(m.group("name"))
        end = m.start("name") + len(name)
        if _overlaps(m.start(), end, taken) or not is_doc_name(name):
            continue
        if _acronym(name) and re.match(r"\s+[a-z]", fixed[end:]):
            continue  # "the HR system": an acronym modifying a common noun
            continue
        # starts at "the <name>", so the cue ("in accordance with") reads as context before it
        start = m.start("name") - len("the ")
        mentions.append(Mention(start, end, fixed[m.start() : end], "document", doc_name=name))
    mentions.sort(key=lambda x: (x.start, x.end))
    return mentions


def _overlaps(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(start < b and a < end for a, b in spans)


_SMALL = {"of", "and", "for", "on", "to", "the", "&"}


def clean_name(name: str) -> str:
    """The longest prefix of `name` that ends with a document noun (or a revision note):
    "HR Processes Handbook Leave" -> "HR Processes Handbook"."""
    name = name.strip().rstrip(".’'")
    words = name.split()
    for end in range(len(words), 0, -1):
        last = words[end - 1]
        if last.lower().strip(".") in DOC_NOUNS or last.endswith(")") or _acronym(last):
            return " ".join(words[:end])
    return name


def _acronym(word: str) -> bool:
    return 2 <= len(word) <= 6 and word.isupper() and word.isalpha()


def is_doc_name(name: str) -> bool:
    """A document's name ends with a document noun ("HR Handbook") or is an acronym ("GNU
    GPL"), and has a word that is not a document noun ("the License" alone names nothing)."""
    words = re.sub(r"\s*\([^)]*\)$", "", clean_name(name)).split()
    if not words or len(words) > 8:
        return False
    last = words[-1].strip(".")
    specific = [w for w in words if w.lower() not in DOC_NOUNS and w.lower() not in _SMALL]
    return (last.lower() in DOC_NOUNS or _acronym(last)) and bool(specific)


# --- resolution -------------------------------------------------------------------------


def _norm(text: str) -> str:
    text = re.sub(r"[()\[\],.:;'’\"“”]", " ", text.lower().replace("-", " "))
    words = [w for w in text.split() if w not in ("the", "a", "an")]
    return " ".join(words)


def _aliases(doc: DocInfo) -> set[str]:
    """Names a document may be cited by: its title (with and without a revision note), its
    doc_id, and each run of title words abbreviated to initials ("GNU GPL")."""
    names = {doc.doc_id}
    if doc.title:
        names |= {doc.title, re.sub(r"\s*\([^)]*\)\s*$", "", doc.title)}
    out = {_norm(n) for n in names if n}
    for alias in list(out):
        words = alias.split()
        for i in range(len(words)):
            for j in range(i + 2, min(len(words), i + 5) + 1):
                out.add(" ".join([*words[:i], "".join(w[0] for w in words[i:j]), *words[j:]]))
    return {a for a in out if a}


class Corpus:
    """A tenant's documents and sections, indexed for resolving references."""

    def __init__(
        self,
        docs: Sequence[DocInfo],
        sections: Sequence[SectionInfo],
        superseded: set[str] | frozenset[str] = frozenset(),
    ):
        self.docs = {d.doc_id: d for d in docs}
        self.sections = list(sections)
        self.by_id = {s.section_id: s for s in sections}
        self.by_doc: dict[str, list[SectionInfo]] = {}
        for s in sections:
            self.by_doc.setdefault(s.doc_id, []).append(s)
        self.labels: dict[str, dict[str, SectionInfo]] = {
            doc_id: {s.label.casefold(): s for s in reversed(secs)}
            for doc_id, secs in self.by_doc.items()
        }
        self.superseded = set(superseded)
        self.aliases = {doc_id: _aliases(d) for doc_id, d in self.docs.items()}

    def find_doc(self, name: str) -> tuple[str | None, float]:
        """The tenant document a name cites, with a confidence; (None, 0) if none does.

        Exact alias beats fuzzy; among equals a document not superseded by another wins,
        then the most recent, then doc_id order.
        """
        wanted = _norm(name)
        revision = re.search(r"\((?:rev\.?|revision|version|v)\s*([\w.]+)\)", name, re.I)
        scored: list[tuple[float, str]] = []
        for doc_id, aliases in self.aliases.items():
            if wanted in aliases:
                score = 1.0
            else:
                best = max(
                    (fuzz.token_set_ratio(wanted, a) if _covers(a, wanted) else 0) for a in aliases
                )
                # a one-word name ("HR", "GPL") is too vague to match anything but an alias
                score = best / 100 * 0.95 if best >= 90 and " " in wanted else 0.0
            if score and revision:
                title = self.docs[doc_id].title or doc_id
                if re.search(rf"\b{re.escape(revision.group(1))}\b", title, re.I) is None:
                    score *= 0.5
            if score:
                scored.append((score, doc_id))
        if not scored:
            return None, 0.0
        top = max(s for s, _ in scored)
        tied = [doc_id for s, doc_id in scored if s == top]
        tied.sort(
            key=lambda d: (
                d in self.superseded,
                -(self.docs[d].effective_from.toordinal() if self.docs[d].effective_from else 0),
                d,
            )
        )
        return tied[0], top

    def find_label(self, doc_id: str, label: str) -> tuple[SectionInfo | None, float]:
        """A section by its label; "6b" or "4(a)" fall back to "6" / "4" (lower confidence)."""
        labels = self.labels.get(doc_id, {})
        key = label.casefold()
        if key in labels:
            return labels[key], 1.0
        trimmed = key
        while True:
            shorter = re.sub(r"(\([a-z0-9]+\)|[a-z])$", "", trimmed)
            if shorter == trimmed or not shorter:
                return None, 0.0
            trimmed = shorter
            if trimmed in labels:
                return labels[trimmed], 0.85

    def find_heading(self, doc_id: str | None, title: str) -> tuple[SectionInfo | None, float]:
        """A section by its heading, tolerating misspellings (rapidfuzz, >= 85)."""
        pool = self.by_doc.get(doc_id, []) if doc_id else self.sections
        best: tuple[float, int, SectionInfo] | None = None
        for s in pool:
            score = fuzz.ratio(_norm(title), _norm(s.heading))
            if score >= 85 and (best is None or (score, -s.ordinal) > (best[0], best[1])):
                best = (score, -s.ordinal, s)
        return (best[2], best[0] / 100) if best else (None, 0.0)


def _covers(alias: str, name: str) -> bool:
    """A fuzzy match must find every specific word of the name in the alias: "HR Handbook"
    fits "hr processes handbook", "GNU Affero GPL" does not fit "gnu gpl"."""
    wanted = set(name.split()) - DOC_NOUNS
    return bool(wanted) and wanted <= set(alias.split())


def iter_sentences(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence: split after . ! ? ; followed by space and a capital."""
    start = 0
    for m in re.finditer(r"(?<=[.!?])\s+(?=[A-Z“\"(])|\n\s*\n", text):
        yield start, m.start()
        start = m.end()
    yield start, len(text)
