"""Layer 2: what patterns miss, found in spaCy's POS tags and dependency parse (structure
only, never similarity): conditional clauses, scope phrases, and references phrased without a
number ("the preceding section", "the clause above"). Each relation is a structural rule of
graph.rules (no pattern: the parse decides), whose id its edges carry.

Parsing is most of the graph's cost, and each relation needs its cue words in one sentence, so
only those sentences are parsed (`windows`): a parse never crosses a sentence, and what a
sentence holds no cue of can make no Layer 2 edge."""

import re
from collections.abc import Sequence

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.keys import normalize_scope
from raag_assets.graph.references import Corpus, Mention
from raag_assets.graph.rules import rule

# "the previous paragraph" points inside the same section, so paragraphs are not followed;
# "the foregoing (provisions)" is vague: GRAPH_GOLD sends it to the document, not a neighbour.
_UNIT = {"section", "clause", "subsection", "article"}
_BACK = {"preceding", "previous", "above", "prior"}
_FORWARD = {"following", "next", "below", "subsequent"}
_CONDITION_MARKS = {"if", "unless", "provided", "when", "where"}
# A citation that only says where a thing is described ("if any dispute arises relating to the
# matters described in Section 2.2(b)") names the subject of the condition; the clause is not
# conditioned on the cited section applying.
# So does a thing's source after a participle or adjective ("any sums payable pursuant to
# Section 5.4"); a passive verb ("is terminated pursuant to Section 10.02") is a condition.
DESCRIBES = rule(
    "cue.describes_subject",
    "cue",
    "before a citation in a condition, words that make it describe the condition's subject "
    "('the matters described in', 'sums payable pursuant to'), not a condition on it",
    pattern=(
        r"\b(?:described|specified|set\s+(?:forth|out)|referred\s+to|listed|identified|defined|"
        # "the periods referenced in", "a Station listed on": where the thing is listed
        r"contained|mentioned|contemplated|referenced)\s+(?:in|under|by|on)\s+(?:the\s+)?"
        r"(?:provisions\s+of\s+)?$"
        r"|(?<!\bbe\s)(?<!\bbeen\s)(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)"
        r"\b(?:\w+ed|\w{3,}able|due)\s+(?:pursuant\s+to|under|in\s+accordance\s+with)\s+$"
    ),
    flags=re.IGNORECASE,
    examples=(
        "if a claim concerns the goods listed in ",
        "any fees payable under ",
        "if, in the circumstances contemplated by ",
        "if terminated during any of the periods referenced in ",
        "if a station listed on ",
    ),
    counter=("if this agreement is terminated pursuant to ", "unless otherwise agreed in "),
)
# "as if they were part of Section 10", "even if": a comparison or a concession, no condition.
NOT_A_CONDITION = rule(
    "cue.not_a_condition",
    "cue",
    "the word before a condition mark makes it a comparison or a concession ('as if', 'even "
    "if'): the citations in its clause are no conditions (veto)",
    pattern=r"\b(?:as|even)\s*$",
    flags=re.IGNORECASE,
    examples=("as ", "Even "),
    counter=("only ", "and "),
)
# "if the server implements the namespace convention (section 5.1.2)": a citation set in
# parentheses points the reader to where a thing is told, it conditions nothing.
ASIDE = rule(
    "cue.citation_aside",
    "cue",
    "a citation alone in parentheses ('(section 5.1.2)', '(see Section 4)'): a pointer, not a "
    "condition, inside a conditional clause (veto)",
    pattern=r"\(\s*(?:see\s+(?:also\s+)?)?$",
    flags=re.IGNORECASE,
    examples=("the namespace convention (", "the fee (see also "),
    counter=("subject to ", "if the buyer pays under "),
)
# "If any such audit reveals non-compliance with this Section 9" in 9.4: the section's own
# article is where the clause stands, not what it depends on.
OWN_CONTAINER = rule(
    "cue.own_container",
    "cue",
    "a citation in a conditional clause of the article, section or exhibit that contains the "
    "source ('this Section 9' in 9.4, 'this Exhibit D' in D.10): no dependency (veto)",
    layer=2,
)
POSITIONAL = rule(
    "references.parse_positional",
    "citation",
    "a section / clause / article named by position, not number ('the preceding section', "
    "'the clause below'): the parse's modifiers give the direction, the neighbour is the target",
    edge_type="references",
    confidence=0.7,
    layer=2,
    examples=("The limits in the preceding section apply.", "as set out in the clause below"),
)
CONDITION = rule(
    "depends_on.parse_condition",
    "cue",
    "a citation inside an if / unless / provided / when / where clause (the parse's 'mark' and "
    "its head's subtree): the section depends on the cited one",
    edge_type="depends_on",
    confidence=0.75,
    layer=2,
    examples=("If the buyer fails to pay under Section 4, the seller may suspend delivery.",),
)
SCOPE_SUBJECT = rule(
    "applies_to_scope.parse_subject",
    "scope",
    "the modified subject of 'is entitled / eligible / qualifies' whose head is a kind of "
    "person: the rule's scope",
    edge_type="applies_to_scope",
    confidence=0.75,
    layer=2,
    examples=("A part-time employee is entitled to paid leave.",),
)
_SCOPE_HEADS = {
    "employee",
    "staff",
    "worker",
    "contractor",
    "manager",
    "member",
    "user",
    "licensee",
    "recipient",
    "customer",
    "student",
    "resident",
    "person",
}
_SCOPE_VERBS = {"entitle", "eligible", "qualify", "entitled"}

