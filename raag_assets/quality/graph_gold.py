"""Scoring extracted edges against hand-labelled gold (golden/graph/<genre>/<doc_id>.jsonl,
one JSON line per edge: doc, src, type, dst_doc, dst, term, evidence, confidence; rules in
GRAPH_GOLD.md): precision and recall per edge type, per genre, and for the core relations
(references, defines, uses_term) against the others.

Edges match by (source document, source label, type, target document, target label), or by
the term for `defines` / `uses_term`, or by the value for dates. `applies_to_scope` is the one
fuzzy match: a found scope counts for a gold scope of the same source when the phrases are
alike (rapidfuzz token-set ratio >= SCOPE_MATCH), each used once.

Confidence: a `likely` gold line is a reading an expert could dispute (GRAPH_GOLD.md). Finding
it is right (it counts for precision), missing it is no error: recall is over the `certain`
lines, and the table shows how many `likely` lines were found beside it.
"""

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from raag_assets.core.errors import RaagError
from raag_assets.core.model import DocInfo, ParsedDocument
from raag_assets.graph.build import extract
from raag_assets.graph.keys import term_key
from raag_assets.graph.terms import term_uses
from raag_assets.graph.topics import topic_links
from raag_assets.ingest.parsing import parse_file
from raag_assets.ingest.sectioning import Section, build_sections

CORE = ("references", "defines", "uses_term")
# The other relations the targets are set for; document relations (supersedes, amends) and
# precedes are listed but not in this sum.
OTHER = ("depends_on", "overrides", "applies_to_scope", "applies_to", "effective_on")
TERM_TYPES = ("defines", "uses_term")
DATE_TYPES = ("effective_on", "applies_to")
SCOPE_MATCH = 70
# The block before the first heading: `Title` by the rules, `Front matter` in older sectioning.
_TITLE_LABELS = {"front matter": "Title", "title": "Title"}

Key = tuple[str, ...]


def label(value: Any) -> str:
    """A section label as compared: whitespace-normalised, `Front matter` read as `Title`, a
    leading "Section " dropped; "" for a whole document."""
    if value is None:
        return ""
    text = " ".join(str(value).split()).rstrip(".")
    text = re.sub(r"^(?:section|§)\s*", "", text, flags=re.IGNORECASE)
    if text.casefold() in _TITLE_LABELS:
        return _TITLE_LABELS[text.casefold()]
    # a block named by its heading is the same block in any case ("RECITALS" as printed,
    # "Recitals" as GRAPH_GOLD names it; "ARTICLE II" / "Article II")
    return text if any(c.isdigit() for c in text) else text.casefold()


def edge_key(
    edge_type: str,
    doc: str,
    src: Any,
    dst_doc: Any,
    dst: Any,
    term: Any,
) -> Key:
    """The identity of an edge for scoring (scopes: the phrase is matched separately)."""
    # the Title block's effective date is the document's own (GRAPH_GOLD: one per document)
    if edge_type == "effective_on" and label(src) == "Title":
        src = None
    head = (edge_type, _doc(doc), label(src))
    if edge_type == "defines":
        return (*head, term_key(str(term or dst or "")))
    if edge_type == "uses_term":
        return (*head, _doc(dst_doc or doc), term_key(str(term or "")))
    if edge_type in DATE_TYPES:
        return (*head, str(dst or term or ""))
    if edge_type == "applies_to_scope":
        return (*head, " ".join(str(dst or term or "").casefold().split()))
    return (*head, _doc(dst_doc or ""), label(dst))


def _doc(doc_id: Any) -> str:
    """A doc id as compared: composed (NFC), as raag's ids are; a gold file saved under a
    decomposed name ("RENE\u0301", as some file systems write "É") is the same document."""
    return unicodedata.normalize("NFC", str(doc_id or ""))


@dataclass(frozen=True)
class GoldEdge:
    key: Key
    evidence: str
    confidence: str


@dataclass
class GoldDoc:
    doc_id: str
    genre: str
    path: Path
    edges: list[GoldEdge] = field(default_factory=list)


