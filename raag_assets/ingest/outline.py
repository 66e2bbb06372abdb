"""The document's own numbering read as an outline: 1 -> 1.1 -> 1.2 -> 1.2.1 -> 2.

A number opens a section when it continues the outline so far: a first child (1.2 -> 1.2.1)
or a next sibling at any depth (1.2.1 -> 1.3, 1.3 -> 2). At the start of a line one number
may be skipped (a heading the text lost); inside a line (a flattened filing puts "8.
Exclusivity. The Supplier shall ... 9. Audit ..." on one physical line, an article heading runs
into its first subsection: "2. Fees 2.1 The Company shall pay") the number must continue the
outline exactly, after a sentence or a heading, so that a quantity ("30 days"), a list item
and a citation ("Section 2.1") stay text. The numbers the document cites ("Section 2.4.1")
are evidence that a number is a section (`cited_labels`).
"""

import re
from collections.abc import Callable

from raag_assets.graph.lexicon import UNIT_NOUNS
from raag_assets.graph.rules import rule

Key = tuple[int, ...]

# A number run into a line after the end of a sentence or a clause's title ("... to any other
# customer. 9. Audit Rights. The Supplier ..."): a top-level number with its dot and
# a capitalised word, or a dotted number (2.1, 2.4.1) and a capitalised word; after a heading
# in capitals too ("RECITALS ... AGREEMENT 1. Engagement. ...").
RUN_IN_NUMBER = rule(
    "heading.run_in_number",
    "heading",
    "a section number run into a line after a sentence, a list's '; and' / '; or', or a "
    "heading in capitals (a flattened filing), before a capital or an amount ('$***'): it "
    "opens a section when it continues the outline",
    pattern=r"(?:(?<=[.:;)\]\"”])|(?<=[A-Z]{2})|(?<=; and)|(?<=; or))\s+(?P<at>(?P<kw>Section|"
    r"SECTION|Article|ARTICLE)\s+(?P<kn>\d{1,3}(?:\.\d{1,3}){0,3}|[IVXLC]{1,6})\.?\s+|(?P<n>\d{1,3}"
    r"(?:\.\d{1,3}){1,3}\.?|\d{1,3}\.)\s+|(?P<tight>\d{1,3}\.)(?=[A-Z]{2}))(?=[A-Z\[“\"$])",
    examples=(
        "shall not supply any other customer. 9. Audit Rights. The Buyer may",
        "as set out above. 4.2 The Supplier shall deliver",
        "a limited company. AGREEMENT 1. Appointment. The Company appoints",
        "agree as follows: ARTICLE I DEFINITIONS Section 1.1 Defined Terms.",
        "the following meanings. 2.TERM AND RENEWAL: (a) Initial Term.",
        "by principles of equity; and 10.1.4. To the best of its knowledge",
        "as follows: 6.2.1. $*** upon the Effective Date;",
    ),
    counter=(
        "payable within 30 days. Each party",
        "as set out in Section 2.1 The",
        "the goods and 2.5 Units",
        "a fee of $10; and 2.5 million",
    ),
)
# The next entry of a numbered list of definitions run into a line after any word ('... as
# shown in Exhibit A 1.21 "Product Data" shall mean ...'): a dotted number and a quoted term.
RUN_IN_DEFINITION = rule(
    "heading.run_in_definition",
    "heading",
    "a numbered definition run into a line after a word: it opens a section when it "
    "continues the outline",
    pattern=r"(?<=[A-Za-z0-9])(?<!ection)(?<!ections)(?<!lause)(?<!lauses)(?<!rticle)\s+"
    r"(?P<at>(?P<n>\d{1,3}\.\d{1,3}(?:\.\d{1,3})?)\.?)\s+(?=[\"“][A-Z])",
    examples=('as shown in Exhibit A 1.21 "Product Data" shall mean',),
    counter=('as defined in Section 1.21 "Data"', 'under clause 2.1 "Fees"'),
)
# A top-level number without its dot run in after a sentence, its title and its first
# subsection after it ("... Supply Commencement Date. 2 Basics of the Agreement 2.1 Grant");
# the title may join topics by semicolons ("10 Governing Law; Venue 10.1 ...") as RUN_IN_CHILD's.
RUN_IN_BARE = rule(
    "heading.run_in_bare_number",
    "heading",
    "a top-level number without a dot run into a line after a sentence, over its title and "
    "its first subsection",
    pattern=r"(?<=[.:;])\s+(?P<at>(?P<n>\d{1,3}))\s+(?=[A-Z][^.:\d]{2,80}?\s(?P=n)\.0?1\b)",
    examples=(
        "the Commencement Date. 2 Basics of the Agreement 2.1 Grant of Rights",
        "the Development Agreement. 10 Governing Law; Venue 10.1 This Agreement",
    ),
    counter=("payable within. 30 days of 30.1 units", "the Date. 2 Basics of the Agreement"),
)
# A heading run into its first subsection ("2. Fees 2.1 The Company shall pay", "ARTICLE 3
# TERM 3.1 This Agreement ...", "3.6 Payment Terms 3.6.1 All payments ..."): the subsection
# is the heading's first child, at any depth.
RUN_IN_CHILD = rule(
    "heading.run_in_first_child",
    "heading",
    "a heading run into its first subsection on one line: the subsection opens a section",
    pattern=r"^(?:(?i:section|article)\s+)?(?P<p>\d{1,3}(?:\.\d{1,3}){0,2})(?:\.0)?\.?\s+"
    r"[A-Z][^.:]{0,80}?\s(?P<c>(?P=p)\.0?1)\.?\s+(?=[A-Z\[“\"])",
    examples=(
        "2. Fees 2.1 The Company shall pay",
        "ARTICLE 3 TERM 3.1 This Agreement",
        "3.6 Payment Terms 3.6.1 All payments shall be made",
        "11. Governing Law; Dispute Settlement 11.1 The execution of this Agreement",
    ),
    counter=("2. The Company shall pay within 2.1 days", "2.1 The Company shall pay"),
)
# A numbered heading set tight against its title in capitals ("2.LICENSE GRANT"), as PDF
# extraction leaves it.
TIGHT_NUMBER = rule(
    "heading.numbered_tight",
    "heading",
    "a number and its dot set tight against a title in capitals: 2.LICENSE GRANT",
    pattern=r"^(\d{1,3})\.(?=[A-Z]{2})([A-Z][A-Z0-9 ,;&'’()/-]{1,80}(?:$|:?\s+\S.*))$",
    examples=("2.LICENSE GRANT", "14.GOVERNANCE", "2.TERM AND RENEWAL: (a) Initial Term."),
    counter=("2.[***] EUR", "U.S. GAAP", "2.Licensee shall pay"),
)
# A top-level number without its dot before a title ("7 Confidentiality"): a heading when its
# first subsection ("7.1") opens the next paragraph.
BARE_NUMBER = rule(
    "heading.bare_number",
    "heading",
    "a number without a dot and a title, standing alone over its first subsection (7 Term), "
    "or in capitals as the outline's next number (9 LIMITATION OF LIABILITY.)",
    pattern=r"^(\d{1,3})\s+([A-Z][A-Za-z ,;&'’/-]{1,80}\.?)$",
    examples=("7 Confidentiality", "12 Governing Law", "9 LIMITATION OF LIABILITY."),
    counter=("2013 was a good year.", "30 days"),
)
# A top-level number without its dot opening a clause with its run-in title ("3 Business
# Continuity. Supplier will ...", "4 Intellectual Property. 4.1 Each Party ..."): a heading
# only as the outline's next number.
BARE_RUN_IN = rule(
    "heading.bare_number_run_in",
    "heading",
    "a number without a dot and a run-in title opening a paragraph (3 Insurance. Supplier "
    "shall ...): a heading when it is the outline's next number",
    pattern=r"^(?P<n>\d{1,3})\s+(?P<rest>(?P<title>[A-Z][^.;:]{2,80}?)\.\s+"
    r"(?:[A-Z(\"“]|\d{1,3}\.\d).*)$",
    examples=(
        "3 Insurance. Supplier shall maintain insurance",
        "4 Intellectual Property. 4.1 Each Party shall retain",
    ),
    counter=("30 days. The Buyer shall pay", "3 days after notice. The Buyer", "2 Fees are due"),
)
# Words that open a sentence, never a title's word nor the second word of a name.
SENTENCE_OPENERS = frozenset(
    {
        "The",
        "This",
        "These",
        "That",
        "Each",
        "Any",
        "All",
        "No",
        "Such",
        "If",
        "In",
        "On",
        "Upon",
        "Unless",
        "Except",
        "Either",
        "Neither",
        "A",
        "An",
        "It",
        "Its",
        "Subject",
        "Notwithstanding",
        "Where",
        "When",
        "For",
        "At",
        "By",
        "To",
        "Both",
        "Nothing",
    }
)
# A flattened filing runs a top-level heading's title into its first sentence with nothing
# between ("... withheld. 2. Term The term of this Agreement shall ..."): title-case words up
# to a sentence's opening (a word of SENTENCE_OPENERS, or a capitalised word a lower-case
# word follows).
_OPENER = "(?:" + "|".join(sorted(SENTENCE_OPENERS)) + r")\s"
TITLE_THEN_SENTENCE = rule(
    "heading.run_in_title_then_sentence",
    "heading",
    "a short title in title case run into the first sentence, after the outline's next "
    "top-level number run into a line",
    pattern=rf"^(?!{_OPENER})[A-Z][\w'’&,/-]+(?:\s+(?:(?!{_OPENER})[A-Z][\w'’&,/-]*|and|of|or|"
    r"the|for|to|in|on|with)){0,7}?\s+(?=" + _OPENER + r"|[A-Z][a-z]*\s+[a-z])",
    examples=(
        "Term The term of this Agreement shall",
        "Compliance with Law Franchisee shall ensure",
        "Notices and Other Communications All reports shall",
        "Maintenance of Records The Blockchain Administrator agrees",
    ),
    counter=("The Franchisee shall pay", "Company shall pay the fees", "30 days after notice"),
)


