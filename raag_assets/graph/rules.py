"""Extraction rules as data (spaCy's span-ruler tables, LexNLP's trigger lists): every rule
that can make an edge is a named `Rule` — its id, what it recognises, the edge type and
confidence of what it makes, and examples that are also its tests — registered in one table,
`RULES`. Every edge carries the id of the rule that made it (`Edge.rule`), so `raag edges`,
the Dagster UI samples, search explanations and `make graph-eval` name the rule behind an edge.

Rule ids are `<edge type or family>.<form>`: "references.section_label",
"defines.quoted_means", "depends_on.subject_to". A rule with a `pattern` is a regex over a
section's text; a rule without one is structural (a spaCy parse, a file name, metadata,
embedding similarity) and documents itself with `doc` and its examples.

The whole table, the heading rules of ingest/sectioning.py with it, is
`raag_assets.quality.rules.all_rules()`. The examples are checked by
tests/graph/test_rules.py: each `examples` text must match the pattern, each `counter` text
must not. They are short, general sentences of the kind the rule
is for, never one document's wording.
"""

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from raag_assets.core.model import EDGE_TYPES, Edge

KINDS = (
    "citation",  # a reference to a section or document
    "cue",  # a cue family for depends_on / overrides / precedes
    "scope",  # who or what a section applies to
    "definition",  # a defined term
    "term",  # uses of defined terms, and exclusions from the terms of art
    "date",  # effective dates and periods
    "document",  # relations between whole documents (versions, amendments, supersession)
    "heading",  # section headings (ingest/sectioning.py)
    "topic",  # topical similarity
    "semantic",  # Layer 3: embedding similarity
)


@dataclass(frozen=True)
class Rule:
    id: str
    kind: str
    doc: str  # one line: what it recognises
    edge_type: str | None = None  # None: the rule finds spans or excludes, it makes no edge
    confidence: float | None = None  # of the edges it makes (LexNLP's per-match probability)
    layer: int = 1
    pattern: re.Pattern[str] | None = None
    examples: tuple[str, ...] = ()  # texts the pattern matches
    counter: tuple[str, ...] = ()  # texts it must not match

    def edge(self, **fields: object) -> Edge:
        """An edge made by this rule: its type, layer, confidence and id, unless given."""
        fields.setdefault("edge_type", self.edge_type)
        fields.setdefault("layer", self.layer)
        fields.setdefault("confidence", self.confidence)
        return Edge(rule=self.id, **fields)  # type: ignore[arg-type]

    def stamp(self, edge: Edge) -> Edge:
        """An edge another function built, marked as this rule's."""
        return edge if edge.rule == self.id else replace(edge, rule=self.id)

    @property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern of a pattern rule, for what `finditer`/`search` leave out
        (`match`, `fullmatch`, `sub`, pos and endpos)."""
        if self.pattern is None:
            raise TypeError(f"rule {self.id} is structural: it has no pattern")
        return self.pattern

    @property
    def certainty(self) -> float:
        """The confidence of the edges the rule makes; a rule that makes none has none."""
        if self.confidence is None:
            raise TypeError(f"rule {self.id} makes no edge: it has no confidence")
        return self.confidence

    def finditer(self, text: str, pos: int = 0) -> Iterator[re.Match[str]]:
        if self.pattern is None:
            raise TypeError(f"rule {self.id} is structural: it has no pattern")
        return self.pattern.finditer(text, pos)

    def search(self, text: str) -> re.Match[str] | None:
        if self.pattern is None:
            raise TypeError(f"rule {self.id} is structural: it has no pattern")
        return self.pattern.search(text)


@dataclass
class RuleTable:
    """Every rule by id, in registration order (the modules' order, then their tables')."""

    rules: dict[str, Rule] = field(default_factory=dict)

    def add(self, *rules: Rule) -> tuple[Rule, ...]:
        for r in rules:
            if r.id in self.rules:
                raise ValueError(f"rule {r.id} is registered twice")
            if r.kind not in KINDS:
                raise ValueError(f"rule {r.id}: kind {r.kind!r} is not one of {KINDS}")
            if r.edge_type is not None and r.edge_type not in EDGE_TYPES:
                raise ValueError(f"rule {r.id}: edge type {r.edge_type!r} is not an edge type")
            self.rules[r.id] = r
        return rules

    def __getitem__(self, rule_id: str) -> Rule:
        return self.rules[rule_id]

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules.values())

    def __len__(self) -> int:
        return len(self.rules)

    def of_kind(self, kind: str) -> list[Rule]:
        return [r for r in self if r.kind == kind]


RULES = RuleTable()


def rule(
    id: str,
    kind: str,
    doc: str,
    *,
    edge_type: str | None = None,
    confidence: float | None = None,
    layer: int = 1,
    pattern: str | re.Pattern[str] | None = None,
    flags: int = 0,
    examples: Sequence[str] = (),
    counter: Sequence[str] = (),
) -> Rule:
    """Define and register one rule; a string pattern is compiled with `flags`."""
    compiled = re.compile(pattern, flags) if isinstance(pattern, str) else pattern
    (made,) = RULES.add(
        Rule(
            id=id,
            kind=kind,
            doc=doc,
            edge_type=edge_type,
            confidence=confidence,
            layer=layer,
            pattern=compiled,
            examples=tuple(examples),
            counter=tuple(counter),
        )
    )
    return made
