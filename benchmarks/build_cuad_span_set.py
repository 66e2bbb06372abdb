"""Build golden/spans/cuad.json: the span-labelled retrieval set over CUAD's 422 development
contracts (../shared/data/cuad), both halves of the fixed split.

For every labelled contract and every category whose answer is a clause (the questions are in
raag_assets/quality/cuad_spans.py), one query "Consider the <Document Name> between <Parties>;
<question>", its snippets the annotated clauses located in the file as open() reads it (a
clause CUAD joined from pieces with "<omitted>" gives one span per piece). Each test carries
its category and its half ("look" or "scored", `cuad.part_of`). `raag eval golden/spans/cuad.json`
and `make search-eval` score a fixed subsample of each half (cuad_spans.sample).

Run: .venv/bin/python benchmarks/build_cuad_span_set.py
"""

import json
import os
from collections import Counter
from pathlib import Path

from raag_assets.quality.cuad import load_labels
from raag_assets.quality.cuad_spans import build

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("RAAG_SHARED", ROOT.parent / "shared"))
CUAD = SHARED / "data" / "cuad"
OUT = ROOT / "golden" / "spans" / "cuad.json"


def main() -> None:
    tests, missing = build(load_labels(CUAD / "labels.jsonl"), CUAD / "contracts")
    body = {
        "corpus": "../shared/data/cuad/contracts",
        "source": "CUAD v1 annotations (../shared/data/cuad/labels.jsonl), located by "
        "benchmarks/build_cuad_span_set.py",
        "parts": "look / scored: raag_assets.quality.cuad.part_of (SHA-256 of the file name)",
    }
    # One test a line: the file stays readable and its diffs small.
    lines = ",\n".join(json.dumps(t, ensure_ascii=False) for t in tests)
    head = json.dumps(body, indent=1, ensure_ascii=False)[:-2]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(f'{head},\n "tests": [\n{lines}\n]}}\n', encoding="utf-8")
    parts = Counter(t["part"] for t in tests)
    files = {
        p: len({t["snippets"][0]["file_path"] for t in tests if t["part"] == p}) for p in parts
    }
    print(
        f"{len(tests)} tests {dict(parts)} over contracts {files}, "
        f"{missing} clause pieces not found -> {OUT}"
    )


if __name__ == "__main__":
    main()
