"""Layer 2: what patterns miss, found in spaCy's POS tags and dependency parse (structure
only, never similarity): conditional clauses, scope phrases, and references phrased without a
number ("the preceding section", "the clause above"). Each relation is a structural rule of
graph.rules (no pattern: the parse decides), whose id its edges carry."""

import re
from collections.abc import Sequence

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.keys import normalize_scope
from raag_assets.graph.references import Corpus, Mention
from raag_assets.graph.rules import rule
from raag_assets.graph.topics import topics_from_chunks

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
        r"contained|mentioned)\s+(?:in|under|by)\s+(?:the\s+)?(?:provisions\s+of\s+)?$"
        r"|(?<!\bbe\s)(?<!\bbeen\s)(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)"
        r"\b(?:\w+ed|\w{3,}able|due)\s+(?:pursuant\s+to|under|in\s+accordance\s+with)\s+$"
    ),
    flags=re.IGNORECASE,
    examples=("if a claim concerns the goods listed in ", "any fees payable under "),
    counter=("if this agreement is terminated pursuant to ", "unless otherwise agreed in "),
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


def layer2(
    section: SectionInfo,
    doc,  # spacy.tokens.Doc of section.text
    corpus: Corpus,
    mentions: Sequence[tuple[int, int, Mention]],
    layer1: Sequence[Edge],
) -> list[Edge]:
    edges = _positional_references(section, doc, corpus)
    edges += _conditional_dependencies(section, doc, mentions, [*layer1, *edges])
    edges += _scope_subjects(section, doc)
    return edges


def topics(doc) -> list[str]:
    return topics_from_chunks([_words(chunk) for chunk in doc.noun_chunks])


def _words(chunk) -> list[tuple[str, str, bool]]:
    """A noun chunk's words as (lemma, pos, is_stop), with hyphenated words kept whole:
    spaCy splits "Full-Time" into Full / - / Time, a reader sees one word "full-time"."""
    out: list[tuple[str, str, bool]] = []
    glue = False
    for t in chunk:
        if t.text in ("-", "‐", "–") and not t.whitespace_ and out and t.i > chunk.start:
            glue = not chunk.doc[t.i - 1].whitespace_
            continue
        if glue and out:
            lemma, _, _ = out[-1]
            out[-1] = (f"{lemma}-{t.text.lower()}", t.pos_, False)
        else:
            out.append((t.lemma_, t.pos_, t.is_stop))
        glue = False
    return out


def _neighbour(section: SectionInfo, corpus: Corpus, step: int) -> SectionInfo | None:
    siblings = [s for s in corpus.by_doc.get(section.doc_id, []) if s.text]
    index = next((i for i, s in enumerate(siblings) if s.section_id == section.section_id), None)
    if index is None or not 0 <= index + step < len(siblings):
        return None
    return siblings[index + step]


def _positional_references(section: SectionInfo, doc, corpus: Corpus) -> list[Edge]:
    edges = []
    for token in doc:
        if token.lemma_.lower() not in _UNIT or token.pos_ != "NOUN":
            continue
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
                position=span.start_char,
            )
        )
    return edges


def _conditional_dependencies(
    section: SectionInfo, doc, mentions: Sequence[tuple[int, int, Mention]], layer1: Sequence[Edge]
) -> list[Edge]:
    """A reference inside an "if / unless / provided" clause: the section depends on it."""
    have = {(e.dst_section_id, e.dst_doc_id) for e in layer1 if e.edge_type == "depends_on"}
    # citations in the heading (position 0, not in the text) stand outside any clause
    refs = [
        e
        for e in layer1
        if e.edge_type == "references" and doc.text.startswith(e.matched_text, e.position)
    ]
    edges = []
    for token in doc:
        if token.dep_ != "mark" or token.lower_ not in _CONDITION_MARKS:
            continue
        if token.i > 0 and doc[token.i - 1].lower_ == "even":
            continue  # "even if ...": conceded, not a condition
        clause = list(token.head.subtree)
        start, end = clause[0].idx, clause[-1].idx + len(clause[-1].text)
        for ref in refs:
            if DESCRIBES.search(doc.text[max(0, ref.position - 40) : ref.position]):
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
                        condition=doc.text[start:end],
                        position=ref.position,
                    )
                )
    return edges


def _scope_subjects(section: SectionInfo, doc) -> list[Edge]:
    """'A Full-Time Employee is entitled to ...', 'An employee who is pregnant is entitled':
    the subject, with its modifiers, is the rule's scope."""
    edges = []
    for token in doc:
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
            phrase = doc[words[0].i : words[-1].i + 1].text
            scope = normalize_scope(phrase)
            edges.append(
                SCOPE_SUBJECT.edge(
                    src_doc_id=section.doc_id,
                    src_section_id=section.section_id,
                    matched_text=doc[words[0].i : token.i + 1].text,
                    normalized_target=scope,
                    scope=scope,
                    position=words[0].idx,
                )
            )
    return edges
