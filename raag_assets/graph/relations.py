"""Layer 1 for one section: citations (graph/references.py) and the typed edges their
context gives them (overrides, depends_on, amends), and what a citation resolves to."""

import re
from collections.abc import Sequence
from dataclasses import replace

from raag_assets.core.model import FRONT_LABEL, Edge, SectionInfo, Unresolved
from raag_assets.graph.definitions import states_definition
from raag_assets.graph.references import (
    Corpus,
    Mention,
    contents_spans,
    find_mentions,
    is_contents,
    iter_sentences,
)

# Relations by cue family (GRAPH_GOLD.md). A cue stands before the citation in its clause,
# with only other citations and joining words between ("Subject to the provisions of
# subsection (g) of this Section 4.1 and Section 8.2"): matched on the clause with every
# citation masked as NUL characters.
_MASK = "\x00"
_TAIL = (
    r"(?:\s|,|\x00|\b(?:and|or|for|the|other|provisions?|terms?|conditions?|sections?|articles?|"
    r"clauses?|subsections?|paragraphs?|of|in|this|such|hereof|herein|hereunder|any|all|"
    r"applicable|relevant|set\s+forth|contained|foregoing|preceding|to|requirements?|"
    r"restrictions?|procedures?|limitations?)\b|\([^()]{0,60}\))*$"
)
_DOC_SELF = r"(?:Agreement|License|Licence|Contract|Policy|Amendment|Addendum|document|Deed|Terms)"
_OVERRIDE_CUE = re.compile(
    r"\b(?:notwithstanding|in\s+spite\s+of|regardless\s+of|despite|prevails?\s+over|"
    r"takes?\s+precedence\s+over|overrides?|supersedes?|in\s+lieu\s+of|as\s+an\s+exception\s+to|"
    r"without\s+(?:being\s+)?(?:bound\s+by|regard\s+to)|(?:modif(?:y|ies)|var(?:y|ies))\s+the\s+"
    r"(?:obligations?|requirements?|provisions?)\s+(?:in|of|under)|in\s+derogation\s+(?:of|from))"
    r"(?:\s+anything(?:\s+to\s+the\s+contrary)?(?:\s+(?:contained|set\s+forth))?\s+in)?" + _TAIL,
    re.IGNORECASE,
)
# "pursuant to X" names the source of a thing ("sums payable pursuant to Section 5.4", "the
# payments due pursuant to Section 5.2.1"): a condition only inside a condition or exception
# (_DEPENDS_WEAK). "subject to the escalation procedure specified in Section 2.8": the
# condition is the procedure the citation holds.
_HELD_IN = (
    r"(?:the|any|such)\s+(?:[\w-]+\s+){1,4}?(?:set\s+(?:forth|out)|specified|described|provided|"
    r"contained|stated|established)\s+(?:for\s+)?(?:in|under|by)"
)
_DEPENDS_CUE = re.compile(
    rf"\b(?:(?:subject\s+to|in\s+accord(?:ance)?\s+with|in\s+compliance\s+with)\s+{_HELD_IN}|"
    r"subject\s+(?:always\s+|only\s+|further\s+)?to|conditional\s+(?:up)?on|"
    r"contingent\s+(?:up)?on|conditioned\s+(?:up)?on|"
    r"in\s+accord(?:ance)?\s+with|according\s+to|under\s+the\s+terms\s+of|"
    r"to\s+the\s+extent\s+(?:permitted|required|provided|allowed|authori[sz]ed)\s+(?:by|under|in)|"
    r"save\s+(?:as\s+(?:otherwise\s+|expressly\s+)?(?:provided|set\s+(?:out|forth)|stated|"
    r"specified|permitted)\s+(?:in|under|by)|for|where|to\s+the\s+extent)\b[^;.\x00]{0,80}?|"
    r"in\s+compliance\s+with|in\s+the\s+manner\s+(?:set\s+(?:forth|out)|provided|described|specified)\s+in|"
    r"(?:so|as)\s+long\s+as|only\s+(?:if|when)\b[^;.\x00]{0,60}?\b(?:under|in\s+accordance\s+with|"
    r"pursuant\s+to)|if\s+permitted\s+(?:under|by)|"
    r"(?:upon|on|following|after|in\s+the\s+event\s+of)\s+(?:any\s+|the\s+|such\s+)?"
    r"(?:termination|expiration|expiry)\s+(?:of\s+this\s+\w+\s+)?(?:under|pursuant\s+to|"
    r"in\s+accordance\s+with)|except\b[^;.\x00]{0,80}?)" + _TAIL,
    re.IGNORECASE,
)
# "as provided in X" conditions only inside a condition or exception ("unless terminated as
# provided in Article X"); on its own it points at X ("as described in Section 3.1 above").
# So do "pursuant to X" and a party's "rights / obligations under X": on their own they say
# where a thing comes from ("its obligations under Section 4.4", "the rights granted under
# Section 2.1"), not that the clause is conditioned on X.
_DEPENDS_WEAK = re.compile(
    r"\b(?:as\s+(?:otherwise\s+|expressly\s+|specifically\s+)?(?:provided|set\s+(?:forth|out)|"
    r"specified|required|permitted|described|contemplated)\s+(?:for\s+)?(?:in|under|by)|"
    r"pursuant\s+to|(?:rights?|obligations?|duties|benefits?|entitlements?)\s+(?:(?:afforded|"
    r"granted|given|provided|owed)\s+(?:to\s+\S+\s+)?)?under)" + _TAIL,
    re.IGNORECASE,
)
# Complying with X or meeting its conditions is a condition only when a condition is stated
# ("provided that You comply with the requirements of Section 3.1", "only if You meet the
# conditions in Section 4"); "You must comply with Section 4" and "information required to
# comply with Section 7.01" are a duty and a purpose that name X.
_COMPLIES = re.compile(
    r"(?<![\w-])(?<!non-\s)(?:(?:compl(?:y|ies|ying|iance)|conform(?:s|ing|ity|ance)?)\s+with|"
    r"(?:meets?|meeting|satisf(?:y|ies|ying)|fulfil(?:l|ls|s|ling)?)\b)" + _TAIL,
    re.IGNORECASE,
)
_STATED_CONDITION = re.compile(
    r"\b(?:if|unless|provided(?:\s+that|,\s+however)|only\s+(?:if|when|where)|(?:so|as)\s+long\s+as|"
    r"on\s+condition\s+that|conditional|conditioned|contingent|in\s+the\s+event)\b",
    re.IGNORECASE,
)
# "pursuant to" / "in accordance with" after a participle describes a thing ("the licenses
# granted pursuant to Section 6.01"), it conditions nothing, unless a condition frames it.
_DESCRIBED = re.compile(
    r"(?<!\bbe\s)(?<!\bbeen\s)(?<!\bis\s)(?<!\bare\s)"
    r"\b(?:granted|issued|made|given|paid|delivered|executed|entered\s+into|provided|appointed|"
    r"acquired|purchased|sold|received|incurred|exercised|described|defined|afforded|due|"
    r"\w+ed|\w{3,}able)"
    r"(?:\s+(?:to|by)\s+\S+(?:\s+\S+)?)?\s+(?:pursuant\s+to|in\s+accord(?:ance)?\s+with|according\s+to)\b",
    re.IGNORECASE,
)
_WHEN = re.compile(r"\b(?:when|whenever|where|while|once|at\s+all\s+times)\b", re.IGNORECASE)
_CONDITION_MARK = re.compile(
    r"\b(?:if|unless|provided\s+that|on\s+condition\s+that|so\s+long\s+as|until|only|except|"
    r"subject\s+to|requires?|required|conditional|conditioned|contingent|in\s+the\s+event|"
    r"to\s+the\s+extent)\b",
    re.I,
)
# "under X" conditions a permission or duty the clause grants or imposes: "You may convey a
# covered work under sections 3 and 4".
_UNDER_MODAL = re.compile(
    r"\b(?:may|shall|must|will|can)\s+(?:not\s+)?(?:\w+\s+){1,6}?under" + _TAIL,
    re.IGNORECASE,
)
# An explicit condition stays one inside a definition ('"Sub-Section" means ... (but subject
# to Section 9.2 with respect to Related Products)'): the meaning itself is conditioned.
_EXPLICIT_CONDITION = re.compile(
    r"^(?:subject\s+to|conditional\s+(?:up)?on|contingent\s+(?:up)?on|conditioned\s+(?:up)?on)\b",
    re.IGNORECASE,
)
# The citation displaced by what follows it: "Section 6.1 shall be deemed to be amended",
# "the benefits ... pursuant to Section 2.3 ... shall immediately terminate".
_OVERRIDES_AFTER = re.compile(
    r"^[\s,\x00]*(?:(?:and|or|above|hereof)[\s,\x00]*|\([^()]{0,60}\)[\s,\x00]*)*"
    r"(?:shall|will|is|are)\s+(?:hereby\s+)?(?:immediately\s+|automatically\s+)?(?:be\s+deemed\s+"
    r"(?:to\s+be\s+)?(?:amended|modified|varied)|terminate|cease|not\s+apply|be\s+suspended|"
    r"be\s+of\s+no\s+(?:further\s+)?(?:force|effect)|(?:be\s+)?superseded)\b"
    r"|^[\s,\x00]*(?:do|does)\s+not\s+apply\b",
    re.IGNORECASE,
)
# The condition stated after the citation: "so long as Section 8.2 is not invoked".
_DEPENDS_AFTER = re.compile(
    r"^(?:\s*(?:hereof|above|below|of\s+this\s+\w+))?\s*(?:(?:are|is|do|does|shall|become|becomes|"
    r"have\s+been|has\s+been)\s+(?:not\s+)?(?:been\s+)?(?:invoked|apply|applies|applicable|"
    r"satisfied|met|complied\s+with|fulfilled|triggered|exercised)|appl(?:y|ies))\b",
    re.IGNORECASE,
)
# Vague targets are the document itself: "notwithstanding any other provision of this
# Agreement", "notwithstanding the foregoing", "subject to the terms and conditions of this
# Agreement", "except as otherwise provided herein".
_VAGUE_OVERRIDE = re.compile(
    r"\b(?:anything\s+(?:herein\s+|in\s+this\s+\w+\s+)?to\s+the\s+contrary\s+notwithstanding"
    r"|(?:notwithstanding|regardless\s+of|in\s+spite\s+of|despite)\s+(?:anything|any\s+(?:other\s+)?"
    r"(?:provisions?|terms?)|the\s+(?:foregoing|preceding|above)|the\s+(?:other\s+)?provisions\s+of\s+"
    rf"this\s+{_DOC_SELF}))\b(?P<rest>[^.;]{{0,60}})",
    re.IGNORECASE,
)
# The clause itself given precedence over the rest of the document: "to the extent that this
# covenant conflicts with any other covenant contained in this Agreement, ...", "this Section
# shall prevail over any other provision". A rule on which of two other texts wins (the
# Agreement over an exhibit) is no override by the clause that states it.
_OWN_PART = r"this\s+(?:covenant|section|clause|article|provision|paragraph|subsection)"
_OTHER_PARTS = (
    r"(?:any|all|the)\s+other\s+(?:provisions?|covenants?|terms?|sections?|clauses?|"
    r"obligations?|agreements?\s+(?:contained|set\s+forth)\s+(?:in|herein))"
)
_OWN_PRECEDENCE = re.compile(
    rf"\b{_OWN_PART}\b[^.;]{{0,80}}?\b(?:conflicts?|is\s+inconsistent)\s+with\s+{_OTHER_PARTS}\b"
    rf"|\b{_OWN_PART}\s+(?:shall|will)\s+(?:prevail|control|govern|take\s+precedence)\s+over\s+"
    rf"{_OTHER_PARTS}\b",
    re.IGNORECASE,
)
# What makes a vague cue specific after all: a citation, or another document named
# ("notwithstanding any provision of the Enterprise License").
_SPECIFIC = re.compile(
    r"^\W*(?:(?:else\s+)?(?:of|in|contained\s+in|under)\s+(?:the|any)\s+[A-Z]|"
    r"(?:(?:else\s+)?(?:of|in|contained\s+in|under)\s+)?(?:Sections?|Articles?|Clauses?|§))"
)
_AMENDED_AFTER = re.compile(
    r"^\s*(?:is|are)\s+(?:hereby\s+)?(?:amended|supplemented|modified|varied|replaced|"
    r"restated|deleted)\b",
    re.IGNORECASE,
)
_AMENDS = re.compile(
    r"\b(?:amends|supplements|modifies|varies)\s+(?:and\s+\w+\s+)?$", re.IGNORECASE
)