def _title_then_sentence(rest: str, names: frozenset[str]) -> bool:
    """TITLE_THEN_SENTENCE, unless the break it reads falls inside a name the document writes
    elsewhere ("1. Service Provider is a company ...": "Service Provider" is one name, no
    title "Service" over a sentence "Provider is ...")."""
    m = TITLE_THEN_SENTENCE.regex.match(rest)
    if not m:
        return False
    after = rest[m.end() :].split(maxsplit=1)
    return not after or f"{m.group(0).split()[-1]} {after[0]}" not in names


# The next top-level number run in after a sentence with a short title that ends the line,
# its text below ("... under this Agreement. 12. Publications").
TITLE_ENDS_LINE = rule(
    "heading.run_in_title_ends_line",
    "heading",
    "a short title ending the line after the outline's next top-level number run into it",
    pattern=r"^[A-Z][\w'’&,/-]+(?:\s+(?:[A-Z][\w'’&,/-]*|and|of|or|the|for|to|in|on)){0,7}"
    r"[.:]?$",
    examples=("Publications", "Term and Termination:"),
    counter=("The parties agree that", "30 days"),
)
# Citations of the document's own sections: evidence that a number is a section.
CITED = rule(
    "heading.cited_label",
    "heading",
    "a section the document cites by number (Section 2.4.1, Sections 4.1 and 4.2): evidence "
    "that a numbered line is a heading",
    pattern=r"\b(?:sections?|clauses?|articles?|§§?)\s+(\d{1,3}(?:\.\d{1,3}){0,3})\b",
    flags=re.IGNORECASE,
    examples=("as provided in Section 2.4.1", "under Clause 9", "set forth in Article 10.3"),
    counter=("in 2.4.1 above", "section headings"),
)
_UNIT_BEFORE = re.compile(rf"(?i)\b{UNIT_NOUNS}\s*$")
_LIST_MORE = re.compile(r"^\s*(?:,|and|or|through|to)\s+(\d{1,3}(?:\.\d{1,3}){0,3})\b", re.I)


