"""Layer 3's heading vectors cached in Postgres by the hash of the embedded text."""

from collections.abc import Callable, Iterable

import numpy as np
import psycopg

from raag_assets.core.identity import sha256_hex
from raag_assets.store.db import load_sql


def text_hash(text: str) -> str:
    return sha256_hex(text)


class HeadingVectors:
    """`embed` for heading texts, answered from the tenant's cache where it can; the texts
    it had to embed are written back and counted in `hits` / `misses`."""

    def __init__(
        self,
        conn: psycopg.Connection,
        tenant: str,
        model: str,
        embed: Callable[[list[str]], np.ndarray],
    ):
        self.conn, self.tenant, self.model, self._embed = conn, tenant, model, embed
        self.hits = 0
        self.misses = 0

    def __call__(self, texts: list[str]) -> np.ndarray:
        hashes = [text_hash(t) for t in texts]
        rows = self.conn.execute(
            load_sql("select_heading_vectors"),
            {"tenant": self.tenant, "model": self.model, "hashes": sorted(set(hashes))},
        ).fetchall()
        cached = {h: v.to_numpy().astype(np.float32) for h, v in rows}
        todo = sorted({h: t for h, t in zip(hashes, texts, strict=True) if h not in cached}.items())
        if todo:
            fresh = self._embed([t for _, t in todo])
            with self.conn.transaction(), self.conn.cursor() as cur:
                cur.executemany(
                    load_sql("insert_heading_vector"),
                    [
                        {"tenant": self.tenant, "model": self.model, "hash": h, "embedding": v}
                        for (h, _), v in zip(todo, fresh, strict=True)
                    ],
                )
            cached.update((h, v) for (h, _), v in zip(todo, fresh, strict=True))
        self.hits += len(texts) - len(todo)
        self.misses += len(todo)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([cached[h] for h in hashes])

    def prune(self, texts: Iterable[str]) -> None:
        """Forget vectors of headings no longer in the tenant (and of other models)."""
        self.conn.execute(
            load_sql("prune_heading_vectors"),
            {
                "tenant": self.tenant,
                "model": self.model,
                "hashes": sorted({text_hash(t) for t in texts}),
            },
        )
