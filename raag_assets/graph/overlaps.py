"""The one overlap resolver of the extraction rules (spaCy's `util.filter_spans`): where
matches overlap, the longest wins, the earlier among equals; the kept matches come back in
text order. Plus the two span tests the rules share."""

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")
Span = tuple[int, int]


def longest_first(items: Iterable[T], span: Callable[[T], Span]) -> list[T]:
    """The items whose spans do not overlap a longer (or equally long, earlier) one's, in
    text order."""
    kept: list[tuple[Span, T]] = []
    for item in sorted(items, key=lambda i: (span(i)[0] - span(i)[1], span(i)[0])):
        start, end = span(item)
        if not any(start < e and s < end for (s, e), _ in kept):
            kept.append(((start, end), item))
    return [item for _, item in sorted(kept, key=lambda k: k[0])]


def overlaps(start: int, end: int, spans: Sequence[Span]) -> bool:
    """[start, end) shares a character with one of `spans`."""
    return any(start < e and s < end for s, e in spans)


def inside(position: int, spans: Sequence[Span]) -> bool:
    """`position` falls within one of `spans`."""
    return any(s <= position < e for s, e in spans)