def load_jsonl(path: Path, genre: str) -> GoldDoc:
    gold = GoldDoc(_doc(path.stem), genre, path)
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: not JSON ({exc})") from exc
        key = edge_key(
            row["type"],
            row["doc"],
            row.get("src"),
            row.get("dst_doc"),
            row.get("dst"),
            row.get("term"),
        )
        gold.edges.append(GoldEdge(key, row.get("evidence") or "", row.get("confidence") or ""))
    return gold


def load_tree(root: Path) -> dict[str, list[GoldDoc]]:
    """Every golden/graph/<genre>/*.jsonl, by genre (sub-folders other than the genres, such
    as `heldout`, are genres of their own)."""
    out: dict[str, list[GoldDoc]] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        docs = [load_jsonl(p, folder.name) for p in sorted(folder.glob("*.jsonl"))]
        if docs:
            out[folder.name] = docs
    return out


def found_keys(edges: Iterable[Mapping[str, Any]]) -> set[Key]:
    """Edge rows (graph_store.edges) as scoring keys."""
    out: set[Key] = set()
    for e in edges:
        t = e["edge_type"]
        if t == "supersedes" and e["src_label"] and e["dst_label"]:
            continue  # section links between versions refine a document-level relation
        if t in TERM_TYPES:
            term = e["term"] or e["normalized_target"]
            out.add(edge_key(t, e["src_doc_id"], e["src_label"], e["dst_doc_id"], None, term))
        elif t in DATE_TYPES:
            # effective_on is one date; applies_to a period "from/to" with open ends empty
            value = e["date_from"].isoformat() if e["date_from"] else ""
            if t == "applies_to":
                value += "/" + (e["date_to"].isoformat() if e["date_to"] else "")
            out.add(edge_key(t, e["src_doc_id"], e["src_label"], None, value, None))
        elif t == "applies_to_scope":
            out.add(edge_key(t, e["src_doc_id"], e["src_label"], None, e["scope"], None))
        else:
            out.add(
                edge_key(t, e["src_doc_id"], e["src_label"], e["dst_doc_id"], e["dst_label"], None)
            )
    return out


@dataclass(frozen=True)
class Score:
    gold: int  # certain gold lines: recall's denominator
    found: int
    true_positives: int  # certain lines found
    missed: tuple[Key, ...] = ()
    spurious: tuple[Key, ...] = ()
    likely: int = 0  # likely gold lines
    likely_found: int = 0  # of them found: right for precision, not counted in recall

    @property
    def precision(self) -> float:
        right = self.true_positives + self.likely_found
        return right / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.gold if self.gold else 1.0

    def __add__(self, other: "Score") -> "Score":
        return Score(
            self.gold + other.gold,
            self.found + other.found,
            self.true_positives + other.true_positives,
            self.missed + other.missed,
            self.spurious + other.spurious,
            self.likely + other.likely,
            self.likely_found + other.likely_found,
        )


def outside_corpus(gold: Sequence[GoldDoc], corpus: set[str]) -> dict[str, int]:
    """Certain gold edges, by type, whose target is a document outside the scored corpus
    ("the Master Services Agreement" cited, not supplied). raag keeps such a citation
    unresolved (`raag unresolved`) until that document arrives in the tenant, never as an
    edge, so they count as misses; the count says how much of the recall that is."""
    known = {_doc(d) for d in corpus} | {g.doc_id for g in gold}
    out: dict[str, int] = {}
    for g in gold:
        for e in g.edges:
            kind = e.key[0]
            if kind in TERM_TYPES or kind in DATE_TYPES or kind == "applies_to_scope":
                continue
            if e.confidence != "likely" and e.key[3] and e.key[3] not in known:
                out[kind] = out.get(kind, 0) + 1
    return out


