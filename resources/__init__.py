"""Dagster resources for raag: Postgres, the embedder, and the landing folders."""

from resources.embedder import EmbedderResource
from resources.landing import LandingResource
from resources.nlp import SpacyResource
from resources.postgres import PostgresResource

__all__ = ["EmbedderResource", "LandingResource", "PostgresResource", "SpacyResource"]