# The words each relation starts from, as any of their forms may be written (a superset of
# the lemmas the parse checks): a sentence without them is not parsed.
_UNIT_WORD = re.compile(r"\b(?:sub)?(?:section|clause|article)s?\b", re.IGNORECASE)
_DIRECTION_WORD = re.compile(rf"\b(?:{'|'.join(sorted(_BACK | _FORWARD))})\b", re.IGNORECASE)
_MARK_WORD = re.compile(rf"\b(?:{'|'.join(sorted(_CONDITION_MARKS))})\b", re.IGNORECASE)
_SCOPE_VERB_WORD = re.compile(r"\b(?:entitl|eligib|qualif)", re.IGNORECASE)
_SCOPE_HEAD_WORD = re.compile(rf"\b(?:{'|'.join(sorted(_SCOPE_HEADS))})", re.IGNORECASE)
# A sentence ends at . ! ? (closing quotes or brackets after it) before what starts one, or at
# a blank line after . ! ? : ; (text from a PDF breaks sentences with blank lines: "unless
# this\n\nAgreement is terminated"). A split too many would cut a parse short, one too few
# only parses more, so abbreviations before a lower-case word ("e.g. the") are not ends.
_SENTENCE_END = re.compile(
    r"(?<=[.!?])[\"”’)\]]*\s+(?=[\"“‘(\[]?[A-Z0-9])|(?<=[.!?:;])[\"”’)\]]*[ \t]*\n[ \t]*\n\s*"
)

Window = tuple[int, object]  # (offset in the section's text, spacy.tokens.Doc of that part)


