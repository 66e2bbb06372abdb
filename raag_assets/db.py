"""The README's path from before the layout: database access is raag_assets.store.db."""

from raag_assets.store.db import *  # noqa: F403
