"""How people name a document in a question, beyond its words: a version ("GPLv2", "GPL-2.0",
"version 2 of the GPL", "LGPL 2.1", "Apache License, Version 2.0"), an ordinal ("Amendment
No. 2", "the Second Amendment", "2nd amendment"), an acronym of its title ("MPL" for the
Mozilla Public License). Pure functions over strings; query.py resolves with them.
"""

import re
from collections.abc import Callable, Collection

from raag_assets.graph import documents
from raag_assets.graph.documents import version_of
from raag_assets.graph.lexicon import MONTH, ORDINAL_WORDS

Version = tuple[int, ...]

# Words before a number that make it a part of a document, not a version of its name.
_PART = (
    r"sections?|clauses?|articles?|paragraphs?|§|schedules?|exhibits?|exh?|annex(?:es)?|parts?"
    r"|chapters?|pages?|items?|steps?|rules?|appendix|appendices|days?|years?|months?|weeks?"
    r"|hours?|percent|no|number"
)
_NUMBER = r"\d{1,2}(?:\.\d{1,2}){0,2}"
# "version 2", "Version 2.0", "ver. 3", "v3", "GPLv2" (v run into the name)
_VERSION_WORD = re.compile(rf"\b(?:version|ver\.?|v\.?)\s*(?P<v>{_NUMBER})\b", re.IGNORECASE)
# "revision A", "Rev. B", "rev 2": a revision, its letter counted (A = 1)
_REVISION = re.compile(
    r"\b(?:revision|rev)\.?[\s-]*(?P<r>[A-Z]|\d{1,2})\b(?![.-]?\w)", re.IGNORECASE
)
_RUN_IN_V = re.compile(rf"(?<=[A-Za-z])v(?P<v>{_NUMBER})\b")
# "GPL-2.0", "LGPL 2.1", "Apache 2.0", "MPL 1.1": a name then a number (query_versions takes
# a name in small letters only when documents are named by it); not "Section 2.1" or "30 days"
_NAME_NUMBER = re.compile(
    rf"\b(?P<name>[A-Za-z]+)[ -](?P<v>{_NUMBER})\b(?![.,]?\d)(?!\s*(?:%|percent|days?))"
)
_PART_WORD = re.compile(rf"^(?:{_PART})$", re.IGNORECASE)

_ORDINAL = re.compile(
    r"\b(?:(?P<word>" + "|".join(ORDINAL_WORDS) + r")"
    r"|(?P<nth>\d{1,2})(?:st|nd|rd|th)"
    r"|(?:no\.?|number|#)\s*(?P<no>\d{1,2}))\b",
    re.IGNORECASE,
)
_MONTH = re.compile(MONTH, re.IGNORECASE)
TITLE_CHARS = 120  # a title longer than this is a first line that runs on
_TITLE_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
SMALL = {"of", "the", "and", "for", "to", "a", "an", "on", "in", "or", "by"}


def version_key(text: str) -> Version:
    """'2.0' -> (2,), '2.1' -> (2, 1): trailing zeros do not make another version."""
    return trimmed(documents.version_key(text))


def trimmed(parts: Version) -> Version:
    """(2, 0) -> (2,): a version without its trailing zeros."""
    out = list(parts)
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return tuple(out)


def query_versions(
    query: str,
    name_words: Collection[str] = (),
    held: Callable[[str, Version], bool] | None = None,
) -> set[Version]:
    """The versions a query names: 'under GPLv2' -> {(2,)}, 'LGPL 2.1' -> {(2, 1)}; 'section
    2.1 of the Agreement' names none. A name in small letters before a number counts when it
    is one of `name_words` (words of the documents' own names: 'with git 2.36'). `held`: where
    given, a name and number count only when it holds them (a document of that version has
    the name in its own: 'Apache License 2.0', not a gene's 'GATA-3')."""
    found = {version_key(m.group("v")) for m in _VERSION_WORD.finditer(query)}
    found |= {version_key(m.group("v")) for m in _RUN_IN_V.finditer(query)}
    found |= {_revision(m.group("r")) for m in _REVISION.finditer(query)}
    for name, value in _names_and_numbers(query):
        version = version_key(value)
        if (name[0].isupper() or name.lower() in name_words) and (
            held is None or held(name.lower(), version)
        ):
            found.add(version)
    return found


