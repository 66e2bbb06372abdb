"""Document-level edges: supersedes (metadata, file names, text), amends (metadata, titles,
text) and effective dates from metadata."""

import datetime as dt
import re
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath

from rapidfuzz import fuzz

from raag_assets.core.model import DocInfo, Edge, SectionInfo, Unresolved
from raag_assets.graph.dates import parse_date
from raag_assets.graph.lexicon import DATE, DOC_NOUNS
from raag_assets.graph.references import DOC_NAME, Corpus, clean_name, is_doc_name
from raag_assets.graph.rules import Rule, rule

# Relations a document's metadata states (ingest's version chain, front matter).
NEW_VERSION = rule(
    "supersedes.new_version",
    "document",
    "a new version of the same source file supersedes the version it replaced (ingest)",
    edge_type="supersedes",
    confidence=1.0,
)
SUPERSEDES_METADATA = rule(
    "supersedes.metadata",
    "document",
    "'supersedes: <doc_id>' in a document's metadata",
    edge_type="supersedes",
    confidence=1.0,
)
AMENDS_METADATA = rule(
    "amends.metadata",
    "document",
    "'amends: <doc_id>' in a document's metadata",
    edge_type="amends",
    confidence=1.0,
)
EFFECTIVE_METADATA = rule(
    "effective_on.metadata",
    "date",
    "a document's effective period, from its metadata or the effective-date line ingest read",
    edge_type="effective_on",
    confidence=1.0,
)