def section_edges(
    section: SectionInfo, corpus: Corpus
) -> tuple[list[Edge], list[Unresolved], list[tuple[int, int, Mention]]]:
    """Layer 1 for one section. Also returns each mention with its sentence span, for Layer 2."""
    text = section.text
    edges: list[Edge] = []
    parked: list[Unresolved] = []
    if is_contents(section):
        return edges, parked, []  # a table of contents cites nothing
    spans = list(iter_sentences(text))
    mentions: list[tuple[int, int, Mention]] = []
    doc = corpus.docs.get(section.doc_id)
    # a document's own title ("Amendment 1 to the Leave Policy") names it, and cites nothing
    is_title = doc is not None and section.heading == doc.title
    heading_mentions = [
        replace(m, start=0, end=0) for m in ([] if is_title else find_mentions(section.heading))
    ]
    found = [*heading_mentions, *find_mentions(text)]
    resolved = [resolve(m, section, corpus) for m in found]
    # a name that resolves to no document here ("the Patent License", a defined term) is not
    # masked as a citation
    masked = _masked(
        text, [m for m, (t, _) in zip(found, resolved, strict=True) if m.kind != "document" or t]
    )
    contents = contents_spans(text)
    containers = _ancestors(section, corpus)
    for m, (targets, unresolved) in zip(found, resolved, strict=True):
        if any(a <= m.start < b for a, b in contents):
            continue  # a table of contents lists headings; it cites nothing
        s_start, s_end = next(((a, b) for a, b in spans if a <= m.start < b), (0, 0))
        mentions.append((s_start, s_end, m))
        parked.extend(unresolved)
        # the clause before the citation: back to the sentence start or the last ";"
        clause_start = max(s_start, masked.rfind(";", s_start, m.start) + 1)
        before = masked[clause_start : m.start]
        after = masked[m.end : s_end]
        sentence = text[s_start:s_end].strip()
        defines_here = states_definition(sentence)
        for dst, confidence, normalized in targets:
            base = {
                "layer": 1,
                "src_doc_id": section.doc_id,
                "src_section_id": section.section_id,
                "matched_text": m.text,
                "normalized_target": normalized,
                "dst_doc_id": dst[0],
                "dst_section_id": dst[1],
                "raw_target": m.raw,
                "position": m.start,
            }
            edges.append(Edge("references", confidence=confidence, **base))
            if m.end == 0:
                continue  # a heading's citation has no clause around it
            # "the rights granted under this Article 4 shall terminate ..." in 4.1: a part does
            # not displace the article it belongs to, as a section does not itself (it may be
            # conditioned on the rest of it: "subject to the other sections of this Article VI")
            own_part = dst[0] == section.doc_id and dst[1] in containers
            if own_part:
                override = None
            elif override := _OVERRIDE_CUE.search(before):
                cue = text[clause_start + override.start() : m.end]
                edges.append(
                    Edge("overrides", confidence=0.9 * confidence, **{**base, "matched_text": cue})
                )
            # what is said after the citation ("... Section 8.2 does not apply") is a condition
            # inside one ("so long as ...", "where ..."), else a displacement of the citation
            conditioned = bool(_CONDITION_MARK.search(before) or _WHEN.search(before))
            after_condition = conditioned and _DEPENDS_AFTER.match(after)
            if after_condition:
                pass
            elif not override and not own_part and (displaced := _OVERRIDES_AFTER.match(after)):
                override = displaced
                edges.append(Edge("overrides", confidence=0.8 * confidence, **base))
            depends = _DEPENDS_CUE.search(before) or _UNDER_MODAL.search(before)
            weak = None
            if depends is None and (weak := _DEPENDS_WEAK.search(before)):
                depends = weak if _framed(before, weak.start()) else None
            if depends is None and (weak := _COMPLIES.search(before)):
                depends = weak if _framed(before, weak.start(), _STATED_CONDITION) else None
            described = depends and _DESCRIBED.search(before[max(0, depends.start() - 40) :])
            # a weak cue after a participle ("sums payable pursuant to Section 5.4") describes a
            # thing even inside a condition ("if an audit reveals underpayment of sums ...")
            if described and (weak or not _CONDITION_MARK.search(before[: depends.start()])):
                depends = None
            if depends and _CONCESSION.search(before, 0, depends.start()):
                depends = None  # "Notwithstanding that such rights may be subject to ...": conceded
            if defines_here and not (depends and _EXPLICIT_CONDITION.match(depends.group())):
                depends = None  # a definition's "except ..." scopes a meaning, not a duty
            if override:
                depends = None
            if depends or (not override and after_condition):
                start = clause_start + depends.start() if depends else m.start
                end = m.end if depends else m.end + after_condition.end()
                edges.append(
                    Edge(
                        "depends_on",
                        confidence=0.85 * confidence,
                        condition=sentence,
                        **{**base, "matched_text": " ".join(text[start:end].split())},
                    )
                )
            # a whole document amended is the document's relation (graph/documents.py)
            if dst[1] and (_AMENDED_AFTER.match(after) or _AMENDS.search(before)):
                edges.append(Edge("amends", confidence=0.9 * confidence, **base))
    edges.extend(vague_relations(section, masked))
    return edges, parked, mentions