def _match_scopes(expected: set[Key], got: set[Key]) -> set[tuple[Key, Key]]:
    """Pairs (gold, found) of alike scope phrases of the same source, each used once."""
    pairs = []
    for g in expected:
        for f in got:
            if g[:3] == f[:3]:
                ratio = fuzz.token_set_ratio(g[3], f[3])
                if ratio >= SCOPE_MATCH:
                    pairs.append((-ratio, g, f))
    used_g: set[Key] = set()
    used_f: set[Key] = set()
    out = set()
    for _, g, f in sorted(pairs):
        if g not in used_g and f not in used_f:
            used_g.add(g)
            used_f.add(f)
            out.add((g, f))
    return out


def score(gold: Sequence[GoldDoc], found: set[Key]) -> dict[str, Score]:
    """Per edge type, over the gold documents: found edges count only for sources that have
    a gold file."""
    docs = {g.doc_id for g in gold}
    expected = {e.key for g in gold for e in g.edges}
    # a key labelled both ways (two sources of the same pair) counts as certain
    certain = {e.key for g in gold for e in g.edges if e.confidence != "likely"}
    labelled = {k[0] for k in expected}
    # topically_related has no single right answer: scored only where gold labels it
    got = {k for k in found if k[1] in docs and (k[0] != "topically_related" or k[0] in labelled)}
    out: dict[str, Score] = {}
    for t in sorted({k[0] for k in expected | got}):
        exp_t = {k for k in expected if k[0] == t}
        got_t = {k for k in got if k[0] == t}
        if t == "applies_to_scope":
            pairs = _match_scopes(exp_t, got_t)
            hit = {g for g, _ in pairs}
            spurious = got_t - {f for _, f in pairs}
        else:
            hit = exp_t & got_t
            spurious = got_t - exp_t
        sure = exp_t & certain
        out[t] = Score(
            len(sure),
            len(got_t),
            len(hit & sure),
            tuple(sorted(sure - hit)),
            tuple(sorted(spurious)),
            len(exp_t - sure),
            len(hit - sure),
        )
    return out


def score_rules(gold: Sequence[GoldDoc], edges: Iterable[Mapping[str, Any]]) -> dict[str, Score]:
    """Per rule: the edges it made scored against the gold of their types. Precision is the
    rule's own; recall is the share of its types' gold the rule finds (rules of one type share
    the gold, so their recalls do not add up to the type's)."""
    by_rule: dict[str, list[Mapping[str, Any]]] = {}
    for e in edges:
        by_rule.setdefault(e.get("rule") or "(none)", []).append(e)
    out = {}
    for rule_id, made in sorted(by_rule.items()):
        scores = score(gold, found_keys(made))
        types = {e["edge_type"] for e in made}
        found = combined(scores, types)
        if found.found:  # a rule whose edges all fall outside the gold documents is not scored
            out[rule_id] = found
    return out


def rule_table(scores: Mapping[str, Score], title: str = "rule") -> str:
    """One line a rule: its edges found, right (certain or likely gold), precision, and its
    share of its types' certain gold."""
    lines = [f"{title:<40} {'found':>6} {'right':>6} {'P':>6} {'R':>6}"]
    for rule_id, s in sorted(scores.items()):
        lines.append(
            f"{rule_id:<40} {s.found:>6} {s.true_positives + s.likely_found:>6} "
            f"{s.precision:>6.2f} {s.recall:>6.2f}"
        )
    return "\n".join(lines)


def combined(scores: Mapping[str, Score], types: Iterable[str]) -> Score:
    total = Score(0, 0, 0)
    for t in types:
        if t in scores:
            total = total + scores[t]
    return total


def table(scores: Mapping[str, Score], title: str = "") -> str:
    """gold and tp count certain lines (recall); `likely` is likely lines found / labelled."""
    head = f"{title or 'type':<18} {'gold':>5} {'found':>6} {'tp':>5} {'P':>6} {'R':>6}"
    lines = [f"{head} {'likely':>8}"]

    def row(name: str, s: Score) -> str:
        return (
            f"{name:<18} {s.gold:>5} {s.found:>6} {s.true_positives:>5} "
            f"{s.precision:>6.2f} {s.recall:>6.2f} {f'{s.likely_found}/{s.likely}':>8}"
        )

    for t in (*CORE, *OTHER, *sorted(set(scores) - set(CORE) - set(OTHER))):
        if t in scores:
            lines.append(row(t, scores[t]))
    lines.append(row("= core", combined(scores, CORE)))
    lines.append(row("= other", combined(scores, OTHER)))
    return "\n".join(lines)