def numbered_names(query: str) -> set[str]:
    """The words a number follows as a version may follow a name ('git 2.36' -> {'git'}),
    lowercased: worth reading the tenant's names for, which say whether one is a name."""
    return {name.lower() for name, _ in _names_and_numbers(query)}


def _names_and_numbers(query: str) -> list[tuple[str, str]]:
    return [
        (m.group("name"), m.group("v"))
        for m in _NAME_NUMBER.finditer(query)
        # a letter is an option or an item ('-m 1', 'A 2'), not a name
        if len(m.group("name")) > 1
        and not _PART_WORD.match(m.group("name"))
        and m.group("name").lower() not in SMALL
    ]


def document_version(doc_id: str, names: str, title: str = "") -> Version | None:
    """A document's version: from its id ('GPL-2', 'MPL-2.0', 'terms-v3'), else from its own
    title ('Apache License, Version 2.0', 'Acme Toolkit 4.2 Release Notes'), else from
    'Version N' early in its title block; None for a dated or unversioned name. The title
    comes before the opening, where other versions are named too ('Changes since v4.1')."""
    found = version_of(doc_id)
    if found and found[1] and found[1][0] < 1000:  # a year is a date, not a version
        return trimmed(found[1])
    own = _title_version(title)
    if own:
        return own
    m = _VERSION_WORD.search(names[:400])
    if m:
        return version_key(m.group("v"))
    r = _REVISION.search(names[:400])
    return _revision(r.group("r")) if r else None


def _title_version(title: str) -> Version | None:
    """The version a title states: 'Version 2.0', 'v3', or a dotted number after a name ('Acme
    Toolkit 4.2 Release Notes'); not a date ('May 1, 2019') or an exhibit ('EX-10.4'), and
    none where the title gives two."""
    title = title[:TITLE_CHARS]
    m = _VERSION_WORD.search(title)
    if m:
        return version_key(m.group("v"))
    dotted = {
        version_key(value)
        for name, value in _names_and_numbers(title)
        if "." in value and not _MONTH.fullmatch(name)
    }
    return dotted.pop() if len(dotted) == 1 else None


def _revision(value: str) -> Version:
    """'A' -> (1,), 'b' -> (2,), '3' -> (3,): counted as version_of counts revisions."""
    return trimmed(documents.version_key(value))


def ordinal_tokens(text: str) -> set[str]:
    """'Amendment No. 2', 'Second Amendment', '2nd Amendment' all give {'ordinal-2'}."""
    out = set()
    for m in _ORDINAL.finditer(text):
        if m.group("word"):
            n = ORDINAL_WORDS.index(m.group("word").lower()) + 1
        else:
            n = int(m.group("nth") or m.group("no"))
        out.add(f"ordinal-{n}")
    return out


def acronyms(title: str) -> set[str]:
    """Acronyms a title is called by: 'Mozilla Public License' -> {'mpl'}, 'GNU Lesser General
    Public License' -> {'glgpl', 'lgpl'}, 'Intellectual Property Agreement' -> {'ipa', 'ip'}:
    the initials of its words (small words left out), with and without the first word (three
    letters or more), and without the last, the kind of document ('the IP agreement')."""
    words = [w for w in _TITLE_WORD.findall(title) if w.lower() not in SMALL]
    words = [w for w in words if not w.lower().startswith("version")]
    initials = "".join(w[0].lower() for w in words[:8])
    found = {a for a in (initials, initials[1:]) if len(a) >= 3}
    if len(words) >= 3:
        found.add(initials[:-1])
    return found


def spaced_versions(query: str) -> str:
    """'GPLv2' -> 'GPL v2': the name and its version read as two words."""
    return _RUN_IN_V.sub(lambda m: f" v{m.group('v')}", query)