def key(number: str) -> Key:
    """Numeric path of a label; "2.0" (a drafting style for a top-level heading) is 2."""
    path = tuple(int(p) for p in re.findall(r"\d+", number))
    return path[:-1] if len(path) == 2 and path[-1] == 0 else path


def continues(k: Key, last: Key | None) -> bool:
    """Whether `k` plausibly follows `last` at the start of a line: a first child (or
    grandchild under a zero: "1.0.1" after "1."), a next
    sibling at any depth (one gap allowed), or the first child of the next top-level number
    (its heading lost: "2.1" after "1.74")."""
    if last is None:
        return True
    if k[:-1] == last and k[-1] in (0, 1):
        return True
    if k == (*last, 0, 1):  # "1.0.1" under "1.": the first child of an unwritten "1.0"
        return True
    if len(k) == 2 and k[0] == last[0] + 1 and k[1] in (0, 1):
        return True
    if first_of_next(k, last):  # "6.4.1" after "6.3": 6.4's heading lost at any depth
        return True
    for depth in range(1, len(last) + 1):
        prefix = last[:depth]
        if k[:-1] == prefix[:-1] and len(k) == depth and 1 <= k[-1] - prefix[-1] <= 2:
            return True
    return False


# How far ahead a number the document cites may stand from the outline so far: past headings
# the text lost ("ARTICLE IV" then "4.2" with 4.1's number gone; "8.1" after "5.4" where the
# headings of 6 and 7 were run into a rule line), never across the document.
_CITED_GAP = 5


