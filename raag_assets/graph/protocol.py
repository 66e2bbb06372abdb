"""Layer 1 definitions of a protocol specification: the entries of its Types section
("DAMAGE   32-bit value", "UPDATETYPE { Automatic, Manual }", "CompositeCoordinate / child:
Window"). A standard names each type on its own paragraph, in capitals or CamelCase, and
gives its values, fields or meaning after it; the heading says the section lists types."""

import re

from raag_assets.core.model import Edge, SectionInfo
from raag_assets.graph.definitions import defines_edge
from raag_assets.graph.rules import rule

# The heading of a section that lists a protocol's types: "Types", "Data Types", "Protocol
# Types", "Common Types".
TYPES_SECTION = re.compile(r"^(?:(?:data|protocol|common)\s+)?types$", re.IGNORECASE)
TYPE_ENTRY = rule(
    "defines.type_entry",
    "definition",
    "in a Types section, a paragraph opening with a type's name in capitals or CamelCase, "
    "then its values in braces, its fields or its meaning",
    edge_type="defines",
    confidence=1.0,
    # a name in capitals (DAMAGE, DRI2ATTACH_FORMAT) or CamelCase with an inner capital
    # (DamageReportLevel), alone or before "{", a field ("child: Window") or a description
    pattern=r"^(?P<term>[A-Z][A-Z0-9_]+|[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)"
    r"(?=$|\s*\{|\s+[a-z][\w-]*(?:,\s*[a-z][\w-]*)*:\s|\s+\S)",
    examples=(
        "DAMAGE 32-bit value (top three bits guaranteed to be zero)",
        "UPDATETYPE { Automatic, Manual }",
        "CompositeCoordinate child: Window x, y: CARD16",
        "WidgetLevel",
    ),
    counter=("These values describe the type of driver.", "The WIDGET names a widget.", "X"),
)
_EVIDENCE_CHARS = 160


def type_definitions(section: SectionInfo) -> list[Edge]:
    """The types a Types section defines, one edge per entry (TYPE_ENTRY)."""
    if not TYPES_SECTION.match(section.heading.strip()):
        return []
    edges: list[Edge] = []
    position = 0
    for paragraph in section.text.split("\n\n"):
        if m := TYPE_ENTRY.search(paragraph.strip()):
            found = (position, m["term"], _evidence(section.text, position), TYPE_ENTRY)
            if (edge := defines_edge(section, found)) is not None:
                edges.append(edge)
        position += len(paragraph) + 2
    return edges


def _evidence(text: str, at: int) -> str:
    """The entry and what follows it (a name alone is explained by the next paragraph)."""
    return " ".join(text[at : at + _EVIDENCE_CHARS].split())
