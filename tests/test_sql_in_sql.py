"""SQL lives in sql/ (ARCHITECTURE.md): migrations in sql/migrations, queries in
sql/queries/<verb>_<what>.sql loaded by name with store.db.load_sql. A statement written as a
string constant in a module of the packages fails here, with the place to move it from."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("raag_assets", "resources")

# A string that starts as an SQL statement does. Upper case is how the project writes SQL; lower
# case counts only where it reads as a statement, so prose ("Drop tenant ...") does not.
STATEMENT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\s+\S")
LOWER_STATEMENT = re.compile(
    r"^\s*(select\s.*\bfrom\s|insert\s+into\s|update\s+\w+\s+set\s|delete\s+from\s"
    r"|create\s+(table|index|database|schema|role|view|function)\s"
    r"|alter\s+(table|role|database)\s|drop\s+(table|index|database|schema|role|view)\s)",
    re.IGNORECASE | re.DOTALL,
)

# Statements still inline, each with the reason; an entry that no longer matches fails too.
KNOWN: dict[str, str] = {}


def is_statement(text: str) -> bool:
    return bool(STATEMENT.match(text) or LOWER_STATEMENT.match(text))


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the string constants that are docstrings (prose, never SQL)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def inline_statements(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each string constant in `path` that is an SQL statement."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docs = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and is_statement(node.value)
    ]


def test_no_sql_outside_sql_folder():
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            hits = inline_statements(path)
            if rel in KNOWN:
                hits = [(line, text) for line, text in hits if not text.startswith(KNOWN[rel])]
            if hits:
                found[rel] = hits
    assert not found, "SQL outside sql/queries (move it to a named query):\n" + "\n".join(
        f"  {rel}:{line}: {text.strip()[:70]!r}"
        for rel, hits in found.items()
        for line, text in hits
    )


def test_known_exceptions_still_exist():
    """A known exception that was moved is taken off the list, so the list stays true."""
    for rel, prefix in KNOWN.items():
        texts = [text for _, text in inline_statements(ROOT / rel)]
        assert any(t.startswith(prefix) for t in texts), f"{rel} no longer has {prefix!r}: drop it"


def test_the_pattern():
    for sql in (
        "SELECT 1",
        "  INSERT INTO t VALUES (1)",
        "WITH x AS (SELECT 1) SELECT * FROM x",
        "CREATE TABLE IF NOT EXISTS t (a int)",
        "select doc_id from documents",
        "delete from chunks where tenant_id = %s",
    ):
        assert is_statement(sql), sql
    for prose in (
        "with",
        "Drop tenant ",
        "Create a key for a tenant and print it.",
        "Select the best passages of each section.",
        "drop-tenant",
        "update the cache",
    ):
        assert not is_statement(prose), prose


def test_named_queries_exist():
    """Every load_sql("name") of the packages has its sql/queries/name.sql."""
    missing = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "attr", getattr(node.func, "id", None)) == "load_sql"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    name = node.args[0].value
                    if not (ROOT / "sql" / "queries" / f"{name}.sql").is_file():
                        missing.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert not missing, "\n".join(missing)