def ahead(k: Key, last: Key | None) -> bool:
    """Whether `k` stands later in the outline than `last`, a few numbers on, under the same
    parents: a later sibling at some depth, a child of `last`, or a child of a later top-level
    number whose heading was lost. For a dotted number at the start of a line that the
    document cites ("Section 4.2"): its citations are the evidence that it is a heading."""
    depth = len(k)
    if depth < 2:
        return False  # "5." in a list of definitions under 1: a top-level number needs more
    if last is None:
        return True
    if depth == 2 and 0 < k[0] - last[0] <= 3 and k[1] in (0, 1, 2):
        return True
    if depth <= len(last):
        gap = k[-1] - last[depth - 1]
        return k[:-1] == last[: depth - 1] and 0 < gap <= _CITED_GAP
    return depth == len(last) + 1 and k[:-1] == last and 1 <= k[-1] <= _CITED_GAP


def second_child(k: Key, last: Key | None) -> bool:
    """Whether `k` is the second child of `last` ("11.2" after "11."): the first's number was
    lost ("1l.1") or it was never numbered; a heading only with evidence (the next number)."""
    return last is not None and k == (*last, 2)


def cited_ahead(k: Key, last: Key | None, cited: frozenset[str], number: str) -> bool:
    """Whether a number run into a line that the document cites ("Section 3.6", "Section 9")
    stands a few numbers on in the outline (`ahead`; a top-level number up to _CITED_GAP
    on): headings between were lost or read as text, the citations say it is a section."""
    if number not in cited:
        return False
    if len(k) == 1:
        return last is None or 0 < k[0] - last[0] <= _CITED_GAP
    return ahead(k, last)


def _followed(rest: list[re.Match[str]], k: Key, then: Key | None = None) -> bool:
    """Whether the next number run into the line after `k` follows it exactly; when none
    does, the number the next paragraph opens with (`then`)."""
    for m in rest:
        number = (m.groupdict().get("n") or "").rstrip(".")
        if number:
            return follows(key(number), k)
    return then is not None and follows(then, k)


def first_of_next(k: Key, last: Key | None) -> bool:
    """Whether `k` is the first child of the outline's next number ("6.4.1" after "6.3",
    "3.2.1" after "3.1.4"): that number's heading was lost, cut off with the sentence before
    it at a page break or run into a line the text does not break."""
    return len(k) >= 2 and k[-1] in (0, 1) and follows(k[:-1], last) and k[:-1] != last


def follows(k: Key, last: Key | None) -> bool:
    """Whether `k` is exactly the next number of the outline after `last`: its first child or
    the next sibling at some depth, no number skipped (for a number inside a line)."""
    if last is None:
        return k == (1,)
    if k == (*last, 1):
        return True
    return any(k == (*last[: depth - 1], last[depth - 1] + 1) for depth in range(1, len(last) + 1))


def cited_labels(texts: list[str]) -> set[str]:
    """The numbers the document cites as its own sections ("Section 2.4.1", "Sections 4.1
    and 4.2"), as labels."""
    out: set[str] = set()
    for text in texts:
        for m in CITED.finditer(text):
            out.add(m.group(1))
            rest = text[m.end() :]
            while more := _LIST_MORE.match(rest):
                out.add(more.group(1))
                rest = rest[more.end() :]
    return out


_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def roman(numeral: str) -> int:
    values = [_ROMAN[c] for c in numeral.lower()]
    return sum(-v if n + 1 < len(values) and v < values[n + 1] else v for n, v in enumerate(values))