# A concessive clause states a fact the rule holds in spite of, not a condition of it.
_CONCESSION = re.compile(
    r"\b(?:notwithstanding|even\s+though|although|despite)\s+(?:that|the\s+fact\s+that)\b"
    r"|\beven\s+(?:if|though)\b|\balthough\b",
    re.IGNORECASE,
)


def _ancestors(section: SectionInfo, corpus: Corpus) -> set[str]:
    out: set[str] = set()
    parent = section.parent_id
    while parent and parent not in out:
        out.add(parent)
        above = corpus.by_id.get(parent)
        parent = above.parent_id if above else None
    return out


def _framed(before: str, at: int, marks_re: re.Pattern[str] = _CONDITION_MARK) -> bool:
    """A condition or exception frames the cue at `at`: its mark stands before it with no other
    citation between ("unless terminated as provided in Article X"). A mark already followed by
    its own citation ("Subject to Section 7.3, ... its obligations under Section 4.4") frames
    that one."""
    marks = list(marks_re.finditer(before, 0, at))
    if not marks or _MASK in before[marks[-1].end() : at]:
        return False
    # a saving ("without limitation of the indemnity obligations under this Section 7") says
    # the citation is left as it is: no condition on it
    return not _SAVING.search(before, marks[-1].end(), at)


