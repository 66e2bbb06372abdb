#!/usr/bin/env python3
"""Guard for sectioning changes: raag's section labels of every CUAD contract, dumped to a
file, and two dumps compared.

  PYTHONPATH=<checkout> .venv/bin/python scripts/cuad_section_labels.py dump OUT.tsv
  .venv/bin/python scripts/cuad_section_labels.py diff BEFORE.tsv AFTER.tsv

`dump` writes one line per contract (name, section count, labels). `diff` prints the total
sections and how many contracts changed; label changes are printed only for the look half
(the scored half is counted, never shown: raag_assets.quality.cuad.part_of).
"""

import difflib
import sys
from pathlib import Path

from raag_assets.quality.cuad import SCORED, part_of
from raag_assets.quality.graph_gold import read_file, shared_root

ROOT = Path(__file__).resolve().parent.parent


def dump(out: Path) -> None:
    contracts = shared_root(ROOT) / "data" / "cuad" / "contracts"
    with out.open("w") as f:
        for path in sorted(contracts.iterdir()):
            try:
                _, sections, _ = read_file(path)
            except Exception as exc:  # a file the parser refuses is a row too
                f.write(f"{path.name}\tERROR {type(exc).__name__}\n")
                continue
            f.write(f"{path.name}\t{len(sections)}\t{' | '.join(s.label for s in sections)}\n")


def _read(path: Path) -> dict[str, list[str]]:
    rows = (line.rstrip("\n").split("\t") for line in path.open())
    return {r[0]: r[1:] for r in rows}


def diff(before: Path, after: Path) -> None:
    b, a = _read(before), _read(after)

    def total(d: dict[str, list[str]]) -> int:
        return sum(int(v[0]) for v in d.values() if v[0].isdigit())

    changed = [n for n in b if b[n] != a.get(n)]
    scored = [n for n in changed if part_of(n) == SCORED]
    print(f"sections {total(b)} -> {total(a)}; contracts changed {len(changed)} ", end="")
    print(f"(scored half: {len(scored)}, not shown)")
    for n in changed:
        if part_of(n) == SCORED:
            continue
        old = b[n][-1].split(" | ")
        new = a.get(n, ["", ""])[-1].split(" | ")
        print(f"== {n}: {b[n][0]} -> {a.get(n, ['-'])[0]}")
        print("  ", [d for d in difflib.ndiff(old, new) if d[0] in "+-"])


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"]:
        dump(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["diff"]:
        diff(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        sys.exit(__doc__)