# "policy-rev-a", "Handbook Rev.B", "terms_v2", "GPL-3", "guide-2024"; a number run into the
# word before it is a part of a filing ("Supply Agreement2"), or a standard's ("rfc3501")
VERSIONED_NAME = rule(
    "version_of.versioned_name",
    "document",
    "a family and a revision, version or number at the end of a name ('policy-rev-b', "
    "'terms_v2', 'GPL-3'), the number set apart from the name",
    pattern=r"^(?P<base>.+?)(?:[\s._-]*(?:rev(?:ision)?|version|ver|v)[\s._-]*"
    r"(?P<rev>[a-z]|\d+(?:\.\d+)*)|[\s._-]+(?P<num>\d+(?:\.\d+)*))$",
    flags=re.IGNORECASE,
    examples=("travel-policy-rev-b", "terms_v2", "Handbook Version 3.1", "GPL-3"),
    counter=("expenses", "travel policy", "Supply Agreement2", "rfc3501"),
)
# "policy_2021-03-03", "Terms 20220601", "report-2024-06": a family dated in its names
DATED_NAME = rule(
    "version_of.dated_name",
    "document",
    "a family and a date at the end of a name ('handbook_2023-01-15', 'report-2024-06')",
    pattern=r"^(?P<base>.+?)[\s._-]+(?P<date>(?:19|20)\d{2}(?:[-_.]?\d{2}){0,2})$",
    examples=("handbook_2023-01-15", "report-2024-06", "Terms 20230115"),
    counter=("handbook", "report-v2"),
)
FILE_NAME_VERSION = rule(
    "supersedes.file_name_version",
    "document",
    "within a family of numbered versions ('GPL-2', 'GPL-3'; 'terms-v1', 'terms-v2'), each "
    "version supersedes the one before it as the later version; both may stay in force (a "
    "licence's or a standard's versions coexist), so search prefers the later one only when "
    "a query names neither",
    edge_type="supersedes",
    confidence=0.8,
)
FILE_NAME_REVISION = rule(
    "supersedes.file_name_revision",
    "document",
    "within a family of revisions or dated issues ('policy-rev-a', 'policy-rev-b'; "
    "'handbook_2021-03-03', 'handbook_2022-06-01'), each replaces the one before it; an "
    "unversioned name equal to the family is its newest member",
    edge_type="supersedes",
    confidence=0.8,
)
SUPERSEDES_TEXT = rule(
    "supersedes.text_verb",
    "document",
    "a named document said to be superseded or replaced ('replaces the X Policy (Rev. A)', 'is "
    "superseded by the X', 'is the successor of the X')",
    edge_type="supersedes",
    confidence=0.9,
    pattern=r"\b(?P<verb>supersedes|replaces|is\s+superseded\s+by|is\s+replaced\s+by"
    r"|is\s+the\s+successor\s+(?:of|to))\s+the\s+"
    rf"(?P<name>{DOC_NAME})",
    examples=(
        "This policy replaces the Travel Policy (Rev. A).",
        "This code is the successor of the Ethics Charter.",
    ),
    counter=("This policy replaces all earlier travel rules.",),
)
# Header relations of a standard: "Obsoletes: 1730, 2060", "Updates: 2822" (RFC style).
_RFC_NUMBERS = r"(?P<numbers>(?:RFCs?\s*)?\d{1,5}(?:\s*(?:,|and|&)\s*(?:RFC\s*)?\d{1,5})*)"
OBSOLETES_HEADER = rule(
    "supersedes.obsoletes_header",
    "document",
    "a standard's header 'Obsoletes: 1234, 2345': it supersedes each standard numbered so",
    edge_type="supersedes",
    confidence=1.0,
    pattern=rf"\bObsoletes\s*:\s*{_RFC_NUMBERS}",
    flags=re.IGNORECASE,
    examples=("Obsoletes: 1234, 2345", "Obsoletes: RFC 1234"),
    counter=("Updates: 1234",),
)
UPDATES_HEADER = rule(
    "amends.updates_header",
    "document",
    "a standard's header 'Updates: 1234': it amends each standard numbered so",
    edge_type="amends",
    confidence=1.0,
    pattern=rf"\bUpdates\s*:\s*{_RFC_NUMBERS}",
    flags=re.IGNORECASE,
    examples=("Updates: 1234 and 2345",),
    counter=("Obsoletes: 1234",),
)
OWN_NUMBER = rule(
    "document.own_number",
    "document",
    "a standard's own number in its opening ('Request for Comments: 1234'): the number its "
    "successors' header relations cite",
    pattern=r"\b(?:Request\s+for\s+Comments|RFC)\s*:?\s*(\d{1,5})\b",
    flags=re.IGNORECASE,
    examples=("Request for Comments: 1234", "RFC 1234"),
    counter=("Comments: 1234",),
)
NUMBERED_ID = rule(
    "document.numbered_id",
    "document",
    "a standard's number in its doc_id ('rfc1234')",
    pattern=r"^rfc[\s_-]?(\d{1,5})$",
    flags=re.IGNORECASE,
    examples=("rfc1234", "RFC-1234"),
    counter=("rfc-notes",),
)
# "Second Amendment to the Supply Agreement", "AMENDMENT NO. 2 TO MANUFACTURING AGREEMENT",
# "Amendment #3 to the Lease", 'This Amendment No. 3 ("Amendment No. 3") to the Services
# Agreement': read in a title, a file name or a document's opening (a capital "Amendment",
# not "any amendment to the Agreement")
AMENDMENT_TITLE = rule(
    "amends.amendment_title",
    "document",
    "an amendment's title naming the agreement it amends ('Second Amendment to the Supply "
    "Agreement', 'Amendment #3 to the Lease Agreement', 'Addendum No. 1 to the X')",
    edge_type="amends",
    confidence=0.9,
    pattern=r"\b(?:Amendment|AMENDMENT|Addendum|ADDENDUM)"
    r"(?:\s+(?i:no|number)\.?\s*\d+|\s*#\s*\d+|\s+\d+|\s+[IVX]{1,4}\b)?"
    r"(?:\s*\([^()]{1,60}\))?"  # its own short name: ("Amendment No. 3"), (this "Amendment")
    r"\s+(?i:to)\s+(?:(?i:the|that\s+certain|this)\s+)?"
    rf"(?P<name>{DOC_NAME})",
    examples=(
        "First Amendment to the Lease Agreement",
        "AMENDMENT NO. 3 TO SERVICES AGREEMENT",
        "Amendment #2 to Supply Agreement",
        'This Amendment No. 1 (this "Amendment") to the Hosting Agreement',
    ),
    counter=("This amendment takes effect today.", "any amendment to the Lease Agreement"),
)
# "This Agreement supersedes all prior agreements ..." (the prior one is found by its title)
SUPERSEDES_PRIOR = rule(
    "supersedes.all_prior",
    "document",
    "'supersedes all prior agreements': a live document of the same title that took effect "
    "earlier is superseded",
    edge_type="supersedes",
    confidence=0.7,
    pattern=r"\b(?:supersedes?|replaces?)\s+(?:any\s+and\s+)?all\s+(?:prior|previous|earlier)\s+"
    r"(?:agreements|versions|understandings|contracts|editions)",
    flags=re.IGNORECASE,
    examples=("This Agreement supersedes all prior agreements between the parties.",),
    counter=("This Agreement supersedes the Letter of Intent.",),
)
# "between Acme Components, Inc., a Delaware corporation ("Acme"), and Beta LLC": the head of
# each party's name, where an agreement introduces its parties
PARTY_HEADS = rule(
    "supersedes.same_parties",
    "document",
    "the parties' names where an agreement introduces them ('by and between Acme Inc., a "
    "Delaware corporation, and Beta LLC'): an agreement between other parties is not a prior "
    "agreement of this one (veto)",
    pattern=r"\b(?:between|among)\s*:?\s+(?:the\s+)?(?P<party>(?-i:[A-Za-z0-9][\w&'’.-]*)"
    r"(?:\s+(?-i:[A-Z&][\w&'’.-]*)){0,5})",
    flags=re.IGNORECASE,
    examples=(
        "This Agreement is made by and between Acme Inc., a Delaware corporation",
        "made BETWEEN: ACME CAPITAL CORP., a corporation",
    ),
    counter=("This Agreement is signed by both parties.",),
)
_NEXT_PARTY = re.compile(
    r"(?:,\s*|\s+)(?:and|AND)\s*:?\s+(?:the\s+)?"
    r"(?P<party>[A-Za-z0-9][\w&'’.-]*(?:\s+[A-Z&][\w&'’.-]*){0,5})"
)
_TITLE_SCAN = 600  # the title block's opening characters name what a document amends
AMENDS_TEXT = rule(
    "amends.text_verb",
    "document",
    "a named document said to be amended, supplemented or modified ('amends the X Policy', "
    "'hereby amends and restates the X Agreement')",
    edge_type="amends",
    confidence=0.9,
    pattern=r"\b(?:amends|supplements|modifies)(?:\s+and\s+(?:restates|supplements))?\s+the\s+"
    rf"(?P<name>{DOC_NAME})",
    examples=(
        "This notice amends the Travel Policy (Rev. B).",
        "This First Amendment amends the Distribution Agreement.",
    ),
    counter=("This notice amends nothing.",),
)
# "incorporates ... the X License, supplemented by the additional permissions below": a
# document made of another plus additions (GRAPH_GOLD: "incorporates ... as supplemented by")
INCORPORATES_SUPPLEMENTED = rule(
    "amends.incorporates_supplemented",
    "document",
    "a document that incorporates another, supplemented by its own terms ('incorporates the "
    "terms of version 2 of the X License, supplemented by the permissions below')",
    edge_type="amends",
    confidence=0.9,
    pattern=r"\bincorporates\s+(?:the\s+terms(?:\s+and\s+conditions)?\s+of\s+)?"
    r"(?:(?P<version>version\s+[\d.]+)\s+of\s+)?the\s+"
    rf"(?P<name>{DOC_NAME})\s*,?\s+(?:as\s+)?supplemented\s+by\b",
    flags=re.IGNORECASE,
    examples=(
        "This licence incorporates the terms of version 2 of the Foo Public License, "
        "supplemented by the permissions below.",
        "The policy incorporates the Travel Policy as supplemented by this notice.",
    ),
    counter=("This licence incorporates the Foo Public License by reference.",),
)
# "Section 4.15 set forth below is hereby added to the Agreement": a section inserted into a
# document amends the document (the section it adds is not there to be the target)
SECTION_ADDED = rule(
    "amends.section_added",
    "document",
    "a section or text declared added to (inserted into) a document ('is hereby added to the "
    "Agreement'): the section saying so amends that document",
    edge_type="amends",
    confidence=0.85,
    pattern=r"\b(?:is|are)\s+hereby\s+(?:added|inserted)\s+(?:to|into|in)\s+(?:the|this)\s+"
    rf"(?P<name>{DOC_NAME})",
    examples=("The following Section 9.4 is hereby added to the Agreement after Section 9.3.",),
    counter=("any site which is added to this Agreement pursuant to Section 3",),
)
# How an amendment describes the agreement it names, right after the name: its date ("dated
# March 1, 2019", "dated as of ...") and its parties ("between Acme Inc. and Beta LLC")
AMENDED_DATED = rule(
    "amends.described_date",
    "document",
    "the date an amendment gives the agreement it names, right after the name ('the Supply "
    "Agreement dated March 1, 2019'): tells documents of one name apart",
    pattern=r"^\s*,?\s*(?:(?:by\s+and\s+)?between\s+[^.;()]{3,160}?\s*,?\s*)?"
    r"(?:\([^()]{0,60}\)\s*,?\s*)?(?:as\s+(?:previously\s+)?amended[^,;()]{0,40}?,?\s*)?"
    r"(?:dated|made|entered\s+into|executed)(?:\s+(?:as\s+of|on|effective))?\s+(?:the\s+)?"
    rf"(?P<date>{DATE})",
    flags=re.IGNORECASE,
    examples=(" dated March 1, 2019 between Acme and Beta", " between them dated as of 2 May 2020"),
    counter=(" is entered into effective as of June 1, 2021",),
)
AMENDED_PARTIES = rule(
    "amends.described_parties",
    "document",
    "the parties an amendment gives the agreement it names ('the Supply Agreement between Acme "
    "Inc. and Beta LLC'): tells documents of one name apart",
    pattern=r"^[^;()]{0,60}?\b(?:by\s+and\s+)?between\s+(?P<parties>[^;()]{3,160}?)"
    r"(?=\s*(?:,?\s*(?:dated|made|entered|executed|as\s+amended)\b|[(;]|\.\s+(?-i:[A-Z][a-z])|\n|$))",
    flags=re.IGNORECASE,
    examples=(" dated March 1, 2019 between Acme Inc. and Beta LLC.",),
    counter=(" is hereby amended as follows.",),
)
# where a name in capitals ends: "SUPPLY AGREEMENT DATED MARCH 1, 2019 BETWEEN ..."
_NAME_ENDS = re.compile(
    r"\s+(?:DATED|BETWEEN|BY|AMONG|EFFECTIVE|MADE|ENTERED|EXECUTED|AS|WHICH|THAT)\b"
)
# In running text an amendment speaks of itself ("This Amendment No. 3 to the X", "This First
# Amendment amends the X"); an agreement mentions others ("as amended by Amendment No. 1 to
# the Credit Agreement"), which does not make it an amendment
SELF_NAMED = rule(
    "amends.self_named",
    "document",
    "in a document's opening text, an amendment naming its agreement speaks of itself ('This "
    "Amendment No. 2 to the X', 'This First Amendment amends the X'); else no naming (veto)",
    pattern=r"\bThis\s+(?:[\w-]+\s+){0,2}(?:Amendment|Addendum)\b",
    flags=re.IGNORECASE,
    examples=("This First Amendment amends the Distribution Agreement",),
    counter=("as amended by Amendment No. 1 to the Credit Agreement",),
)
_OPENING_SECTIONS = 3  # an amendment names its agreement in its title block or first clause
# words of a party's name that tell nothing apart
_PARTY_NOISE = {
    "and", "the", "them", "parties", "party", "inc", "llc", "l.l.c", "corp", "corporation",
    "company", "ltd", "limited", "plc", "lp", "l.p", "gmbh", "co", "its", "their", "between",
    "respective", "affiliates", "subsidiaries", "hereto", "undersigned",
    # roles, not names: two unrelated agreements are both "between Licensor and Licensee"
    "licensor", "licensee", "client", "customer", "supplier", "vendor", "distributor",
    "contractor", "consultant", "buyer", "seller", "purchaser", "provider", "employer",
    "employee", "franchisor", "franchisee", "reseller", "manufacturer", "landlord", "tenant",
    "lessor", "lessee", "member", "members", "agreement", "this", "whereas", "recitals",
    "witnesseth", "now", "therefore", "sponsor", "issuer", "agent",
    # words many companies' names share
    "services", "solutions", "technologies", "technology", "systems", "group", "holdings",
    "holding", "international", "global", "capital", "partners", "enterprises", "industries",
    "communications", "networks", "america", "american", "usa", "bank", "trust", "resources",
    "products", "software", "media", "investment", "investments", "financial", "energy",
}  # fmt: skip


