"""Layer 2 relations as structural rules: every edge the parse makes over a policy and a
licence carries the id of its rule (layer 2, the rule's confidence)."""

import json
import subprocess
import sys
from pathlib import Path

from raag_assets.core.model import SectionInfo
from raag_assets.graph import nlp
from raag_assets.graph.build import layer1
from resources.nlp import load_pipeline
from tests.graph._texts import corpus, licence, policy, rule_ids

_ROOT = Path(__file__).resolve().parents[2]


def test_every_parse_relation_names_its_rule(tmp_path: Path) -> None:
    parse = load_pipeline("en_core_web_sm")
    sections = [*policy(tmp_path), *licence("MPL-2.0")]
    both = corpus(sections)
    edges = []
    for section in sections:
        made, _, mentions = layer1(section, both)
        parsed = [(a, parse(section.text[a:b])) for a, b in nlp.windows(section, made)]
        edges += nlp.layer2(section, parsed, both, mentions, made)
    assert rule_ids(edges) == {
        "references.parse_positional",
        "depends_on.parse_condition",
        "applies_to_scope.parse_subject",
    }
    assert {e.layer for e in edges} == {2}


def test_parsing_only_the_sentences_with_a_cue_makes_the_whole_sections_edges(
    tmp_path: Path,
) -> None:
    """Layer 2 reads a parse within one sentence, so parsing only the sentences with its
    cue words (nlp.windows) loses no edge that parsing whole sections makes."""
    parse = load_pipeline("en_core_web_sm")
    sections = [*policy(tmp_path), *licence("MPL-2.0"), *licence("GPL-3")]
    both = corpus(sections)
    whole, windowed, parsed_chars = [], [], 0
    for section in sections:
        made, _, mentions = layer1(section, both)
        whole += nlp.layer2(section, [(0, parse(section.text))], both, mentions, made)
        spans = nlp.windows(section, made)
        parsed_chars += sum(b - a for a, b in spans)
        parsed = [(a, parse(section.text[a:b])) for a, b in spans]
        windowed += nlp.layer2(section, parsed, both, mentions, made)
    assert len({e.rule for e in whole}) == 3  # each Layer 2 relation is in these texts
    assert windowed == whole
    assert parsed_chars < 0.5 * sum(len(s.text) for s in sections)


def test_a_sentence_without_a_cue_is_not_parsed(tmp_path: Path) -> None:
    sections = policy(tmp_path)
    claims = next(s for s in sections if s.label == "3")
    made, _, _ = layer1(claims, corpus(sections))
    texts = [claims.text[a:b] for a, b in nlp.windows(claims, made)]
    assert any("entitled" in t for t in texts)  # a scope verb and a kind of person
    assert any("preceding section" in t for t in texts)  # a unit and a direction
    assert not any("Journeys made between" in t for t in texts)  # dates only: Layer 1's


def test_sentences_end_at_a_stop_before_a_capital_or_a_blank_line_after_one() -> None:
    text = (
        "The term ends. Either party may renew,\n\nunless terminated; e.g. for cause.\n\n"
        "(b) Next item"
    )
    parts = [text[a:b] for a, b in nlp.sentences(text)]
    assert parts == [
        "The term ends.",
        "Either party may renew,\n\nunless terminated; e.g. for cause.",
        "(b) Next item",
    ]


def test_a_citation_describing_a_conditions_subject_is_no_dependency() -> None:
    """'If, in the circumstances contemplated by Section 2, ...': the citation says which
    circumstances, it puts no condition on Section 2."""
    parse = load_pipeline("en_core_web_sm")
    sections = [
        SectionInfo("c-2", "c", 1, "2", "Disclosure", 1, None, "A party may disclose data."),
        SectionInfo(
            "c-3",
            "c",
            2,
            "3",
            "Notice",
            1,
            None,
            "If a party must disclose data in the circumstances contemplated by Section 2, it "
            "shall give the other party prompt notice.",
        ),
    ]
    both = corpus(sections)
    made, _, mentions = layer1(sections[1], both)
    parsed = [(a, parse(sections[1].text[a:b])) for a, b in nlp.windows(sections[1], made)]
    edges = nlp.layer2(sections[1], parsed, both, mentions, made)
    assert not [e for e in edges if e.edge_type == "depends_on"]