def run_in_cuts(
    text: str,
    last: Key | None,
    opens: Callable[[str], Key | None],
    titled: Callable[[str], bool],
    cited: frozenset[str] = frozenset(),
    listed: frozenset[str] = frozenset(),
    names: frozenset[str] = frozenset(),
    then: Key | None = None,
) -> tuple[list[int], Key | None]:
    """Where numbers run into a line open sections, and the outline after the line. `opens`
    reads the number a line opens with (None if none), `titled` whether the text after a
    top-level number opens with a title ("Exclusivity. The Supplier shall ...", "OPERATING
    MANUAL We will ..."). A number must continue the outline exactly; one number may be
    skipped after a top-level number with its title, or when the document cites the number
    ("Section 2.4.1"), or stand a few numbers on when the document cites it (`cited_ahead`:
    the numbers between were lost). A top-level number the table of contents lists
    (`listed`) needs no title of its own form when it is the outline's next ("... law. 4.
    Business Plan Prior to ..."); nor does one whose title in title case runs into a
    sentence, unless the break falls inside a two-word name the document writes more than
    once (`names`). `then` is the number the next paragraph opens with: evidence, as a number
    run in after it would be, that the line's last dotted number continues the outline."""
    cuts: list[int] = []
    found = [*RUN_IN_NUMBER.finditer(text), *RUN_IN_DEFINITION.finditer(text)]
    found += RUN_IN_BARE.finditer(text)
    ordered = sorted(found, key=lambda m: m.start("at"))
    if (k := opens(text)) is not None and (
        continues(k, last)
        or second_child(k, last)
        # a dotted number a few on ("14.5" after "14.2": 14.3 and 14.4 ran into a line after
        # a word) when the next number run into its paragraph follows it ("14.6")
        or (len(k) > 1 and ahead(k, last) and _followed(ordered, k, then))
    ):
        last = k
    if last is not None and (chain := _first_children(text, 0, last)):
        cuts += chain  # "2. Fees 2.1 The Company shall pay", at any depth
        last = (*last, *(1,) * len(chain))
    for n, m in enumerate(ordered):
        if cuts and m.start("at") <= cuts[-1]:
            continue
        if _UNIT_BEFORE.search(text, 0, m.start("at")):
            continue  # "SCHEDULE 3.2 City Rights": the number of the unit named before it
        groups = m.groupdict()
        number = (groups["n"] or groups.get("kn") or groups.get("tight") or "").rstrip(".")
        k = (roman(number),) if number.isalpha() else key(number)
        top = len(k) == 1
        rest = text[m.end() :]
        # a keyword form ("... IN SECTION 15 OF THIS AGREEMENT") may be the citation itself
        evidence = not groups.get("kw") and cited_ahead(k, last, cited, number)
        alone = (follows(k, last) or evidence) and bool(
            TITLE_ENDS_LINE.search(rest.strip())
            or number in listed
            or (top and _title_then_sentence(rest.strip(), names))
        )
        if top and not (titled(rest) or alone):
            continue  # "... 2. The parties ..." in a list: a top-level number needs its title
        if not (
            follows(k, last)
            or (continues(k, last) and (top or number in cited))
            or first_of_next(k, last)  # ". 6.4.1. Without ..." after 6.3: 6.4's heading lost
            # a dotted number one on ("14.4" after "14.2": 14.3 ran in after a word) when the
            # next number run into the line follows it ("14.5"): the numbering goes on
            or (not top and continues(k, last) and _followed(ordered[n + 1 :], k, then))
            # a cited number a few on: a top-level one with its title (checked above), a
            # dotted one after the end of a sentence ("... Dexcel. 3.6.3 With the ...")
            or evidence
        ):
            continue
        cuts.append(m.start("at"))
        last = k
        chain = _first_children(text, m.start("at"), k)  # "2. Conditions Precedent 2.1 ..."
        cuts += chain
        last = (*k, *(1,) * len(chain))
    return cuts, last


def _first_children(text: str, at: int, k: Key) -> list[int]:
    """Where the first subsections of the number `k` opening text[at:] run in after their
    headings, at every depth ("3 Purchase of Product 3.1 Packaging 3.1.1 Kitov shall ..."):
    each the first child of the one before (RUN_IN_CHILD)."""
    cuts: list[int] = []
    while (child := RUN_IN_CHILD.search(text[at:])) and key(child.group("p")) == k:
        if key(child.group("c")) != (*k, 1):
            break
        at += child.start("c")
        cuts.append(at)
        k = (*k, 1)
    return cuts
