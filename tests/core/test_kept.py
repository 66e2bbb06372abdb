"""Kept: the least recently used value goes first once past the size."""

from raag_assets.core.kept import Kept


def test_the_least_recently_used_value_is_dropped_past_the_size():
    kept: Kept[str, int] = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # now the most recent
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, None, 3)
    assert sorted(kept.values()) == [1, 3]
    kept.clear()
    assert list(kept.values()) == []