def test_spacy_loads_without_its_command_line_and_parses_the_same():
    """load_pipeline defers spaCy's CLI (weasel, typer, a YAML read): a fresh process parses
    without importing it, the parse is the one a plain `import spacy` gives, and spacy.info
    still works (it imports the CLI at its call)."""
    child = (
        "import json, sys\n"
        "from resources.nlp import load_pipeline\n"
        "doc = load_pipeline('en_core_web_sm')('If the buyer fails to pay under Section 4, the "
        "preceding clause applies.')\n"
        "held = 'weasel' in sys.modules\n"
        "import spacy\n"
        "info = spacy.info()\n"
        "print(json.dumps({'held': held, 'parse': [(t.lemma_, t.pos_, t.dep_, t.head.i) for t in "
        "doc], 'info': 'spacy_version' in info}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, check=True, cwd=_ROOT
    )
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert not got["held"] and got["info"]
    expected = load_pipeline("en_core_web_sm")(
        "If the buyer fails to pay under Section 4, the preceding clause applies."
    )
    assert got["parse"] == [[t.lemma_, t.pos_, t.dep_, t.head.i] for t in expected]


def test_a_scope_subject_is_the_phrase_before_its_verb() -> None:
    parse = load_pipeline("en_core_web_sm")
    text = "A part-time employee is entitled to paid leave."
    section = SectionInfo("p-1", "p", 0, "1", "Leave", 1, None, text)
    scopes = {e.scope for e in nlp._scope_subjects(section, [(0, parse(text))])}
    assert scopes == {"part-time employee"}
    # a subject whose parse runs past its verb is no phrase of a kind of person
    doc = parse("Licensee shall be entitled to exercise control over the sites.")
    verb = next(t for t in doc if t.lemma_ == "entitle")
    subj = next(t for t in doc if t.text == "Licensee")
    subj.head, subj.dep_ = verb, "nsubjpass"
    doc[-2].head = subj  # "sites" hung under the subject: its subtree passes the verb
    section = SectionInfo("c-1", "c", 0, "3", "Control", 1, None, doc.text)
    assert nlp._scope_subjects(section, [(0, doc)]) == []


def _conditions(sections: list[SectionInfo], source: int) -> set[str]:
    """The labels the parse makes section `source` depend on (depends_on.parse_condition)."""
    parse = load_pipeline("en_core_web_sm")
    both = corpus(sections)
    section = sections[source]
    made, _, mentions = layer1(section, both)
    parsed = [(a, parse(section.text[a:b])) for a, b in nlp.windows(section, made)]
    labels = {s.section_id: s.label for s in sections}
    return {
        labels[e.dst_section_id or ""]
        for e in nlp.layer2(section, parsed, both, mentions, made)
        if e.rule == "depends_on.parse_condition"
    }


def test_a_condition_citing_its_own_article_aside_or_as_if_is_no_dependency() -> None:
    """In 7.2 'If an audit reveals a breach of this Section 7' names where the clause stands;
    '(see Section 3)' points aside; 'as if it were part of Section 4' compares. 'if the buyer
    breaches Section 5' still conditions 7.2 on Section 5."""

    def sec(n: int, sid: str, label: str, text: str, parent: str | None = None) -> SectionInfo:
        return SectionInfo(
            f"c-{sid}",
            "c",
            n,
            label,
            "H",
            1 if parent is None else 2,
            None if parent is None else f"c-{parent}",
            text,
        )

    plain = "Each party shall keep records of its sales."
    sections = [
        sec(0, "2", "2", plain),
        sec(1, "3", "3", plain),
        sec(2, "4", "4", plain),
        sec(3, "5", "5", plain),
        sec(4, "7", "7", "Audits."),
        sec(5, "7.1", "7.1", plain, "7"),
        sec(
            6,
            "7.2",
            "7.2",
            "If an audit reveals a breach of this Section 7, the auditor shall report it. "
            "If the server keeps the records (see Section 3), it may delete the copies. "
            "The annex shall be read as if it were part of Section 4. "
            "The seller may suspend delivery if the buyer breaches Section 5.",
            "7",
        ),
    ]
    assert _conditions(sections, 6) == {"5"}