_SAVING = re.compile(
    r"\b(?:without\s+(?:limitation\s+of|limiting|prejudice\s+to|derogating\s+from)|"
    r"(?:shall|will|does)\s+not\s+(?:limit|affect|prejudice|impair))\b",
    re.IGNORECASE,
)


def _masked(text: str, mentions: Sequence[Mention]) -> str:
    """The text with each citation blanked to NUL characters and EDGAR underline runs to
    spaces, offsets kept, so cues can be matched across lists of citations."""
    chars = list(re.sub(r"-{3,}", lambda m: " " * len(m.group(0)), text))
    for m in mentions:
        chars[m.start : m.end] = _MASK * (m.end - m.start)
    return "".join(chars)


def vague_relations(section: SectionInfo, masked: str) -> list[Edge]:
    """Overrides whose target is vague ("any other provision of this Agreement", "the
    foregoing"): the target is the document itself (GRAPH_GOLD.md). A condition on the whole
    document ("subject to the terms of this Agreement") is boilerplate, no dependency."""
    edges = []
    found = [
        (m.start(), m.start("rest"))
        for m in _VAGUE_OVERRIDE.finditer(masked)
        # "notwithstanding anything in Section 5": the citation is the target
        if not (_SPECIFIC.match(m.group("rest")) or _MASK in m.group("rest")[:25])
    ]
    found += [(m.start(), m.end()) for m in _OWN_PRECEDENCE.finditer(masked)]
    for start, end in sorted(found):
        edges.append(
            Edge(
                "overrides",
                layer=1,
                src_doc_id=section.doc_id,
                src_section_id=section.section_id,
                matched_text=" ".join(section.text[start:end].split()),
                normalized_target=section.doc_id,
                confidence=0.75,
                dst_doc_id=section.doc_id,
                position=start,
            )
        )
    return edges


