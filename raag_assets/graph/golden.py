"""Scoring extracted edges against hand-labelled gold edges (golden/graph/*.yaml):
precision and recall per edge type."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from raag_assets.graph.patterns import term_key

TERM_TYPES = ("defines", "uses_term")


@dataclass(frozen=True)
class Score:
    gold: int
    found: int
    true_positives: int
    missed: tuple[tuple[str, str], ...]
    spurious: tuple[tuple[str, str], ...]

    @property
    def precision(self) -> float:
        return self.true_positives / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.gold if self.gold else 1.0


@dataclass(frozen=True)
class GoldSet:
    corpus: list[str]
    types: dict[str, set[tuple[str, str]]]
    only: dict[str, list[str]]  # edge type -> source documents it was labelled for


def load(path: Path) -> GoldSet:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    corpus = raw["corpus"] if isinstance(raw["corpus"], list) else [raw["corpus"]]
    types = {t: {_key(t, src, dst) for src, dst in pairs} for t, pairs in raw["types"].items()}
    return GoldSet(corpus, types, raw.get("only", {}))


def _key(edge_type: str, src: str, dst: str) -> tuple[str, str]:
    dst = str(dst)
    return (
        " ".join(src.split()),
        term_key(dst) if edge_type in TERM_TYPES else " ".join(dst.split()),
    )


def _endpoint(doc_id: str | None, label: str | None) -> str:
    return f"{doc_id} § {label}" if label else str(doc_id)


def found_keys(edges: Iterable[Mapping[str, Any]]) -> dict[str, set[tuple[str, str]]]:
    """Edge rows (graph_store.edges) as (source, target) keys per type, the gold's shape."""
    out: dict[str, set[tuple[str, str]]] = {}
    for e in edges:
        t = e["edge_type"]
        src = _endpoint(e["src_doc_id"], e["src_label"])
        if t == "supersedes":  # a document-level relation; section links only refine it
            out.setdefault(t, set()).add(_key(t, e["src_doc_id"], e["dst_doc_id"] or ""))
            continue
        if t in TERM_TYPES:
            dst = e["normalized_target"]
        elif e["dst_doc_id"]:
            dst = _endpoint(e["dst_doc_id"], e["dst_label"])
        elif t == "applies_to_scope":
            dst = e["scope"]
        else:
            dst = e["normalized_target"]
        out.setdefault(t, set()).add(_key(t, src, dst))
    return out


def score(gold: GoldSet, found: dict[str, set[tuple[str, str]]]) -> dict[str, Score]:
    out = {}
    for t, expected in gold.types.items():
        got = found.get(t, set())
        if t in gold.only:
            docs = gold.only[t]
            got = {k for k in got if k[0].split(" § ")[0] in docs}
        tp = expected & got
        out[t] = Score(
            len(expected),
            len(got),
            len(tp),
            tuple(sorted(expected - got)),
            tuple(sorted(got - expected)),
        )
    return out


def table(scores: Mapping[str, Score]) -> str:
    lines = [f"{'type':<18} {'gold':>5} {'found':>6} {'P':>6} {'R':>6}"]
    for t, s in scores.items():
        lines.append(f"{t:<18} {s.gold:>5} {s.found:>6} {s.precision:>6.2f} {s.recall:>6.2f}")
    return "\n".join(lines)
