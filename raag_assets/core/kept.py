"""Values kept in a process between calls, the least recently used dropped past a size: what
retrieval derives from a tenant's rows, keyed under the tenant's generation (so never stale)."""

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A bounded, thread-safe least-recently-used map."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            if key not in self._values:
                return None
            self._values.move_to_end(key)
            return self._values[key]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def values(self) -> Iterator[V]:
        with self._lock:
            return iter(list(self._values.values()))

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