def _scaled(r: Rule, *certainties: float) -> float:
    """The rule's confidence times the certainty of each thing it resolved (a name, a label)."""
    if r.confidence is None:
        raise TypeError(f"rule {r.id} makes no edge")
    confidence = r.confidence
    for c in certainties:
        confidence = confidence * c
    return confidence


def version_key(value: str) -> tuple[int, ...]:
    """A revision or version as numbers: 'a' -> (1,), 'B' -> (2,), '2.1' -> (2, 1)."""
    if value.isalpha():
        return (ord(value.lower()) - ord("a") + 1,)
    return tuple(int(p) for p in value.split("."))


def replaces(name: str) -> bool:
    """Whether the next member of `name`'s family replaces it: a revision ('rev-a', 'Rev.
    B') or a dated issue does; a numbered version ('GPL-2', 'terms_v2') may coexist."""
    found = version_of(name)
    if found is None:
        return False
    if DATED_NAME.regex.match(name) and found[1][0] >= 1000:
        return True
    m = VERSIONED_NAME.regex.match(name)
    keyword = m.group(0)[len(m.group("base")) :] if m else ""
    return bool(m and m.group("rev") and re.search(r"rev", keyword, re.IGNORECASE))


def version_of(name: str) -> tuple[str, tuple[int, ...]] | None:
    """(family, version) from a doc_id or file name: 'policy-rev-a' -> ('policy', (1,)),
    'terms-v10' -> ('terms', (10,)), 'policy_2021-03-03' -> ('policy', (2021, 3, 3))."""
    dated = DATED_NAME.regex.match(name)
    if dated and re.search(r"[^\W\d_]", dated.group("base")):
        base = re.sub(r"[\s._-]+", "-", dated.group("base").lower()).strip("-")
        parts = re.fullmatch(r"(\d{4})[-_.]?(\d{2})?[-_.]?(\d{2})?", dated.group("date"))
        return base, tuple(int(p) for p in parts.groups() if p)  # type: ignore[union-attr]
    m = VERSIONED_NAME.regex.match(name)
    if not m or not re.search(r"[^\W\d_]", m.group("base")):
        return None  # '6157837' is an id, not version 157837 of '6'
    base = re.sub(r"[\s._-]+", "-", m.group("base").lower()).strip("-")
    value = m.group("rev") or m.group("num")
    return base, version_key(value)


