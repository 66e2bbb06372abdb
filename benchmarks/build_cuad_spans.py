"""Build golden/spans/cuad_dev.json: a span-labelled retrieval set over the dev contracts.

Each CUAD annotation in ../shared/data/dev_legal/cuad_labels.jsonl names the clause texts a
lawyer marked for a question (governing law, term, dates, renewal); each is located in its
contract file, as `open(file).read()` gives it, to get character spans. A clause that CUAD
joined from pieces ("<omitted>") gives one span per piece. The question names the contract
by its title and parties, as a user would when eight contracts share a tenant.

Run: .venv/bin/python benchmarks/build_cuad_spans.py
"""

import ast
import json
import os
import re
from pathlib import Path

from raag_assets.quality.cuad_spans import locate

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("RAAG_SHARED", ROOT.parent / "shared"))
LABELS = SHARED / "data" / "dev_legal" / "cuad_labels.jsonl"
CORPUS = SHARED / "data" / "dev_legal" / "contracts"
OUT = ROOT / "golden" / "spans" / "cuad_dev.json"

QUESTIONS = {
    "Governing Law": "Which jurisdiction's law governs the {name}?",
    "Expiration Date": "How long does the {name} last before it expires?",
    "Effective Date": "From when is the {name} effective?",
    "Agreement Date": "On what date was the {name} made?",
    "Renewal Term": "Does the {name} renew automatically, and for how long?",
    "Notice Period To Terminate Renewal": (
        "How much notice must be given to stop the {name} from renewing?"
    ),
}


def contract_name(row: dict) -> str:
    # "INTELLECTUAL PROPERTY AGREEMENT, d": a fragment CUAD's span cut off
    title = re.sub(r",\s*\w?$", "", row["Document Name"]["answer"].strip()).title()
    parties = []
    for part in (row["Parties"]["answer"] or "").split(";"):
        name = re.sub(r"\(.*?\)", "", part).strip().rstrip(",").strip()
        if name:
            parties.append(name.title().replace("Llc", "LLC").replace("Inc.", "Inc."))
    if len(parties) >= 2:
        return f"{title} between {parties[0]} and {parties[1]}"
    return title


def main() -> None:
    tests = []
    missing = 0
    for line in LABELS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        path = CORPUS / row["file"]
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        name = contract_name(row)
        for category, template in QUESTIONS.items():
            raw = row.get(category, {}).get("clauses")
            clauses = ast.literal_eval(raw) if raw else []
            snippets = []
            for clause in clauses:
                for piece in clause.split("<omitted>"):
                    if len(piece.strip()) < 4:
                        continue
                    span = locate(text, piece.strip())
                    if span is None:
                        missing += 1
                        continue
                    snippet = {"file_path": row["file"], "span": list(span)}
                    if snippet not in snippets:
                        snippets.append(snippet)
            if snippets:
                tests.append(
                    {
                        "query": template.format(name=name),
                        "category": category,
                        "snippets": sorted(snippets, key=lambda s: s["span"]),
                    }
                )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    body = {
        "corpus": "../shared/data/dev_legal/contracts",
        "source": "CUAD v1 annotations (cuad_labels.jsonl), located by build_cuad_spans.py",
        "tests": tests,
    }
    OUT.write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(tests)} tests, {missing} clause pieces not found -> {OUT}")


if __name__ == "__main__":
    main()