Target = tuple[tuple[str, str | None], float, str]  # ((doc_id, section_id), confidence, normalized)


def resolve(
    m: Mention, section: SectionInfo, corpus: Corpus
) -> tuple[list[Target], list[Unresolved]]:
    """Resolve a mention: a named document first, else the citing document."""
    doc_id, doc_conf = section.doc_id, 1.0
    parked: list[Unresolved] = []

    def park(reason: str, label: str | None = None) -> None:
        if m.kind == "named_section":
            target = m.title or m.text  # the heading Layer 3 will look for
        else:
            target = " of the ".join(x for x in (label, m.doc_name) if x) or m.text
        parked.append(
            Unresolved(
                section.doc_id,
                section.section_id,
                m.text,
                target,
                m.doc_name,
                label,
                reason,
                m.start,
                kind=m.kind,
            )
        )

    if m.doc_name:
        doc_id, doc_conf = corpus.find_doc(m.doc_name)
        if doc_id is None and m.kind == "labels" and _names_itself(m.doc_name, section, corpus):
            # "Section 13.1 of the Agreement" with no other document of that bare name: the
            # document that calls itself "the Agreement" (an amendment filed with it included)
            doc_id, doc_conf = section.doc_id, 0.9
        if doc_id is None:
            park(
                f"no document named {m.doc_name!r} in this tenant yet", ", ".join(m.labels) or None
            )
            return [], parked
    if m.kind == "document":
        if doc_id == section.doc_id:
            return [], parked  # a document naming itself
        return [((doc_id, None), 0.9 * doc_conf, doc_id)], parked
    if m.kind == "named_section":
        found, conf = corpus.find_heading(doc_id if m.doc_name else None, m.title or "")
        if found is None:
            park(f"no section headed like {m.title!r}; left for semantic matching")
            return [], parked
        if found.doc_id == section.doc_id and found.label == FRONT_LABEL:
            # 'the section entitled "GNU Free Documentation License"' in a licence of that
            # name: the heading of its title block is the document's own name, not a section
            return [], parked
        return [
            ((found.doc_id, found.section_id), conf * doc_conf, f"{found.doc_id} § {found.label}")
        ], parked
    targets: list[Target] = []
    for label in m.labels:
        found, conf = corpus.find_label(doc_id, label)
        if found is None:
            park(f"no section {label!r} in {doc_id}", label)
            continue
        if found.section_id == section.section_id:
            continue  # "this Section" style self-citation
        ocr = 0.9 if m.raw else 1.0
        targets.append(
            (
                (found.doc_id, found.section_id),
                round(conf * doc_conf * ocr, 3),
                f"{found.doc_id} § {found.label}",
            )
        )
    return targets, parked

def _names_itself(name: str, section: SectionInfo, corpus: Corpus) -> bool:
    """A bare "the Agreement" is the citing document itself, unless that document is an
    amendment: then "the Agreement" is the one it amends, held elsewhere or not at all."""
    if not re.fullmatch(_DOC_SELF, name):
        return False
    doc = corpus.docs.get(section.doc_id)
    first = corpus.by_doc.get(section.doc_id, [section])[0]
    title = " ".join(x for x in (doc.title if doc else "", first.heading, section.doc_id) if x)
    return not re.search(r"\bamend(?:ment|ing)\b", title, re.IGNORECASE)
