"""Optional rerank block: a sentence-transformers CrossEncoder, by name or local path,
scores (query, passage) pairs; the final score blends it with the search score."""

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np


@functools.cache
def load_cross_encoder(name_or_path: str):
    from sentence_transformers import CrossEncoder

    return CrossEncoder(name_or_path, device="cpu")


def rerank(
    query: str,
    results: Sequence[dict[str, Any]],
    model: str,
    blend_weight: float = 0.5,
    top_n: int | None = None,
) -> list[dict[str, Any]]:
    """Results re-ordered by blend_weight * rerank + (1 - blend_weight) * search score, both
    min-max normalised over the results; ties keep the search order. Each result gains
    `rerank_score` and `blended_score`."""
    if not 0 <= blend_weight <= 1:
        raise ValueError(f"blend_weight must be within [0, 1], got {blend_weight}")
    pool = list(results[:top_n] if top_n else results)
    if not pool:
        return []
    raw = np.asarray(
        load_cross_encoder(model).predict(
            [(query, r["text"]) for r in pool], show_progress_bar=False
        ),
        dtype=np.float64,
    ).reshape(len(pool), -1)[:, -1]
    rr, base = _minmax(raw), _minmax(np.array([float(r["score"]) for r in pool]))
    blended = blend_weight * rr + (1 - blend_weight) * base
    order = sorted(range(len(pool)), key=lambda i: (-round(float(blended[i]), 12), i))
    return [
        {**pool[i], "rerank_score": float(raw[i]), "blended_score": float(blended[i])}
        for i in order
    ]


def _minmax(values: np.ndarray) -> np.ndarray:
    span = values.max() - values.min()
    return (values - values.min()) / span if span > 0 else np.zeros_like(values)