def document_edges(docs: Sequence[DocInfo], corpus: Corpus) -> list[Edge]:
    """The relations documents' metadata states, then the version families of their names."""
    edges: list[Edge] = []
    ids = {d.doc_id for d in docs}
    for d in docs:
        edges.extend(_metadata_edges(d, ids))
    edges.extend(file_name_versions(docs))
    return edges


def _metadata_edges(d: DocInfo, ids: set[str]) -> list[Edge]:
    edges = []
    if d.superseded_by and d.superseded_by in ids:
        evidence = f"new version of {d.source_name}: {d.superseded_by} > {d.doc_id}"
        edges.append(_doc_edge(NEW_VERSION, d.superseded_by, d.doc_id, evidence))
    # an earlier version's supersedes/amends metadata is the live version's to assert
    if d.supersedes and d.supersedes in ids and not d.superseded_by:
        evidence = f"supersedes: {d.supersedes}"
        edges.append(_doc_edge(SUPERSEDES_METADATA, d.doc_id, d.supersedes, evidence))
    amends = d.metadata.get("amends")
    if isinstance(amends, str) and amends in ids and not d.superseded_by:
        edges.append(_doc_edge(AMENDS_METADATA, d.doc_id, amends, f"amends: {amends}"))
    if d.effective_from:
        edges.append(
            EFFECTIVE_METADATA.edge(
                src_doc_id=d.doc_id,
                src_section_id=None,
                matched_text=d.effective_evidence
                or f"effective_from: {d.effective_from.isoformat()}",
                normalized_target=d.effective_from.isoformat()
                + (f"/{d.effective_to.isoformat()}" if d.effective_to else ""),
                date_from=d.effective_from,
                date_to=d.effective_to,
            )
        )
    return edges