def sentences(text: str) -> list[tuple[int, int]]:
    """The text's sentences as (start, end) offsets, surrounding white space left out."""
    out, start = [], 0
    for m in [*_SENTENCE_END.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        if piece.strip():
            out.append((start + lead, start + len(piece.rstrip())))
        start = m.end() if m else end
    return out


def windows(section: SectionInfo, layer1: Sequence[Edge]) -> list[tuple[int, int]]:
    """The parts of the section's text Layer 2 must parse: each run of consecutive sentences
    holding a cue of a relation (a unit and a direction word; a condition word and a
    citation Layer 1 found; a scope verb and a kind of person)."""
    text = section.text
    cited = [e.position for e in _citations(text, layer1)]
    spans: list[tuple[int, int]] = []
    for start, end in sentences(text):
        part = text[start:end]
        if (
            (_UNIT_WORD.search(part) and _DIRECTION_WORD.search(part))
            or (_MARK_WORD.search(part) and any(start <= p < end for p in cited))
            or (_SCOPE_VERB_WORD.search(part) and _SCOPE_HEAD_WORD.search(part))
        ):
            if spans and not text[spans[-1][1] : start].strip():
                spans[-1] = (spans[-1][0], end)
            else:
                spans.append((start, end))
    return spans


def layer2(
    section: SectionInfo,
    parsed: Sequence[Window],
    corpus: Corpus,
    mentions: Sequence[tuple[int, int, Mention]],
    layer1: Sequence[Edge],
) -> list[Edge]:
    """Layer 2 over the parsed parts of a section (`windows`, in text order)."""
    edges = _positional_references(section, parsed, corpus)
    edges += _conditional_dependencies(
        section, parsed, _containers(section, corpus), [*layer1, *edges]
    )
    edges += _scope_subjects(section, parsed)
    return edges


def _citations(text: str, layer1: Sequence[Edge]) -> list[Edge]:
    # citations in the heading (position 0, not in the text) stand outside any clause
    return [
        e
        for e in layer1
        if e.edge_type == "references" and text.startswith(e.matched_text, e.position)
    ]


def _neighbour(section: SectionInfo, corpus: Corpus, step: int) -> SectionInfo | None:
    siblings = [s for s in corpus.by_doc.get(section.doc_id, []) if s.text]
    index = next((i for i, s in enumerate(siblings) if s.section_id == section.section_id), None)
    if index is None or not 0 <= index + step < len(siblings):
        return None
    return siblings[index + step]


def _positional_references(
    section: SectionInfo, parsed: Sequence[Window], corpus: Corpus
) -> list[Edge]:
    edges = []
    for offset, doc, token in _tokens(parsed):
        if token.lemma_.lower() not in _UNIT or token.pos_ != "NOUN":
            continue
        if token.i + 1 < len(doc) and doc[token.i + 1].like_num:
            continue  # "sections 2 and 3 above": cited by number (Layer 1), not by position
        words = {c.lower_ for c in token.children if c.dep_ in ("amod", "advmod", "compound")}
        if token.i + 1 < len(doc) and doc[token.i + 1].lower_ in ("above", "below"):
            words.add(doc[token.i + 1].lower_)
        direction = -1 if words & _BACK else 1 if words & _FORWARD else 0
        if not direction:
            continue
        target = _neighbour(section, corpus, direction)
        if target is None:
            continue
        span = doc[
            min(t.i for t in token.subtree) : max(token.i + 1, max(t.i for t in token.subtree) + 1)
        ]
        edges.append(
            POSITIONAL.edge(
                src_doc_id=section.doc_id,
                src_section_id=section.section_id,
                matched_text=span.text,
                normalized_target=f"{target.doc_id} § {target.label}",
                dst_doc_id=target.doc_id,
                dst_section_id=target.section_id,
                position=offset + span.start_char,
            )
        )
    return edges


def _containers(section: SectionInfo, corpus: Corpus) -> set[str]:
    """The ids of the sections that contain `section` (its article, its exhibit ...)."""
    out: set[str] = set()
    parent = section.parent_id
    while parent and parent not in out:
        out.add(parent)
        above = corpus.by_id.get(parent)
        parent = above.parent_id if above else None
    return out


def _conditions_on(text: str, ref: Edge, section: SectionInfo, containers: set[str]) -> bool:
    """Whether a citation inside a conditional clause conditions it: not when it describes
    the condition's subject, stands aside in parentheses, or is the source's own container."""
    before = text[max(0, ref.position - 40) : ref.position]
    if DESCRIBES.search(before) or ASIDE.search(before):
        return False
    return not (ref.dst_doc_id == section.doc_id and ref.dst_section_id in containers)


def _conditional_dependencies(
    section: SectionInfo,
    parsed: Sequence[Window],
    containers: set[str],
    layer1: Sequence[Edge],
) -> list[Edge]:
    """A reference inside an "if / unless / provided" clause: the section depends on it."""
    have = {(e.dst_section_id, e.dst_doc_id) for e in layer1 if e.edge_type == "depends_on"}
    text = section.text
    refs = _citations(text, layer1)
    edges = []
    for offset, doc, token in _tokens(parsed):
        if token.dep_ != "mark" or token.lower_ not in _CONDITION_MARKS:
            continue
        if token.i > 0 and NOT_A_CONDITION.search(doc[token.i - 1].text):
            continue  # "even if ...": conceded; "as if ...": compared; no condition
        clause = list(token.head.subtree)
        start = offset + clause[0].idx
        end = offset + clause[-1].idx + len(clause[-1].text)
        for ref in refs:
            if not _conditions_on(text, ref, section, containers):
                continue
            if start <= ref.position < end and (ref.dst_section_id, ref.dst_doc_id) not in have:
                have.add((ref.dst_section_id, ref.dst_doc_id))
                edges.append(
                    CONDITION.edge(
                        src_doc_id=section.doc_id,
                        src_section_id=section.section_id,
                        matched_text=ref.matched_text,
                        normalized_target=ref.normalized_target,
                        dst_doc_id=ref.dst_doc_id,
                        dst_section_id=ref.dst_section_id,
                        condition=text[start:end],
                        position=ref.position,
                    )
                )
    return edges


def _scope_subjects(section: SectionInfo, parsed: Sequence[Window]) -> list[Edge]:
    """'A Full-Time Employee is entitled to ...', 'An employee who is pregnant is entitled':
    the subject, with its modifiers, is the rule's scope."""
    edges = []
    for offset, doc, token in _tokens(parsed):
        if token.lemma_.lower() not in _SCOPE_VERBS:
            continue
        verb = token if token.pos_ in ("VERB", "AUX") else token.head
        for subj in (
            c for c in [*verb.children, *token.children] if c.dep_ in ("nsubj", "nsubjpass")
        ):
            if subj.lemma_.lower() not in _SCOPE_HEADS:
                continue
            words = [t for t in subj.subtree if t.dep_ not in ("det", "punct")]
            if len(words) < 2:
                continue  # a bare "employee" scopes nothing
            if words[-1].i >= token.i:
                continue  # a subject that runs past its verb is a misparse, not a phrase
            phrase = doc[words[0].i : words[-1].i + 1].text
            scope = normalize_scope(phrase)
            edges.append(
                SCOPE_SUBJECT.edge(
                    src_doc_id=section.doc_id,
                    src_section_id=section.section_id,
                    matched_text=doc[words[0].i : token.i + 1].text,
                    normalized_target=scope,
                    scope=scope,
                    position=offset + words[0].idx,
                )
            )
    return edges


def _tokens(parsed: Sequence[Window]):
    """(offset, doc, token) for every token of the parsed parts, in text order."""
    for offset, doc in parsed:
        for token in doc:  # type: ignore[attr-defined]
            yield offset, doc, token
