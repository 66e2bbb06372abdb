"""Hostile inputs for the fuzz test, generated from a seed: files (bytes under a name), tenant
names, queries and filters. Every generator is deterministic for its random.Random."""

import io
import json
import random

from fpdf import FPDF

ZERO_WIDTH_AND_BIDI = (
    "\u200b\u200c\u200d\u2060\ufeff\u202a\u202b\u202d\u202e\u2066\u2067\u2068\u2069"
)
SQL = [
    "'; DROP TABLE documents; --",
    '" OR 1=1 --',
    "x'); DELETE FROM chunks WHERE ('1'='1",
    "$$; DROP SCHEMA public CASCADE; $$",
    "Robert'); DROP TABLE sections;--",
    "1; SELECT pg_sleep(10)",
    "%s %(tenant)s {0} \\x00",
    "tenant_a' UNION SELECT * FROM chunks__other --",
]
TRAVERSAL = [
    "../../etc/passwd",
    "..\\..\\windows\\win.ini",
    "/etc/shadow",
    "..%2f..%2fetc%2fpasswd",
    "....//....//x",
    "~/.ssh/id_rsa",
    "CON",
    "a/../../b",
]


def small_pdf(title: str = "Fuzz Handbook") -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
    for n in (1, 2):
        pdf.set_font("Helvetica", "B", 13)
        pdf.cell(0, 9, f"{n} Section {n}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 11)
        pdf.multi_cell(0, 6, f"Section {n} says staff follow rule {n} as described in Section 1.")
    buf = io.BytesIO()
    pdf.output(buf)
    return buf.getvalue()


def _hostile_text(rng: random.Random) -> str:
    return rng.choice(SQL + TRAVERSAL) + rng.choice(ZERO_WIDTH_AND_BIDI)


def files(rng: random.Random) -> dict[str, bytes]:
    """File name -> bytes: broken PDFs, random bytes, deep nesting, enormous lines, mixed
    encodings, invisible and bidi characters, hostile names and hostile metadata."""
    out: dict[str, bytes] = {}
    pdf = small_pdf()
    for i in range(25):
        out[f"truncated-{i:02d}.pdf"] = pdf[: rng.randrange(1, len(pdf) - 1)]
    for i in range(25):
        data = bytearray(pdf)
        for _ in range(rng.randrange(1, 40)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        out[f"corrupted-{i:02d}.pdf"] = bytes(data)
    for i in range(15):
        ext = rng.choice([".txt", ".md", ".pdf", ""])
        out[f"random-{i:02d}{ext}"] = rng.randbytes(rng.randrange(1, 5000))
    for i in range(10):
        depth = rng.randrange(50, 400)
        kind = i % 4
        if kind == 0:
            body = "\n".join(
                "#" * min(d + 1, 12) + f" Heading {d}\n\ntext {d}" for d in range(depth)
            )
        elif kind == 1:
            body = "# Quotes\n\n" + ">" * depth + " deeply quoted text"
        elif kind == 2:
            body = "# Lists\n\n" + "\n".join("  " * d + f"- item {d}" for d in range(depth))
        else:
            body = "# Numbers\n\n" + "\n".join(
                ".".join(["1"] * (d % 30 + 1)) + f" Clause {d}\n\nclause text" for d in range(depth)
            )
        out[f"nested-{i:02d}.md"] = body.encode()
    for i in range(8):
        size = [2_000_000, 40_000][i % 2]  # over the fuzz store's 1 MB limit, or just under it
        unit = rng.choice(["x", "word ", "\u00e9", "\u200b", "Section 1.1 "])
        out[f"enormous-{i:02d}.txt"] = ("# Huge\n\n" + unit * (size // len(unit.encode()))).encode()
    samples = ["Congés payés", "naïve café", "Straße", "日本語の文書", "Ελληνικά", "emoji 😀"]
    for i in range(20):
        text = f"# Encodings {i}\n\n" + " ".join(rng.choice(samples) for _ in range(30)) + "\n"
        kind = i % 5
        if kind == 0:
            data = text.encode("utf-8") + "latin-1 tail é".encode("latin-1")
        elif kind == 1:
            data = b"\xff\xfe" + text.encode("utf-16-le")
        elif kind == 2:
            data = text.encode("utf-8-sig")
        elif kind == 3:
            data = text.encode("utf-8") + b"\x00" * 3 + b"after nul"  # NUL past a text start
        else:
            data = b"A" * 9000 + b"\x00 NUL after the first 8 KB"
        out[f"encoding-{i:02d}.txt"] = data
    for i in range(20):
        mark = ZERO_WIDTH_AND_BIDI[i % len(ZERO_WIDTH_AND_BIDI)]
        text = (
            f"# Invisible{mark} Policy {i}\n\n## 1 Scope{mark}\n\nThe{mark} rule "
            f"applies{mark} to staff.\n\n## 2 Rules\n\nSee Section{mark} 1.\n"
        )
        # invisible marks are dropped from the text and from the doc_id a file name gives
        out[f"bidi-{i:02d}{mark if i % 2 else ''}.md"] = text.encode()
    hostile_names = [*SQL, *TRAVERSAL]
    for i in range(30):
        base = hostile_names[i % len(hostile_names)].replace("/", "\u2215").replace("\x00", "")
        name = f"{base}{' ' * (i % 3)}{i:02d}{rng.choice(['.md', '.txt', '.pdf'])}"
        if i == 29:
            name = "n" * 250 + ".md"
        out[name] = (f"# Named {i}\n\nA document with a hostile file name.\n").encode()
    for i in range(15):
        if i % 3 == 0:  # hostile but valid: stored verbatim, never executed
            front = {
                "tags": [rng.choice(SQL), "<script>alert(1)</script>"],
                "title": _hostile_text(rng),
                "doc_type": rng.choice(SQL),
                rng.choice(SQL): rng.choice(TRAVERSAL),
            }
            lines = "\n".join(f"{k}: {json.dumps(v)}" for k, v in front.items())
            out[f"metadata-{i:02d}.md"] = f"---\n{lines}\n---\n# Meta {i}\n\nBody {i}.\n".encode()
            continue
        front = {
            "tags": [rng.choice(SQL), _hostile_text(rng), "x" * rng.choice([10, 5000])],
            "title": _hostile_text(rng),
            "doc_type": rng.choice(SQL),
            "authority_level": rng.choice([40, "DROP", -1, 10**30, None]),
            "effective_from": rng.choice(["2024-01-01", "not-a-date", "2024-13-45", None]),
            rng.choice(SQL): _hostile_text(rng),
            "nested": json.loads("[" * 50 + "]" * 50),
        }
        if i % 5 == 0:
            front["doc_id"] = rng.choice(TRAVERSAL + SQL)
        if i % 7 == 3:
            front["title"] = "NUL\u0000inside"  # YAML turns the escape into a real NUL
        lines = "\n".join(f"{k}: {json.dumps(v)}" for k, v in front.items())
        out[f"metadata-{i:02d}.md"] = f"---\n{lines}\n---\n# Meta {i}\n\nBody {i}.\n".encode()
    return out


def tenants(rng: random.Random) -> list[str]:
    """Tenant ids that must all be refused."""
    names = [*SQL, *TRAVERSAL, "", " ", "A", "UPPER", "x" * 41, "-leading", "_under", "tab\tname"]
    names += ["public'", "t;", "t\u202e", "t\u200b", "ünïcode", "a\nb", "a b", "a.b"]
    return names + [rng.choice(SQL) + _hostile_text(rng) for _ in range(4)]


def queries(rng: random.Random) -> list[str]:
    out = [*SQL, *TRAVERSAL]
    out += ["!", "&", "|", "(", ")", ":*", "a & ! b", "'", "''", "\\", "<->", "a:* | !b"]
    out += ["", "   ", "\x00", "\u202e\u200b", "x" * 20_000, "leave " * 2000]
    out += [_hostile_text(rng) + " leave policy" for _ in range(40 - len(out))]
    return out
