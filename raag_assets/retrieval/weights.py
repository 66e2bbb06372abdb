"""The factors search() scores by: each boost and penalty of graph-aware scoring, the decay
of a section expansion brings in (its source's score times this), and the exponent that
calibrates retrieval's relevance against them (a section's relevance is its fused retrieval
score over the best hit's, to this power: RRF scores differ by a few thousandths between rank
1 and rank 20, so without it a 1.2 boost outweighs twenty ranks). They are data
(weights.json), fitted on the look half of the written question sets by
benchmarks/fit_weights.py, so a factor's size is measured, not chosen."""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("weights.json")


@dataclass(frozen=True)
class Weights:
    boost: dict[str, float] = field(default_factory=dict)
    penalty: dict[str, float] = field(default_factory=dict)
    decay: dict[str, float] = field(default_factory=dict)
    relevance: dict[str, float] = field(
        default_factory=lambda: {"exponent": 1.0, "source_cap": 1000.0}
    )

    def with_factor(self, group: str, kind: str, value: float) -> "Weights":
        """A copy with one factor changed (fitting tries them one at a time)."""
        table = {**getattr(self, group), kind: value}
        return Weights(**{**self.as_dict(), group: table})

    def as_dict(self) -> dict[str, dict[str, float]]:
        return {
            "boost": dict(self.boost),
            "penalty": dict(self.penalty),
            "decay": dict(self.decay),
            "relevance": dict(self.relevance),
        }


def load(path: Path = PATH) -> Weights:
    raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return Weights(raw["boost"], raw["penalty"], raw["decay"], raw["relevance"])


WEIGHTS = load()