def file_name_versions(docs: Sequence[DocInfo]) -> list[Edge]:
    """Within a family of names ('leave-policy-rev-a', 'leave-policy-rev-b'; 'GPL-2',
    'GPL-3'), each version supersedes the one before it."""
    families: dict[str, list[tuple[tuple[int, ...], DocInfo]]] = {}
    docs = [d for d in docs if d.superseded_by is None]  # earlier versions: see above
    for d in docs:
        found = version_of(d.doc_id)
        if found:
            families.setdefault(found[0], []).append((found[1], d))
    # an unversioned doc_id equal to a family's base is that family's newest member
    for d in docs:
        if version_of(d.doc_id) is None and d.doc_id.lower() in families:
            families[d.doc_id.lower()].append(((10**6,), d))
    edges = []
    for members in families.values():
        members.sort(key=lambda x: (x[0], x[1].doc_id))
        for (_, old), (_, new) in zip(members, members[1:], strict=False):
            evidence = f"{new.source_name} > {old.source_name}"
            form = FILE_NAME_REVISION if replaces(old.doc_id) else FILE_NAME_VERSION
            edges.append(_doc_edge(form, new.doc_id, old.doc_id, evidence))
    return edges


def text_document_edges(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'replaces the Leave Policy (Rev. A)', 'is superseded by the X', 'is the successor of
    the X', 'Amendment 1 amends the Leave Policy (Rev. B)', 'Section 9.4 is hereby added to
    the Agreement', header relations of a standard ('Obsoletes: 1730, 2060') and an
    amendment's title ('Second Amendment to the Supply Agreement') in a section's text. The
    sections an amendment changes are its citations' relation (graph/relations.py)."""
    edges = [*_header_relations(section, corpus), *_added_sections(section, corpus)]
    if section.ordinal == 0:
        amended = amendment_of(section.doc_id, corpus)
        if amended and amended.doc_id:
            edges.append(
                _doc_edge(
                    amended.rule,
                    section.doc_id,
                    amended.doc_id,
                    amended.evidence,
                    _scaled(amended.rule, amended.certainty),
                    amended.position,
                )
            )
    edges.extend(_prior_agreements(section, corpus))
    edges.extend(_named_supersessions(section, corpus))
    edges.extend(_incorporated(section, corpus))
    for m in AMENDS_TEXT.finditer(section.text):
        name = clean_name(m.group("name"))
        found, conf = corpus.find_doc(name) if is_doc_name(name) else (None, 0)
        if found and found != section.doc_id:
            evidence = m.group(0)[: m.start("name") - m.start() + len(name)]
            confidence = _scaled(AMENDS_TEXT, conf)
            edges.append(
                _doc_edge(AMENDS_TEXT, section.doc_id, found, evidence, confidence, m.start())
            )
    return edges


def _incorporated(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'incorporates the terms of version 3 of the X License, supplemented by ...': amends
    that version of X."""
    edges = []
    for m in INCORPORATES_SUPPLEMENTED.finditer(section.text):
        name = clean_name(m.group("name"))
        version = m.group("version")
        wanted = f"{name} ({version})" if version else name
        target, conf = corpus.find_doc(wanted) if is_doc_name(name) else (None, 0.0)
        if target and target != section.doc_id:
            edges.append(
                INCORPORATES_SUPPLEMENTED.edge(
                    src_doc_id=section.doc_id,
                    src_section_id=section.section_id,  # the clause that says so
                    matched_text=" ".join(m.group(0).split()),
                    normalized_target=target,
                    confidence=round(_scaled(INCORPORATES_SUPPLEMENTED, conf), 3),
                    dst_doc_id=target,
                    position=m.start(),
                )
            )
    return edges


def _named_supersessions(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'replaces the X', 'is superseded by the X': the active voice supersedes X, the passive
    is superseded by it."""
    edges = []
    for m in SUPERSEDES_TEXT.finditer(section.text):
        name = clean_name(m.group("name"))
        target, conf = corpus.find_doc(name) if is_doc_name(name) else (None, 0)
        if not target or target == section.doc_id:
            continue
        passive = "by" in m.group("verb")
        src, dst = (target, section.doc_id) if passive else (section.doc_id, target)
        evidence = m.group(0)[: m.start("name") - m.start() + len(name)]
        confidence = _scaled(SUPERSEDES_TEXT, conf)
        edges.append(_doc_edge(SUPERSEDES_TEXT, src, dst, evidence, confidence, m.start()))
    return edges


def _doc_edge(
    r: Rule,
    src: str,
    dst: str,
    evidence: str,
    confidence: float | None = None,
    position: int = 0,
) -> Edge:
    """A document-level edge of rule `r`; `confidence` where the rule's is scaled."""
    return r.edge(
        src_doc_id=src,
        src_section_id=None,
        matched_text=evidence,
        normalized_target=dst,
        confidence=round(_scaled(r) if confidence is None else confidence, 3),
        dst_doc_id=dst,
        position=position,
    )


_NUMBERS: "weakref.WeakKeyDictionary[Corpus, dict[str, str]]" = weakref.WeakKeyDictionary()
_PARTIES: "weakref.WeakKeyDictionary[Corpus, dict[str, tuple[frozenset[str], ...]]]" = (
    weakref.WeakKeyDictionary()
)
_AMENDED: "weakref.WeakKeyDictionary[Corpus, dict[str, Amended | None]]" = (
    weakref.WeakKeyDictionary()
)


def standard_numbers(corpus: Corpus) -> dict[str, str]:
    """Each standard's own number ("Request for Comments: 3501", doc_id "rfc3501") -> doc_id;
    the numbers a document obsoletes or updates are cited by these."""
    if corpus not in _NUMBERS:
        numbers: dict[str, str] = {}
        for doc_id in sorted(corpus.docs):
            own = NUMBERED_ID.regex.match(doc_id)
            opening = corpus.by_doc.get(doc_id, [])[:1]
            found = own or (OWN_NUMBER.search(opening[0].text[:_TITLE_SCAN]) if opening else None)
            if found:
                numbers.setdefault(str(int(found.group(1))), doc_id)
        _NUMBERS[corpus] = numbers
    return _NUMBERS[corpus]


def _header_relations(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'Obsoletes: 1730, 2060' -> supersedes each; 'Updates: 2822' -> amends each."""
    if section.ordinal != 0:
        return []  # header relations stand in a standard's title block
    numbers = standard_numbers(corpus)
    head = section.text[: _TITLE_SCAN * 2]
    found = [(m, r) for r in (OBSOLETES_HEADER, UPDATES_HEADER) for m in r.finditer(head)]
    edges = []
    for m, r in sorted(found, key=lambda mr: mr[0].start()):  # in the header's order
        for number in re.findall(r"\d{1,5}", m.group("numbers")):
            target = numbers.get(str(int(number)))
            if target and target != section.doc_id:
                edges.append(_doc_edge(r, section.doc_id, target, m.group(0), position=m.start()))
    return edges


@dataclass(frozen=True)
class Amended:
    """What an amendment says it amends: the name it gives, how it describes it (date,
    parties), where it says so, and the tenant's document it is, or why none is."""

    name: str  # "Supply Agreement"
    evidence: str  # "Amendment No. 2 to the Supply Agreement"
    rule: Rule  # the naming form
    section_id: str | None  # the section that names it; None: its title or file name
    position: int
    dated: dt.date | None = None
    parties: tuple[str, ...] = ()  # distinctive words of the parties' names
    doc_id: str | None = None  # the amended document, when the tenant holds it
    certainty: float = 0.0  # that doc_id is the document named and described
    reason: str = ""  # why doc_id is None: "no document of that name in this tenant yet"

    def described(self) -> str:
        """'the Supply Agreement dated 2019-03-01 between acme, beta'."""
        out = f"the {self.name}"
        if self.dated:
            out += f" dated {self.dated.isoformat()}"
        if self.parties:
            out += f" between {', '.join(self.parties)}"
        return out


def amendment_of(doc_id: str, corpus: Corpus) -> Amended | None:
    """The agreement a document says it amends, by the name its title, opening or file name
    gives ("Amendment No. 2 to the Supply Agreement dated March 1, 2019 between Acme and
    Beta", "This First Amendment amends the Distribution Agreement"), resolved in the tenant:
    among documents of that name, the one whose date and parties fit the description. None
    when the document names no agreement it amends."""
    cache = _AMENDED.setdefault(corpus, {})
    if doc_id not in cache:
        named = list(_namings(doc_id, corpus))
        cache[doc_id] = _resolved(doc_id, named, corpus) if named else None
    return cache[doc_id]


def amended_document(doc_id: str, corpus: Corpus) -> tuple[str, str, float] | None:
    """The agreement an amendment names, when the tenant holds it: (doc_id, evidence,
    confidence)."""
    amended = amendment_of(doc_id, corpus)
    if amended is None or amended.doc_id is None:
        return None
    return amended.doc_id, amended.evidence, round(_scaled(amended.rule, amended.certainty), 3)


def _namings(doc_id: str, corpus: Corpus) -> Iterator[Amended]:
    """Each statement of the agreement a document amends, in its title, opening sections (the
    title form, then 'amends the X') and file name, in that order."""
    doc = corpus.docs.get(doc_id)
    texts: list[tuple[str, str | None, tuple[Rule, ...]]] = []
    if doc and doc.title:
        texts.append((doc.title, None, (AMENDMENT_TITLE,)))
    for s in corpus.by_doc.get(doc_id, [])[:_OPENING_SECTIONS]:
        texts.append((s.heading, s.section_id, (AMENDMENT_TITLE,)))
        texts.append((s.text[: _TITLE_SCAN * 2], s.section_id, (AMENDMENT_TITLE, AMENDS_TEXT)))
    if doc:
        stem = PurePath(doc.source_name).stem.replace("_", " ")
        texts.append((stem, None, (AMENDMENT_TITLE,)))
    for text, section_id, forms in texts:
        running = len(forms) > 1  # a section's text, not a title, heading or file name
        for form in forms:
            for m in form.finditer(text):
                name = clean_name(_NAME_ENDS.split(m.group("name"))[0])
                if not is_doc_name(name):
                    continue
                if running and not SELF_NAMED.search(text[max(0, m.start() - 80) : m.end()]):
                    continue  # "as amended by Amendment No. 1 to the Credit Agreement"
                after = text[m.start("name") + len(name) : m.start("name") + len(name) + 300]
                dated = AMENDED_DATED.search(after)
                parties = AMENDED_PARTIES.search(after)
                yield Amended(
                    name,
                    " ".join(m.group(0)[: m.start("name") - m.start() + len(name)].split()),
                    form,
                    section_id,
                    m.start() if section_id else 0,
                    parse_date(dated.group("date")) if dated else None,
                    _party_words(parties.group("parties")) if parties else (),
                )


def _party_words(text: str) -> tuple[str, ...]:
    """The words of the parties' names that tell them apart: 'Acme Components, Inc. and Beta
    LLC' -> ('acme', 'components', 'beta')."""
    words = [w.strip(".'’").casefold() for w in re.findall(r"[A-Za-z][\w.&'’-]+", text)]
    return tuple(dict.fromkeys(w for w in words if len(w) > 2 and w not in _PARTY_NOISE))


def _resolved(doc_id: str, named: list[Amended], corpus: Corpus) -> Amended:
    """The first naming, described by every naming of the same name (a title gives the name,
    the opening its date and parties), with the tenant's document it is."""
    first = named[0]
    key = first.name.casefold()
    same = [a for a in named if a.name.casefold() == key]
    dated = next((a.dated for a in same if a.dated), None)
    parties = max((a.parties for a in same), key=len)
    first = replace(first, dated=dated, parties=parties)
    candidates = [(d, c) for d, c in corpus.find_docs(first.name) if d != doc_id]
    candidates = candidates or _by_opening_heading(first.name, doc_id, corpus)
    if not candidates:
        return replace(first, reason="no document of that name in this tenant yet")
    fits = [(_fit(d, first, corpus), i) for i, (d, _) in enumerate(candidates)]
    fit, best = max(fits, key=lambda fi: (1.0 if fi[0] is None else fi[0], -fi[1]))
    target, conf = candidates[best]
    if fit == 0.0:
        reason = f"{target} has that name, but neither that date nor those parties"
        return replace(first, reason=reason)
    certainty = round(conf * (1.0 if fit in (None, 1.0) else 0.9), 3)
    return replace(first, doc_id=target, certainty=certainty)


def _opening(doc_id: str, corpus: Corpus) -> str:
    return " ".join(
        f"{s.heading} {s.text[:2000]}" for s in corpus.by_doc.get(doc_id, [])[:_OPENING_SECTIONS]
    )


def _fit(doc_id: str, amended: Amended, corpus: Corpus) -> float | None:
    """How far a document fits the date and parties an amendment gives its agreement: the
    share of the two (those given) that its effective date or opening confirm; None when the
    amendment gives neither."""
    checks = []
    opening = _opening(doc_id, corpus)
    if amended.dated:
        doc = corpus.docs.get(doc_id)
        stated = {parse_date(m.group(0)) for m in re.finditer(DATE, opening, re.IGNORECASE)}
        checks.append(amended.dated in stated or bool(doc and doc.effective_from == amended.dated))
    if amended.parties:
        found = [w for w in amended.parties if re.search(rf"\b{re.escape(w)}\b", opening, re.I)]
        checks.append(len(found) * 2 >= len(amended.parties))
    return sum(checks) / len(checks) if checks else None


def _by_opening_heading(name: str, doc_id: str, corpus: Corpus) -> list[tuple[str, float]]:
    """Documents whose opening heading is the name, for documents without a title: "the
    Nonexclusive Distributor Agreement" is the one headed "ACME NONEXCLUSIVE DISTRIBUTOR
    AGREEMENT"."""
    wanted = " ".join(re.findall(r"\w+", name.casefold()))
    specific = set(wanted.split()) - DOC_NOUNS
    out = []
    for other, sections in corpus.by_doc.items():
        if other == doc_id or not specific:
            continue
        for s in sections[:_OPENING_SECTIONS]:
            heading = " ".join(re.findall(r"\w+", s.heading.casefold()))
            if specific <= set(heading.split()) and fuzz.token_set_ratio(wanted, heading) >= 90:
                out.append((other, 0.85))
                break
    return out


def amendment_parked(section: SectionInfo, corpus: Corpus) -> list[Unresolved]:
    """An amendment whose agreement the tenant does not hold: parked, with the name and
    description it gives, on the section that names it (the first, for a title or file
    name)."""
    amended = amendment_of(section.doc_id, corpus)
    if amended is None or amended.doc_id is not None:
        return []
    first = corpus.by_doc.get(section.doc_id, [section])[0]
    if (amended.section_id or first.section_id) != section.section_id:
        return []
    return [
        Unresolved(
            section.doc_id,
            section.section_id,
            amended.evidence,
            amended.name,
            amended.name,
            None,
            f"amends {amended.described()}: {amended.reason}",
            amended.position,
            kind="document",
        )
    ]


def _added_sections(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'Section 9.4 set forth below is hereby added to the Agreement': the section amends the
    document named, "the Agreement" being the one an amendment names (or, in an agreement
    with its amendments filed in it, the agreement itself)."""
    edges = []
    for m in SECTION_ADDED.finditer(section.text):
        name = clean_name(m.group("name"))
        target, conf = corpus.find_doc(name) if is_doc_name(name) else (None, 0.0)
        if target is None and name.casefold() in DOC_NOUNS:
            amended = amendment_of(section.doc_id, corpus)
            target, conf = (amended.doc_id, 1.0) if amended else (section.doc_id, 1.0)
        if target:
            edges.append(
                SECTION_ADDED.edge(
                    src_doc_id=section.doc_id,
                    src_section_id=section.section_id,
                    matched_text=m.group(0)[: m.start("name") - m.start() + len(name)],
                    normalized_target=target,
                    confidence=round(_scaled(SECTION_ADDED, conf), 3),
                    dst_doc_id=target,
                    position=m.start(),
                )
            )
    return edges


def parties_of(doc_id: str, corpus: Corpus) -> tuple[frozenset[str], ...]:
    """The parties a document introduces, each by the distinctive words of its name ('by and
    between Acme Components, Inc. ... and Beta LLC' -> {acme, components}, {beta}); none
    when it introduces none (a policy)."""
    cache = _PARTIES.setdefault(corpus, {})
    if doc_id not in cache:
        opening = _opening(doc_id, corpus)
        m = PARTY_HEADS.search(opening)
        heads = []
        if m:
            window = opening[m.end() : m.end() + 600]
            heads = [m.group("party"), *(n.group("party") for n in _NEXT_PARTY.finditer(window))]
        parties = (frozenset(_party_words(h)) for h in heads[:4])
        cache[doc_id] = tuple(p for p in parties if p)
    return cache[doc_id]


def _same_parties(ours: tuple[frozenset[str], ...], theirs: tuple[frozenset[str], ...]) -> bool:
    """Two agreements between the same parties, as far as both name theirs: each party of
    the one that names fewer (two at most) is a party of the other."""
    if not ours or not theirs:
        return True
    fewer, other = sorted((ours, theirs), key=len)
    matched = sum(1 for p in fewer if any(p & q for q in other))
    return matched >= min(len(fewer), 2)


def _prior_agreements(section: SectionInfo, corpus: Corpus) -> list[Edge]:
    """'supersedes all prior agreements': the prior one, when present, is a live document of
    the same title that took effect earlier."""
    m = SUPERSEDES_PRIOR.search(section.text)
    doc = corpus.docs.get(section.doc_id)
    if not m or doc is None or not doc.title or not doc.effective_from:
        return []
    title = re.sub(r"\W+", " ", doc.title).strip().lower()
    parties = parties_of(doc.doc_id, corpus)
    edges = []
    for other in corpus.docs.values():
        if (
            other.doc_id != doc.doc_id
            and other.title
            and re.sub(r"\W+", " ", other.title).strip().lower() == title
            and other.effective_from
            and other.effective_from < doc.effective_from
            and _same_parties(parties, parties_of(other.doc_id, corpus))
        ):
            edges.append(
                _doc_edge(
                    SUPERSEDES_PRIOR, doc.doc_id, other.doc_id, m.group(0), position=m.start()
                )
            )
    return edges