def read_file(path: Path) -> tuple[DocInfo, list[Section], ParsedDocument]:
    """One file as the pipeline reads it: its document record, sections and parse."""
    parsed = parse_file(path, 50_000_000)
    m = parsed.meta
    doc = DocInfo(
        m.doc_id,
        parsed.source_name,
        m.title,
        m.doc_type,
        m.authority_level,
        parsed.effective_from,
        m.effective_to,
        m.supersedes,
        m.metadata(),
        effective_evidence=parsed.effective.evidence if parsed.effective else None,
    )
    return doc, build_sections(m.doc_id, parsed.lines, parsed.format), parsed


def extract_files(
    paths: Sequence[Path], parse: Any, refused: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """The graph of some files without a store (Layers 1 and 2, term uses, topic links): for
    quick measurement while developing; `make graph-eval` measures the real pipeline. A file
    the pipeline would refuse is skipped into `refused` (file name -> reason) when given."""
    docs: list[DocInfo] = []
    sections: list[Section] = []
    files = [f for p in paths for f in (sorted(p.iterdir()) if p.is_dir() else [p])]
    for path in files:
        if path.name.endswith(".meta.json"):
            continue
        try:
            doc, secs, _ = read_file(path)
        except RaagError as exc:
            if refused is None:
                raise
            refused[path.name] = str(exc)
            continue
        docs.append(doc)
        sections.extend(secs)
    return extract_read(docs, sections, parse)


def extract_read(
    docs: Sequence[DocInfo], sections: Sequence[Section], parse: Any
) -> list[dict[str, Any]]:
    """extract_files over documents already read (read_file), as edge rows."""
    result = extract(docs, sections, parse)
    cited: dict[str, set[str]] = {}
    for e in result.edges:
        if e.edge_type == "references" and e.dst_doc_id and e.dst_doc_id != e.src_doc_id:
            cited.setdefault(e.src_doc_id, set()).add(e.dst_doc_id)
    superseded = {e.dst_doc_id for e in result.edges if e.edge_type == "supersedes"}
    edges = [
        *result.edges,
        *term_uses(
            sections,
            result.terms,
            cited,
            {d for d in superseded if d},
            [
                (e.src_section_id or "", e.normalized_target)
                for e in result.edges
                if e.edge_type == "defines"
            ],
        ),
        *topic_links(sections, result.topics),
    ]
    labels = {s.section_id: s.label for s in sections}
    return [
        {
            "edge_type": e.edge_type,
            "src_doc_id": e.src_doc_id,
            "src_label": labels.get(e.src_section_id or ""),
            "dst_doc_id": e.dst_doc_id,
            "dst_label": labels.get(e.dst_section_id or ""),
            "term": e.term,
            "date_from": e.date_from,
            "date_to": e.date_to,
            "scope": e.scope,
            "matched_text": e.matched_text,
            "normalized_target": e.normalized_target,
            "confidence": e.confidence,
            "rule": e.rule,
        }
        for e in edges
    ]


def shared_root(repo: Path) -> Path:
    """The shared data folder: $RAAG_SHARED, else `../shared` beside the checkout."""
    import os

    return Path(os.environ.get("RAAG_SHARED") or repo.parent / "shared")


def gold_corpus(repo: Path, genre: str, doc_ids: Sequence[str]) -> list[Path]:
    """The files a genre's gold was labelled on: `corpus.txt` in the genre's folder if present
    (one path a line: relative to the checkout, `$SHARED/...`, or absolute; a folder adds its
    files), else each gold document found by its doc_id (`locate_gold`)."""
    shared = shared_root(repo)
    listing = repo / "golden" / "graph" / genre / "corpus.txt"
    if listing.exists():
        out = []
        for line in listing.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            path = Path(line.replace("$SHARED", str(shared)))
            out.append(_on_disk(path if path.is_absolute() else repo / path))
        return out
    found = locate_gold(repo, doc_ids)
    missing = [d for d in doc_ids if d not in found]
    if missing:
        raise FileNotFoundError(f"gold documents not found for {genre}: {missing}")
    return [found[d] for d in doc_ids]


def _on_disk(path: Path) -> Path:
    """A listed file as the disk spells it: a name typed composed ("É") where the file system
    keeps it decomposed, or the other way round."""
    if path.exists():
        return path
    for form in ("NFC", "NFD"):
        other = Path(unicodedata.normalize(form, str(path)))
        if other.exists():
            return other
    return path


def locate_gold(repo: Path, doc_ids: Sequence[str]) -> dict[str, Path]:
    """Gold documents on this machine by doc_id: among the example corpus, the shared
    dev_legal documents and the system's licence texts, else where the document's hand-made
    section list's "source" says."""
    from raag_assets.core.identity import doc_id_from_name

    shared = shared_root(repo)
    roots = [
        repo / "examples",
        shared / "data" / "dev_legal" / "contracts",
        shared / "data" / "dev_legal" / "rfc",
        Path("/usr/share/common-licenses"),
    ]
    found: dict[str, Path] = {}
    for folder in roots:
        if folder.is_dir():
            for p in sorted(folder.iterdir()):
                if p.is_file():
                    found.setdefault(doc_id_from_name(p.name), p)
    for doc_id in doc_ids:
        if doc_id not in found and (source := structure_source(repo, doc_id)) is not None:
            found[doc_id] = source
    return {d: found[d] for d in doc_ids if d in found}


def structure_source(repo: Path, doc_id: str) -> Path | None:
    """The file named by golden/structure/<doc_id>.json's "source" (absolute, or relative to
    the shared data), if that list and the file exist on this machine."""
    listing = repo / "golden" / "structure" / f"{doc_id}.json"
    if not listing.is_file():  # the blind gold keeps its section lists beside its edges
        listing = repo / "golden" / "graph" / "blind" / "structure" / f"{doc_id}.json"
    if not listing.is_file():
        return None
    source = json.loads(listing.read_text(encoding="utf-8")).get("source")
    if not source:
        return None
    path = Path(source) if Path(source).is_absolute() else shared_root(repo) / source
    if not path.is_file() and not Path(source).is_absolute():
        path = repo / source  # a gold document copied into golden/
    return path if path.is_file() else None


@dataclass(frozen=True)
class TopicPairs:
    """topically_related against labelled section pairs (golden/graph/topic_pairs.jsonl): a
    related pair is found when either section links the other; an unrelated pair linked is a
    false link. There is no single right answer for every pair, so only these are scored."""

    related: int
    related_linked: int
    unrelated: int
    unrelated_linked: int

    def line(self) -> str:
        return (
            f"topically_related on labelled pairs: {self.related_linked}/{self.related} related "
            f"pairs linked (recall {self.related_linked / max(self.related, 1):.2f}), "
            f"{self.unrelated_linked}/{self.unrelated} unrelated pairs linked"
        )


def topic_pairs(path: Path, genre: str, edges: Iterable[Mapping[str, Any]]) -> TopicPairs | None:
    if not path.exists():
        return None
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = [r for r in rows if r["genre"] == genre]
    if not rows:
        return None
    links = {
        frozenset(
            {(e["src_doc_id"], label(e["src_label"])), (e["dst_doc_id"], label(e["dst_label"]))}
        )
        for e in edges
        if e["edge_type"] == "topically_related"
    }
    counts = {True: [0, 0], False: [0, 0]}
    for r in rows:
        pair = frozenset({(r["a_doc"], label(r["a"])), (r["b_doc"], label(r["b"]))})
        counts[r["related"]][0] += 1
        counts[r["related"]][1] += pair in links
    return TopicPairs(*counts[True], *counts[False])
